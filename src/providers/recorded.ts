// Owns the one store-then-send helper connectors use: what a later status enquiry or webhook will need
// about a request (its exact body, our amounts, what the client gave to compare) is kept in the partner
// sessions under the transaction BEFORE the request is sent, so it is on record whenever the partner can
// have acted; it is forgotten again when the send surely never arrived. Nothing here replays a request:
// a status enquiry is a lookup (CONTRACT §9). Used by cashfree-verification and both Setu connectors.
import { PartnerError, type PartnerSessions } from './connector.js';
import { Unanswered, Unsent } from './partner-http.js';

export class RecordedRequests<T> {
  constructor(
    private sessions: PartnerSessions,
    /** The session key prefix: `recharge`, `pay`, `pennydrop`. */
    private prefix: string,
    private ttlS: number,
    /** What the request is, for the message when it cannot be recorded: "recharge", "penny drop". */
    private what: string,
  ) {}

  key(txnId: string): string {
    return `${this.prefix}:${txnId}`;
  }

  get(txnId: string): Promise<T | undefined> {
    return this.sessions.get<T>(this.key(txnId));
  }

  /**
   * Records `value`, then sends. A send that never arrived (Unsent, or an error before any request, such
   * as a refused login) forgets the record: Unsent becomes a PartnerError, the other error is rethrown.
   * A send that may have arrived (Unanswered) keeps it and throws `pending(err)`.
   */
  async send<A>(txnId: string, value: T, call: () => Promise<A>, pending: (err: Unanswered) => Error): Promise<A> {
    try {
      await this.sessions.put(this.key(txnId), value, this.ttlS);
    } catch {
      throw new PartnerError('unavailable', `The ${this.what} request could not be recorded before sending; nothing was sent or debited`);
    }
    try {
      return await call();
    } catch (err) {
      if (err instanceof Unanswered) throw pending(err);
      await this.forget(txnId);
      if (err instanceof Unsent) throw new PartnerError(err.timedOut ? 'timeout' : 'unavailable', `${err.message}; nothing was executed or debited`);
      throw err;
    }
  }

  /** Drops the record of a request that cannot have executed (best effort: it expires anyway). */
  async forget(txnId: string): Promise<void> {
    await this.sessions.delete(this.key(txnId)).catch(() => undefined);
  }
}
