// Owns consent records (CONTRACT §13): writing one with its signed receipt and the receipt's hash in
// the audit chain, reading one (with its uses) or a subject's list, and recording each call made under
// one. The subject is kept only as keyed hashes (HMAC-SHA256 with the deployment's `consent_subject`
// secret, so a leaked dump cannot be searched by guessing mobile numbers) and masked forms; the notice
// as shown, with its SHA-256. A consent belongs to one account and one environment: any other caller
// is told it does not exist.
import { createHash, createHmac } from 'node:crypto';
import type { Db } from '../db/client.js';
import type { ConsentStatus, DB, Environment } from '../db/schema.js';
import type { Trx } from '../db/transaction.js';
import { sql, type Selectable } from 'kysely';
import { ApiError } from '../errors.js';
import { newId } from '../ids.js';
import { appendAdminEvent } from '../audit/admin-events.js';
import { receiptHash, signReceipt, type ReceiptKey } from './receipt.js';

export type Scope = { accountId: string; environment: Environment };
type SubjectKind = 'mobile' | 'email' | 'reference';
export type Subject = Partial<Record<SubjectKind, string>>;

export interface NewConsent {
  subject: Subject;
  purpose: { code: string; text: string };
  operations: string[];
  notice: { version: string; language: string; text: string };
  channel?: string;
  collected_at?: string;
  expires_at?: string;
}

/** How a subject's value is compared: a mobile by its last 10 digits, an e-mail case-insensitively. */
const normal = (kind: SubjectKind, v: string) => (kind === 'mobile' ? v.replace(/\D/g, '').slice(-10) : kind === 'email' ? v.trim().toLowerCase() : v.trim());
const masked = (v: string) => '*'.repeat(Math.max(0, v.length - 4)) + v.slice(-4);

export class SubjectHasher {
  constructor(private secret: string) {}

  hash(kind: SubjectKind, value: string): string {
    return createHmac('sha256', this.secret).update(`${kind}:${normal(kind, value)}`).digest('hex');
  }
}

export interface ConsentDeps {
  db: Db;
  hasher: SubjectHasher;
  receiptKey: ReceiptKey;
  /** The receipts' issuer (`iss`): this deployment's public URL. */
  issuer: string;
}

type Row = Selectable<DB['consents']>;

/** The claims Sangam signs: the record without the subject's values (hashes and masked forms only). */
function claimsOf(row: Row, issuer: string): Record<string, unknown> {
  return {
    iss: issuer,
    jti: row.id,
    iat: Math.floor(row.created_at.getTime() / 1000),
    account_id: row.account_id,
    environment: row.environment,
    subject: { mobile_hash: row.subject_mobile_hash, email_hash: row.subject_email_hash, reference_hash: row.subject_reference_hash, masked: JSON.parse(row.subject_masked) },
    purpose: { code: row.purpose_code, text: row.purpose_text },
    operations: JSON.parse(row.operations),
    notice: { version: row.notice_version, language: row.notice_language, sha256: row.notice_sha256 },
    channel: row.channel,
    collected_at: row.collected_at.toISOString(),
    expires_at: row.expires_at?.toISOString() ?? null,
  };
}

/** Errors: validation (a subject with nothing in it; expires_at not after collected_at). */
export async function createConsent(deps: ConsentDeps, scope: Scope, keyId: string, c: NewConsent): Promise<ConsentView> {
  const kinds = (['mobile', 'email', 'reference'] as const).filter((k) => c.subject[k] !== undefined);
  if (kinds.length === 0) throw ApiError.validation([{ field: 'subject', message: 'subject must name the person: mobile, email or reference' }]);
  const collectedAt = c.collected_at ? new Date(c.collected_at) : new Date();
  const expiresAt = c.expires_at ? new Date(c.expires_at) : null;
  // Compared only with a collected_at given: a consent recorded after it lapsed is a record of the past.
  if (expiresAt && c.collected_at && expiresAt <= collectedAt) throw ApiError.validation([{ field: 'expires_at', message: 'expires_at must be after collected_at' }]);
  const hash = (k: SubjectKind) => (c.subject[k] === undefined ? null : deps.hasher.hash(k, c.subject[k]));
  const row: Row = {
    id: newId('cns', 24),
    account_id: scope.accountId,
    environment: scope.environment,
    status: 'active',
    subject_mobile_hash: hash('mobile'),
    subject_email_hash: hash('email'),
    subject_reference_hash: hash('reference'),
    subject_masked: JSON.stringify(Object.fromEntries(kinds.map((k) => [k, masked(c.subject[k]!)]))),
    purpose_code: c.purpose.code,
    purpose_text: c.purpose.text,
    operations: JSON.stringify([...new Set(c.operations)]),
    notice_version: c.notice.version,
    notice_language: c.notice.language,
    notice_text: c.notice.text,
    notice_sha256: createHash('sha256').update(c.notice.text).digest('hex'),
    channel: c.channel ?? null,
    collected_at: collectedAt,
    expires_at: expiresAt,
    created_at: new Date(Math.floor(Date.now() / 1000) * 1000),
    ended_at: null,
    effected_at: null,
    receipt: '',
  };
  row.receipt = signReceipt(deps.receiptKey, claimsOf(row, deps.issuer));
  await deps.db.transaction().execute(async (trx) => {
    await trx.insertInto('consents').values(row).execute();
    // The receipt's hash in the audit chain: a receipt that was never issued cannot be shown later.
    await appendAdminEvent(trx, `key:${keyId}`, {
      ...scope,
      action: 'consents create',
      dataClass: 'consent',
      detail: { consent_id: row.id, receipt_sha256: receiptHash(row.receipt), kid: deps.receiptKey.kid, notice_sha256: row.notice_sha256 },
    });
  });
  return viewOf(row, { count: 0, last_used_at: null, request_ids: [] });
}

