// Owns the consent expiry worker: a consent past its expires_at is marked expired (with its
// `consent.expired` event) and its end carried out as a withdrawal's is (withdrawal.ts); an ended
// consent whose effect could not finish (a transaction still pending then) is retried. Every process
// may run it: marking is a conditional UPDATE that only one wins, and the effect is idempotent.
import type { FastifyBaseLogger } from 'fastify';
import { PollingLoop } from '../polling-loop.js';
import { effectEnd, endConsent, type EndDeps } from './withdrawal.js';

const ACTOR = 'system:consent-expiry' as const;
/** Consents handled per tick; the next tick takes the rest. */
const BATCH = 100;

export class ConsentExpiry {
  private loop: PollingLoop;

  constructor(
    private deps: EndDeps,
    pollMs: number,
    log: FastifyBaseLogger,
  ) {
    this.loop = new PollingLoop(pollMs, () => this.tick(), (err) => log.error({ err }, 'consent expiry failed'));
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** One pass: expire what is due, then effect what has ended and is not yet effected. Answers how many of each. */
  async tick(now = new Date()): Promise<{ expired: number; effected: number }> {
    const due = await this.deps.db
      .selectFrom('consents')
      .select(['id', 'account_id', 'environment'])
      .where('status', '=', 'active')
      .where('expires_at', '<=', now)
      .limit(BATCH)
      .execute();
    let expired = 0;
    for (const c of due) if (await endConsent(this.deps.db, { accountId: c.account_id, environment: c.environment }, c.id, 'expired', ACTOR)) expired++;
    const ended = await this.deps.db
      .selectFrom('consents')
      .select(['id', 'account_id', 'environment'])
      .where('status', '<>', 'active')
      .where('effected_at', 'is', null)
      .orderBy('ended_at')
      .limit(BATCH)
      .execute();
    for (const c of ended) await effectEnd(this.deps, { id: c.id, accountId: c.account_id, environment: c.environment }, ACTOR);
    return { expired, effected: ended.length };
  }
}
