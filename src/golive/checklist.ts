// Owns the go-live checklist: per operation, what a reviewer needs before approving an account's live
// use of it, each item done or not with a detail, and the operation's go-live status. Read-only; it
// asks the stores that own each fact (the profile, the live allow-list, live webhook deliveries,
// sandbox transactions, consent records, approvals). The status follows `approvals` first — the one
// table the live guard reads — so an operator's `sangam approve` shows as approved too. sandboxView is the
// checklist as a sandbox key reads it (GET /api/v1/account/go-live): progress, no live configuration.
//
// What "done" means (docs/CONSENT.md, "Go-live checklist"):
// - business_details: a legal name, an address or a website, and a contact e-mail or phone;
// - use_case: the use case text;
// - consent_notice: the notice text and version in the profile, or else a consent record of the
//   account covering the operation (its notice version, language and SHA-256);
// - allowlist: at least one live allow-list entry (an empty live list denies every call);
// - webhook: a live endpoint, not deleted or disabled, that acknowledged a delivery with a 2xx (any
//   event; a test event from the console counts): proof the account receives and answers our events;
// - sandbox_calls: at least MIN_SANDBOX_SUCCESSES sandbox calls of the operation that succeeded.
import { sql } from 'kysely';
import type { Db } from '../db/client.js';
import { listApprovals } from '../access/approvals.js';
import { listEntries } from '../access/allowlist.js';
import { latestSubmissions, readProfile, type Profile, type Submission } from './store.js';

export const MIN_SANDBOX_SUCCESSES = 1;
export const ITEM_IDS = ['business_details', 'use_case', 'consent_notice', 'allowlist', 'webhook', 'sandbox_calls'] as const;
export type ItemId = (typeof ITEM_IDS)[number];
export interface Item {
  id: ItemId;
  done: boolean;
  detail: string;
}
export type GoLiveStatus = 'not_submitted' | 'submitted' | 'approved' | 'rejected';
export interface OperationChecklist {
  operation: string;
  status: GoLiveStatus;
  ready: boolean;
  items: Item[];
  submission: SubmissionView | null;
}
export interface SubmissionView {
  id: string;
  state: Submission['state'];
  submitted_by: string;
  submitted_at: string;
  decided_by: string | null;
  decided_at: string | null;
  reason: string | null;
}

const filled = (v: string) => v.trim().length > 0;
const item = (id: ItemId, done: boolean, detail: string): Item => ({ id, done, detail });

export const submissionView = (s: Submission): SubmissionView => ({
  id: s.id,
  state: s.state,
  submitted_by: s.submitted_by,
  submitted_at: s.submitted_at.toISOString(),
  decided_by: s.decided_by,
  decided_at: s.decided_at?.toISOString() ?? null,
  reason: s.reason,
});

function profileItems(p: Profile): Item[] {
  const missing = [!filled(p.legal_name) && 'legal name', !filled(p.address) && !filled(p.website) && 'address or website', !filled(p.contact_email) && !filled(p.contact_phone) && 'contact e-mail or phone'].filter(Boolean);
  return [
    item('business_details', missing.length === 0, missing.length === 0 ? `${p.legal_name}; ${p.website || p.address}; contact ${[p.contact_name, p.contact_email, p.contact_phone].filter(filled).join(', ')}` : `missing: ${missing.join(', ')}`),
    item('use_case', filled(p.use_case), filled(p.use_case) ? p.use_case : 'describe what the account uses the operations for'),
  ];
}

/** The live endpoint that acknowledged a delivery, if any; else how many live endpoints exist. */
async function webhookItem(db: Db, accountId: string): Promise<Item> {
  const endpoints = await db
    .selectFrom('webhook_endpoints as e')
    .select(['e.url', sql<boolean>`EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.endpoint_id = e.id AND d.status = 'delivered')`.as('verified')])
    .where('e.account_id', '=', accountId)
    .where('e.environment', '=', 'live')
    .where('e.deleted_at', 'is', null)
    .where('e.disabled_at', 'is', null)
    .execute();
  const verified = endpoints.find((e) => e.verified);
  if (verified) return item('webhook', true, `${verified.url} acknowledged a delivery`);
  if (endpoints.length === 0) return item('webhook', false, 'no live webhook endpoint: register one with a live key');
  return item('webhook', false, `${endpoints.length} live endpoint(s), none has acknowledged a delivery yet: send a test event from the console's Webhooks page`);
}

