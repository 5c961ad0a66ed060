// Owns webhook delivery. Due deliveries are leased with FOR UPDATE SKIP LOCKED (so with several server
// processes each due attempt is made by exactly one), sent signed (signing.ts) through a connection
// whose DNS answers pass the SSRF guard (ssrf.ts), with a per-attempt timeout and no redirects followed.
// 2xx: delivered. 410: the endpoint is disabled. Anything else: retried on SANGAM_WEBHOOK_RETRY_SCHEDULE
// with ±10 % jitter, never sooner than the receiver's Retry-After; after the last step the delivery
// fails (replayable by hand). An endpoint failing for SANGAM_WEBHOOK_DISABLE_AFTER_DAYS is disabled.
// Every attempt is logged with its status, latency and a response excerpt, and traced as a span
// `webhook delivery` (the event, the attempt, the receiver's status and the verdict; never the URL or payload).
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { Agent } from 'undici';
import { undici } from '../undici.js';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import { guardedLookup } from './ssrf.js';
import { signatureHeader } from './signing.js';
import { PollingWorker } from '../polling-loop.js';
import { leaseDue } from '../db/lease.js';
import { inSpan } from '../tracing/index.js';

const BATCH = 50;
const EXCERPT = 500;

interface Due {
  id: number;
  attempts: number;
  event_id: string;
  payload: string;
  endpoint_id: string;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_until: Date | null;
  environment: string;
  failing_since: Date | null;
}

/** What one send produced: the receiver's answer, or the error that kept it from answering. */
interface Sent {
  status: number | null;
  excerpt: string | null;
  error: string | null;
  retryAfterMs: number;
  latencyMs: number;
}

/** What an attempt decides for the delivery (and, for `disabled`, for its endpoint). */
type Verdict =
  | { kind: 'delivered' }
  | { kind: 'retry'; failingSince: Date; at: Date }
  | { kind: 'exhausted'; failingSince: Date }
  | { kind: 'disabled'; failingSince: Date; why: string };

function retryAfterMs(header: string | string[] | undefined): number {
  const v = Array.isArray(header) ? header[0] : header;
  if (!v) return 0;
  const s = Number(v);
  if (Number.isFinite(s)) return Math.max(0, s * 1000);
  const at = Date.parse(v);
  return Number.isNaN(at) ? 0 : Math.max(0, at - Date.now());
}

export class WebhookWorker extends PollingWorker {
  readonly name = 'webhook delivery';
  private agentMade: Agent | null = null;
  /** An operator's internal CA, trusted in addition to the public roots, never instead of them. */
  private ca: string[] | undefined;

  constructor(
    private db: Db,
    private config: Config['webhooks'],
    private log: FastifyBaseLogger,
  ) {
    super(config.pollMs, log);
    // Read now, so that a CA file that cannot be read stops the boot rather than the first delivery.
    this.ca = config.caFile ? [...rootCertificates, readFileSync(config.caFile, 'utf8')] : undefined;
  }

  /** The HTTP client, made (and undici loaded) at the first delivery: about 100 ms kept out of boot. */
  private get agent(): Agent {
    return (this.agentMade ??= new (undici().Agent)({ connect: { lookup: guardedLookup(this.config.allowPrivate), timeout: this.config.timeoutMs, ...(this.ca && { ca: this.ca }) }, keepAliveTimeout: 10_000 }));
  }

  /** The first look is at once: deliveries may have fallen due while no process ran. */
  override start(): void {
    this.loop.start(0);
  }

  override async stop(): Promise<void> {
    await super.stop();
    await this.agentMade?.close();
  }

  /** Leases and sends what is due now; returns how many attempts were made. */
  async tick(): Promise<number> {
    const leaseS = Math.ceil(this.config.timeoutMs / 1000) + 30;
    const ids = await leaseDue<number>(this.db, { table: 'webhook_deliveries', dueColumn: 'next_attempt_at', where: sql`status = 'pending'`, limit: BATCH, seconds: leaseS });
    if (ids.length === 0) return 0;
    const due = (await this.db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
      .innerJoin('webhook_endpoints as w', 'w.id', 'd.endpoint_id')
      .select(['d.id', 'd.attempts', 'd.event_id', 'e.payload', 'd.endpoint_id', 'w.url', 'w.secret', 'w.previous_secret', 'w.previous_secret_until', 'w.environment', 'w.failing_since'])
      .where('d.id', 'in', ids)
      .where('d.status', '=', 'pending') // a deleted or disabled endpoint's were failed meanwhile
      .where('w.deleted_at', 'is', null)
      .where('w.disabled_at', 'is', null)
      .execute()) as Due[];
    await Promise.all(due.map((d) => this.attempt(d)));
    return due.length;
  }

