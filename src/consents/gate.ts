// Owns the consent check every operation call passes (CONTRACT §13), called once by the operation
// route before the operation may refuse or do anything: a cited `consent_id` must be the caller's own,
// in the same environment, active, unexpired and cover the operation, or the call is a 422 naming
// consent_id and nothing runs; an account that requires it gets the same 422 for a live call without
// one. The use is written with the operation's record (the context's afterRecord: a live call's
// recovery point, before its partner is asked), so a call that is never recorded leaves no use
// behind, and a withdrawal while the partner is asked finds the use (still pending: erased once final).
import type { Transaction } from 'kysely';
import type { Db } from '../db/client.js';
import type { DB, Environment } from '../db/schema.js';
import { ApiError } from '../errors.js';
import { TtlCache } from '../access/ttl-cache.js';
import { citable, ownConsent, recordUse } from './store.js';

/** What the gate reads of an operation call (structurally, the operation's context). */
export interface CitingCall {
  accountId: string;
  environment: Environment;
  requestId: string;
  txnId: string;
  afterRecord: Array<(trx: Transaction<DB>) => Promise<void>>;
}

/** The ids Sangam issues (`cns_` and 24 base62 characters). */
export const CONSENT_ID_PATTERN = '^cns_[0-9A-Za-z]{24}$';
const CONSENT_ID = new RegExp(CONSENT_ID_PATTERN);

const refuse = (message: string) => ApiError.validation([{ field: 'consent_id', message }]);

export class ConsentGate {
  private required: TtlCache<boolean>;

  constructor(
    private db: Db,
    ttlMs: number,
  ) {
    this.required = new TtlCache(ttlMs);
  }

  /** Errors: validation naming consent_id (malformed, not citable, or missing where the account requires it). */
  async check(operation: string, input: Record<string, unknown>, call: CitingCall): Promise<void> {
    const id = input.consent_id;
    if (id === undefined) {
      if (call.environment === 'live' && (await this.requiredFor(call.accountId))) throw refuse('this account requires consent_id on live calls');
      return;
    }
    if (typeof id !== 'string' || !CONSENT_ID.test(id)) throw refuse('consent_id must be a consent id (cns_ and 24 letters or digits)');
    const why = citable(await ownConsent(this.db, call, id), operation);
    if (why) throw refuse(why);
    const referenceId = typeof input.reference_id === 'string' ? input.reference_id : call.txnId;
    call.afterRecord.push((trx) => recordUse(trx, { consentId: id, requestId: call.requestId, txnId: call.txnId, operation, referenceId }));
  }

  private requiredFor(accountId: string): Promise<boolean> {
    return this.required.get(accountId, async () => {
      const row = await this.db.selectFrom('accounts').select('require_consent_live').where('id', '=', accountId).executeTakeFirst();
      return row?.require_consent_live ?? false;
    });
  }
}