async function sandboxSuccesses(db: Db, accountId: string): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('transactions')
    .select(['operation', sql<number>`count(*)::int`.as('n')])
    .where('account_id', '=', accountId)
    .where('environment', '=', 'sandbox')
    .where('status', '=', 'success')
    .groupBy('operation')
    .execute();
  return new Map(rows.map((r) => [r.operation, Number(r.n)]));
}

/** The latest consent record of the account covering each operation (either environment). */
async function recordedNotices(db: Db, accountId: string) {
  const rows = await db
    .selectFrom('consents')
    .select(['id', 'operations', 'notice_version', 'notice_language', 'notice_sha256', 'notice_text'])
    .where('account_id', '=', accountId)
    .orderBy('created_at', 'desc')
    .limit(200)
    .execute();
  return (op: string) => rows.find((r) => (JSON.parse(r.operations) as string[]).includes(op));
}

function noticeItem(p: Profile, recorded: Awaited<ReturnType<typeof recordedNotices>>, op: string): Item {
  if (filled(p.notice_version) && filled(p.notice_text)) return item('consent_notice', true, `version ${p.notice_version} (go-live profile): ${p.notice_text}`);
  const c = recorded(op);
  if (c) return item('consent_notice', true, `version ${c.notice_version} (${c.notice_language}) as recorded with consent ${c.id}, sha256 ${c.notice_sha256}: ${c.notice_text}`);
  return item('consent_notice', false, 'give the consent notice text and version, or record a consent covering this operation');
}

function statusOf(op: string, approved: Set<string>, s: Submission | undefined): GoLiveStatus {
  if (approved.has(op)) return 'approved';
  // An approval withdrawn by an operator leaves an `approved` submission behind: the account asks again.
  if (!s || s.state === 'approved') return 'not_submitted';
  return s.state;
}

/** The checklist of every operation in `slugs`, with the profile it was judged on. */
export async function checklist(db: Db, accountId: string, slugs: readonly string[]): Promise<{ profile: Profile; operations: OperationChecklist[] }> {
  const [profile, approvals, allowlist, webhook, successes, notices, submissions] = await Promise.all([
    readProfile(db, accountId),
    listApprovals(db, accountId),
    listEntries(db, accountId, 'live'),
    webhookItem(db, accountId),
    sandboxSuccesses(db, accountId),
    recordedNotices(db, accountId),
    latestSubmissions(db, accountId),
  ]);
  const approved = new Set(approvals);
  const shared = profileItems(profile);
  const allow = item('allowlist', allowlist.length > 0, allowlist.length > 0 ? `live allow-list: ${allowlist.join(', ')}` : 'the live allow-list is empty, so every live call would be refused');
  const operations = slugs.map((op) => {
    const n = successes.get(op) ?? 0;
    const calls = item('sandbox_calls', n >= MIN_SANDBOX_SUCCESSES, `${n} successful sandbox call(s) of ${op}${n >= MIN_SANDBOX_SUCCESSES ? '' : `; at least ${MIN_SANDBOX_SUCCESSES} needed`}`);
    const items = [...shared, noticeItem(profile, notices, op), allow, webhook, calls];
    const s = submissions.get(op);
    return { operation: op, status: statusOf(op, approved, s), ready: items.every((i) => i.done), items, submission: s ? submissionView(s) : null };
  });
  return { profile, operations };
}

/** What a done item's detail becomes for a sandbox key, where the detail would show live or profile facts. */
const WITHHELD: Partial<Record<Item['id'], string>> = {
  business_details: 'complete (the details are shown to a live key and in the console)',
  use_case: 'described (shown to a live key and in the console)',
  allowlist: 'the live allow-list has entries (its addresses are shown to a live key and in the console)',
  webhook: 'a live endpoint acknowledged a delivery (its URL is shown to a live key and in the console)',
};

/** The checklist as a sandbox key sees it: progress, without the profile or the live configuration. */
export function sandboxView(c: { profile: Profile; operations: OperationChecklist[] }): { profile: null; operations: OperationChecklist[] } {
  const item = (i: Item): Item => (i.done && WITHHELD[i.id] ? { ...i, detail: WITHHELD[i.id]! } : i);
  return { profile: null, operations: c.operations.map((o) => ({ ...o, items: o.items.map(item) })) };
}