  /** One attempt, in three steps (after Svix's worker): send it, classify the answer, record both. */
  private attempt(d: Due): Promise<void> {
    return inSpan('webhook delivery', { 'sangam.webhook.event_id': d.event_id, 'sangam.webhook.attempt': d.attempts + 1, 'sangam.environment': d.environment }, async (span) => {
      const sent = await this.send(d);
      const now = new Date();
      const verdict = this.classify(d, sent, now);
      span.setAttributes({ 'sangam.webhook.verdict': verdict.kind, ...(sent.status !== null && { 'http.response.status_code': sent.status }) });
      await this.record(d, sent, verdict, now);
      if (verdict.kind !== 'delivered') this.log.info({ delivery: d.id, event: d.event_id, status: sent.status, error: sent.error }, 'webhook attempt failed');
    });
  }

  /** Sends the event, signed with the current secret (and the previous one during its overlap); never throws. */
  private async send(d: Due): Promise<Sent> {
    const started = performance.now();
    const sent: Sent = { status: null, excerpt: null, error: null, retryAfterMs: 0, latencyMs: 0 };
    try {
      if (d.environment === 'live' && !d.url.startsWith('https://')) throw new Error('live webhook endpoints must use https');
      const at = new Date();
      const secrets = [d.secret, ...(d.previous_secret && d.previous_secret_until && d.previous_secret_until > at ? [d.previous_secret] : [])];
      const res = await undici().request(d.url, {
        method: 'POST',
        dispatcher: this.agent,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Sangam-Webhooks/1',
          'webhook-id': d.event_id,
          'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
          'webhook-signature': signatureHeader(secrets, d.event_id, at, d.payload),
        },
        body: d.payload,
        headersTimeout: this.config.timeoutMs,
        bodyTimeout: this.config.timeoutMs,
      });
      sent.status = res.statusCode;
      sent.excerpt = (await res.body.text()).slice(0, EXCERPT);
      sent.retryAfterMs = retryAfterMs(res.headers['retry-after']);
    } catch (err) {
      sent.error = (err as Error).message || String(err);
    }
    sent.latencyMs = performance.now() - started;
    return sent;
  }

  /**
   * What the answer means: a 2xx is delivered; a 410, or an endpoint failing for longer than
   * SANGAM_WEBHOOK_DISABLE_AFTER_DAYS, disables the endpoint; past the last step of the schedule the
   * delivery fails; otherwise it is tried again at the next step (±10 % jitter, never before Retry-After).
   */
  private classify(d: Due, sent: Sent, now: Date): Verdict {
    if (sent.status !== null && sent.status >= 200 && sent.status < 300) return { kind: 'delivered' };
    const failingSince = d.failing_since ?? now;
    if (sent.status === 410) return { kind: 'disabled', failingSince, why: 'the receiver answered 410 Gone' };
    if (now.getTime() - failingSince.getTime() > this.config.disableAfterDays * 86_400_000) {
      return { kind: 'disabled', failingSince, why: `failing for more than ${this.config.disableAfterDays} days` };
    }
    const schedule = this.config.retryScheduleS;
    const attempts = d.attempts + 1;
    if (attempts >= schedule.length) return { kind: 'exhausted', failingSince };
    const jitter = 0.9 + Math.random() * 0.2;
    return { kind: 'retry', failingSince, at: new Date(now.getTime() + Math.max(schedule[attempts]! * 1000 * jitter, sent.retryAfterMs)) };
  }

  /** The attempt's log row, the delivery's new state and the endpoint's, in one database transaction. */
  private async record(d: Due, sent: Sent, verdict: Verdict, now: Date): Promise<void> {
    const { status, excerpt, error } = sent;
    const delivered = verdict.kind === 'delivered';
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('webhook_attempts').values({ delivery_id: d.id, http_status: status, latency_ms: sent.latencyMs, response_excerpt: excerpt, error }).execute();
      await trx
        .updateTable('webhook_deliveries')
        .set({
          status: delivered ? 'delivered' : verdict.kind === 'retry' ? 'pending' : 'failed',
          attempts: d.attempts + 1,
          next_attempt_at: verdict.kind === 'retry' ? verdict.at : null,
          last_status: status,
          last_error: error ?? (delivered ? null : `receiver answered ${status}`),
          updated_at: now,
        })
        .where('id', '=', d.id)
        // A delivery its endpoint's deletion (or disabling) failed while this attempt was out stays failed.
        .where('status', '=', 'pending')
        .execute();
      const disable = verdict.kind === 'disabled' ? verdict.why : null;
      await trx
        .updateTable('webhook_endpoints')
        .set({ failing_since: delivered ? null : verdict.failingSince, ...(disable ? { disabled_at: now, disabled_reason: disable } : {}) })
        .where('id', '=', d.endpoint_id)
        .execute();
      if (disable) {
        await trx
          .updateTable('webhook_deliveries')
          .set({ status: 'failed', next_attempt_at: null, last_error: `endpoint disabled: ${disable}`, updated_at: now })
          .where('endpoint_id', '=', d.endpoint_id)
          .where('status', '=', 'pending')
          .execute();
      }
    });
  }
}