export interface Uses {
  count: number;
  last_used_at: string | null;
  request_ids: string[];
}

export type ConsentView = ReturnType<typeof viewOf>;

function viewOf(row: Row, uses?: Uses) {
  return {
    id: row.id,
    status: row.status,
    environment: row.environment,
    subject: JSON.parse(row.subject_masked) as Subject,
    purpose: { code: row.purpose_code, text: row.purpose_text },
    operations: JSON.parse(row.operations) as string[],
    notice: { version: row.notice_version, language: row.notice_language, text: row.notice_text, sha256: row.notice_sha256 },
    channel: row.channel,
    collected_at: row.collected_at.toISOString(),
    expires_at: row.expires_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    ended_at: row.ended_at?.toISOString() ?? null,
    ...(uses && { uses }),
    receipt: row.receipt,
  };
}

/** The caller's own consent row, or undefined (another account's or environment's is not found either). */
export function ownConsent(db: Db | Trx, scope: Scope, id: string) {
  return db.selectFrom('consents').selectAll().where('id', '=', id).where('account_id', '=', scope.accountId).where('environment', '=', scope.environment).executeTakeFirst();
}

/** How many request ids a consent's view lists (the most recent); the count covers them all. */
const USES_LISTED = 100;

/** Errors: not_found. */
export async function getConsent(db: Db, scope: Scope, id: string): Promise<ConsentView> {
  const row = await ownConsent(db, scope, id);
  if (!row) throw new ApiError('not_found', `No consent ${id}`);
  const recent = await db.selectFrom('consent_uses').select(['request_id', 'used_at']).where('consent_id', '=', id).orderBy('id', 'desc').limit(USES_LISTED).execute();
  const total = await db.selectFrom('consent_uses').select((eb) => eb.fn.countAll<string>().as('n')).where('consent_id', '=', id).executeTakeFirstOrThrow();
  return viewOf(row, { count: Number(total.n), last_used_at: recent[0]?.used_at.toISOString() ?? null, request_ids: recent.map((r) => r.request_id).reverse() });
}

/** The caller's consents for a subject's mobile number, newest first. */
export async function listBySubjectMobile(deps: ConsentDeps, scope: Scope, mobile: string): Promise<ConsentView[]> {
  const rows = await deps.db
    .selectFrom('consents')
    .selectAll()
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .where('subject_mobile_hash', '=', deps.hasher.hash('mobile', mobile))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(200)
    .execute();
  return rows.map((r) => viewOf(r));
}

/** Whether the consent may be cited now; the reason it may not, otherwise. */
export function citable(row: Row | undefined, operation: string, now = new Date()): string | null {
  if (!row) return 'no such consent for this account and environment';
  if (row.status !== 'active') return `the consent is ${row.status}`;
  if (row.expires_at && row.expires_at <= now) return 'the consent has expired';
  if (!(JSON.parse(row.operations) as string[]).includes(operation)) return `the consent does not cover ${operation}`;
  return null;
}

/**
 * Records a use, in one statement with its consent's effect reopened when the consent ended between the
 * gate's check and this write (the expiry worker retries an end left un-effected, erasing this use too).
 */
export async function recordUse(trx: Trx, use: { consentId: string; requestId: string; txnId: string; operation: string; referenceId: string }): Promise<void> {
  await sql`
    WITH used AS (
      INSERT INTO consent_uses (consent_id, request_id, txn_id, operation, reference_id)
      VALUES (${use.consentId}, ${use.requestId}, ${use.txnId}, ${use.operation}, ${use.referenceId})
      RETURNING consent_id)
    UPDATE consents SET effected_at = NULL
    WHERE id = (SELECT consent_id FROM used) AND status <> 'active' AND effected_at IS NOT NULL`.execute(trx);
}

export type { ConsentStatus };
