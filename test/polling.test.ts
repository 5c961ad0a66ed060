// Polling etiquette per partner (SANGAM_PARTNER_<NAME>_POLL_FIRST_S / _GAP_S / _CUTOFF_S over the
// partner's documented defaults): the first status enquiry waits for firstS, enquiries are gapS apart,
// and past cutoffS the pending goes to manual review with its hold intact.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { partnerEnv } from '../partner-sim/kind.js';
import { eventually, PATHS, VALID } from './harness.js';
import { freePort, startPartnerApp, startSim, type PartnerApp, type Sim } from './live-harness.js';

describe('polling etiquette of a partner', () => {
  let t: PartnerApp;
  let sim: Sim;
  before(async () => {
    sim = await startSim({ pendingMs: 60_000 }); // the partner keeps it pending for the whole test
    const vars = { SECRET: sim.secret, POLL_FIRST_S: '1', POLL_GAP_S: '0.5', POLL_CUTOFF_S: '6' }; // a cut-off with room for several enquiries on a busy machine
    t = await startPartnerApp({ ...partnerEnv('sim', 'sangam', sim.url, vars), SANGAM_RECONCILE_POLL_MS: '50', SANGAM_PARTNER_TIMEOUT_MS: '2000' }, { port: await freePort(), topUpInr: 1_000 });
  });
  after(async () => {
    await t.close();
    await sim.stop();
  });

  it('asks no earlier than firstS, then every gapS, and hands over to review at the cut-off', async () => {
    await sim.faults({ drop_callbacks: true });
    const r = await t.call('POST', PATHS.upi, { key: t.liveKey, body: { ...VALID.upi(), vpa: 'pending@sandbox' } });
    assert.equal(r.body.statuscode, 'TUP', r.text);
    const txnId = r.body.data.txn_id as string;
    const row = () => t.store.db.selectFrom('transactions').select(['checks', 'review_reason', 'created_at', 'next_check_at', 'status']).where('id', '=', txnId).executeTakeFirstOrThrow();
    const early = await row();
    await eventually(async () => (await row()).checks >= 1, 30_000);
    const first = await row();
    assert.ok(first.created_at.getTime() + 1000 <= Date.now(), 'the first enquiry waited for POLL_FIRST_S');
    const reviewed = await eventually(async () => {
      const x = await row();
      return x.review_reason ? x : undefined;
    }, 20_000);
    assert.equal(reviewed.status, 'pending');
    // From 1 s to 6 s, 0.5 s apart: at most 11 enquiries, and never one per reconcile tick (50 ms).
    assert.ok(reviewed.checks >= 2 && reviewed.checks <= 11, `enquiries were POLL_GAP_S apart (${reviewed.checks})`);
    assert.equal(early.checks, 0);
    const hold = await t.store.db.selectFrom('holds').select('status').where('txn_id', '=', txnId).executeTakeFirstOrThrow();
    assert.equal(hold.status, 'pending', 'the hold is kept for the review');
    await sim.faults({});
  });
});
