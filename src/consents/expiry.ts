// Owns the consent expiry worker: a consent past its expires_at is marked expired (with its
// `consent.expired` event) and its end carried out as a withdrawal's is (withdrawal.ts); an ended
// consent whose effect could not finish (a transaction still pending then) is retried. Every process
// may run it: marking is a conditional UPDATE that only one wins, and the effect is idempotent.
import type { FastifyBaseLogger } from 'fastify';
import { PollingLoop } from '../polling-loop.js';
import { effectEnd, endConsent, type EndDeps } from './withdrawal.js';

const ACTOR = 'system:consent-expiry' as const;
/** How long an ended consent is left to the request that ended it before the worker finishes its effect. */
const RETRY_AFTER_MS = 60_000;
/** Consents handled per tick; the next tick takes the rest. */
const BATCH = 100;

export class ConsentExpiry {
  readonly name = 'consent expiry';
  private loop: PollingLoop;

  constructor(
    private deps: EndDeps,
    pollMs: number,
    log: FastifyBaseLogger,
  ) {
    this.loop = new PollingLoop(pollMs, () => this.tick(), (err) => log.error({ err }, 'consent expiry failed'), () => this.name);
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /**
   * One pass: expire what is due and effect it; then retry the ends left un-effected (a reference that
   * was pending) once they are older than RETRY_AFTER_MS, so the worker never races the withdrawal
   * route doing the same work. Answers how many consents it expired and retried.
   */
  async tick(now = new Date()): Promise<{ expired: number; retried: number }> {
    const due = await this.deps.db
      .selectFrom('consents')
      .select(['id', 'account_id', 'environment'])
      .where('status', '=', 'active')
      .where('expires_at', '<=', now)
      .limit(BATCH)
      .execute();
    let expired = 0;
    for (const c of due) {
      if (!(await endConsent(this.deps.db, { accountId: c.account_id, environment: c.environment }, c.id, 'expired', ACTOR))) continue;
      expired++;
      await effectEnd(this.deps, { id: c.id, accountId: c.account_id, environment: c.environment }, ACTOR);
    }
    const left = await this.deps.db
      .selectFrom('consents')
      .select(['id', 'account_id', 'environment'])
      .where('status', '<>', 'active')
      .where('effected_at', 'is', null)
      .where('ended_at', '<', new Date(now.getTime() - RETRY_AFTER_MS))
      .orderBy('ended_at')
      .limit(BATCH)
      .execute();
    for (const c of left) await effectEnd(this.deps, { id: c.id, accountId: c.account_id, environment: c.environment }, ACTOR);
    return { expired, retried: left.length };
  }
}
