// Owns reading the float drifts for the "Needs attention" queue (src/float/ finds them): each open
// item with its partner, the drift, the candidate transactions that explain it and what is proposed
// for it, and one item's page — the drift, its resolutions, the reversals proposed for its
// candidates (the transactions' own resolutions), the partner's last check and its latest movements.
import type { Db } from '../db/client.js';
import { paiseToInr } from '../money.js';
import * as floats from '../float/store.js';
import { resolutionsOf } from './resolutions.js';
import { decisionView } from './queue.js';

const iso = (d: Date | null) => d?.toISOString() ?? null;

export function driftView(d: floats.Drift) {
  return {
    id: d.id,
    partner: d.partner,
    state: d.state,
    drift: paiseToInr(d.drift_paise),
    drift_paise: d.drift_paise,
    expected_paise: d.expected_paise,
    actual_paise: d.actual_paise,
    candidates: d.candidates,
    opened_at: d.opened_at.toISOString(),
    updated_at: d.updated_at.toISOString(),
    closed_at: iso(d.closed_at),
    closed_by: d.closed_by,
    close_reason: d.close_reason,
  };
}

export function floatResolutionView(r: floats.FloatResolution) {
  return { id: r.id, drift_id: r.drift_id, action: r.action, amount_paise: r.amount_paise, ...decisionView(r) };
}

export const movementView = (m: floats.Movement) => ({ id: m.id, kind: m.kind, amount_paise: m.amount_paise, txn_id: m.txn_id, memo: m.memo, recorded_by: m.recorded_by, at: m.at.toISOString() });

/** The open drift items, oldest first, each with the proposal waiting on it (an adjustment, or a candidate's reversal). */
export async function floatQueue(db: Db) {
  const items = await floats.openDrifts(db);
  return Promise.all(
    items.map(async (d) => {
      const open = await floats.openFloatResolution(db, d.id);
      const reversals = await proposedReversals(db, d);
      return { ...driftView(d), proposal: open ? floatResolutionView(open) : null, reversals_proposed: reversals };
    }),
  );
}

/** The reversals waiting for a second admin on the drift's candidates. */
async function proposedReversals(db: Db, d: floats.Drift) {
  const out: Array<{ resolution_id: string; txn_id: string; proposed_by: string; state: string }> = [];
  for (const t of d.candidates.transactions) {
    for (const r of await resolutionsOf(db, t.txn_id)) {
      if (r.action === 'reversal' && r.proposed_at >= d.opened_at) out.push({ resolution_id: r.id, txn_id: t.txn_id, proposed_by: r.proposed_by, state: r.state });
    }
  }
  return out;
}

/** One drift item's page; undefined when there is none. */
export async function driftPage(db: Db, id: string) {
  const d = await floats.getDrift(db, id);
  if (!d) return undefined;
  const check = await floats.lastCheck(db, d.partner);
  return {
    drift: driftView(d),
    resolutions: (await floats.floatResolutionsOf(db, d.id)).map(floatResolutionView),
    reversals: await proposedReversals(db, d),
    check: check ? { checked_at: check.checked_at.toISOString(), expected_paise: check.expected_paise, actual_paise: check.actual_paise, drift_paise: check.drift_paise, streak: check.streak, error: check.error } : null,
    movements: (await floats.movements(db, d.partner, 50)).map(movementView),
  };
}

/** Each partner's float as last checked, with its open item: `sangam float status`. */
export async function floatStatus(db: Db) {
  const checks = await db.selectFrom('float_checks').selectAll().orderBy('partner').execute();
  const open = new Map((await floats.openDrifts(db)).map((d) => [d.partner, d.id]));
  return checks.map((c) => ({
    partner: c.partner,
    checked_at: c.checked_at.toISOString(),
    expected_paise: c.expected_paise,
    actual_paise: c.actual_paise,
    drift_paise: c.drift_paise,
    streak: c.streak,
    error: c.error,
    error_at: iso(c.error_at),
    open_item: open.get(c.partner) ?? null,
  }));
}
