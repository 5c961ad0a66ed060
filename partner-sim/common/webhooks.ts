// Owns webhook delivery mechanics every emulator with webhooks shares: one ordered chain of deliveries per
// payment, the webhook faults (drop, delay, duplicate, out of order), one POST per attempt with a timeout
// that close() aborts, the outcome of an attempt, retries and the delivery log. What a partner sends (the
// body, its headers and signature), where, its retry schedule and the shape of its log rows stay in the
// partner's own webhooks.ts.

/** The webhook faults each partner names the same way. */
export interface WebhookFaults {
  /** Each webhook is delivered twice, with the same headers as the first. */
  duplicate_webhooks: boolean;
  /** Each webhook waits this long before its first delivery. */
  webhook_delay_ms: number;
  /** Webhooks are not delivered at all (logged as dropped). */
  drop_webhooks: boolean;
  /** Holdable webhooks are held back until a later one of the same chain releases them. */
  out_of_order: boolean;
}

/** Behave: in this key order, which GET /_sim/faults keeps. */
export const NO_WEBHOOK_FAULTS: WebhookFaults = { duplicate_webhooks: false, webhook_delay_ms: 0, drop_webhooks: false, out_of_order: false };

export type Outcome = 'delivered' | 'rejected' | 'error' | 'dropped' | 'no_url';

export interface DeliveryOptions<E, F extends WebhookFaults, R> {
  faults: () => F;
  timeoutMs: number;
  later: (ms: number, fn: () => void) => void;
  /** Where this event goes, read at each attempt; null logs `no_url` and gives up. */
  url: (ev: E) => string | null;
  body: (ev: E) => string;
  /** The headers of one attempt: `f` is the emit-time fault set for the first, the current one for a retry. */
  headers: (ev: E, attempt: number, f: F) => Record<string, string>;
  /** How long to wait before the attempt after a failed `attempt`, or null to give up. */
  retryDelayMs: (ev: E, attempt: number) => number | null;
  /** The log row of one attempt; `headers` is absent for a dropped webhook. */
  logRow: (ev: E, attempt: number, status: number | null, outcome: Outcome, headers?: Record<string, string>) => R;
}

export class DeliveryQueue<E, F extends WebhookFaults, R> {
  readonly log: R[] = [];
  private readonly chains = new Map<string, Promise<void>>();
  private readonly held = new Map<string, E[]>();
  private readonly abort = new AbortController();

  constructor(private readonly o: DeliveryOptions<E, F, R>) {}

  /**
   * Queues `ev` behind the earlier ones of its chain. `holdable`: out_of_order may hold it back;
   * `releases`: once it is queued, the chain's held webhooks follow it.
   */
  emit(ev: E, chain: string, holdable: boolean, releases: boolean): void {
    const f = this.o.faults();
    if (f.drop_webhooks) return void this.record(ev, 1, null, 'dropped');
    if (f.out_of_order && holdable) {
      this.held.set(chain, [...(this.held.get(chain) ?? []), ev]);
      return;
    }
    this.enqueue(ev, chain, f);
    if (!releases) return;
    for (const h of this.held.get(chain) ?? []) this.enqueue(h, chain, f);
    this.held.delete(chain);
  }

  private record(ev: E, attempt: number, status: number | null, outcome: Outcome, headers?: Record<string, string>): void {
    this.log.push(this.o.logRow(ev, attempt, status, outcome, headers));
  }

  close(): void {
    this.abort.abort();
  }

  private enqueue(ev: E, chain: string, f: F): void {
    const next = (this.chains.get(chain) ?? Promise.resolve())
      .then(() => new Promise<void>((r) => this.o.later(f.webhook_delay_ms, r)))
      .then(async () => {
        const headers = this.o.headers(ev, 1, f);
        await this.send(ev, 1, headers);
        if (f.duplicate_webhooks) await this.send(ev, 1, headers);
      });
    this.chains.set(chain, next);
  }

  /** One attempt; a failure schedules the next one without holding up the chain's later webhooks. */
  private async send(ev: E, attempt: number, headers: Record<string, string>): Promise<void> {
    const url = this.o.url(ev);
    if (!url) return void this.record(ev, attempt, null, 'no_url', headers);
    let status: number | null = null;
    try {
      const res = await fetch(url, { method: 'POST', headers, body: this.o.body(ev), signal: AbortSignal.any([this.abort.signal, AbortSignal.timeout(this.o.timeoutMs)]) });
      status = res.status;
      await res.body?.cancel();
    } catch {
      if (this.abort.signal.aborted) return;
    }
    const ok = status !== null && status >= 200 && status < 300;
    this.record(ev, attempt, status, ok ? 'delivered' : status === null ? 'error' : 'rejected', headers);
    const delay = ok ? null : this.o.retryDelayMs(ev, attempt);
    if (delay !== null) this.o.later(delay, () => void this.send(ev, attempt + 1, this.o.headers(ev, attempt + 1, this.o.faults())));
  }
}

/** `attempts` tries in all, waiting `baseMs`, then twice that, and so on. */
export const doubling =
  (attempts: number, baseMs: number) =>
  (_ev: unknown, attempt: number): number | null =>
    attempt < attempts ? baseMs * 2 ** (attempt - 1) : null;

/** What a sender retrying with doubling waits is given: the emulator's faults, its settings and its clock. */
export interface RetryingOptions<F> {
  faults: () => F;
  attempts: number;
  retryBaseMs: number;
  timeoutMs: number;
  later: (ms: number, fn: () => void) => void;
}

/** The log row's tail every signed delivery has: whether the signature was good (bad_signature), and when. */
export interface SignedRow {
  signature: 'valid' | 'bad';
  at: string;
}

/**
 * A partner's sender whose events carry their raw body and are signed (`bad` when the bad_signature
 * fault signed one with a wrong secret), retried `attempts` times with doubling waits. What the partner
 * sends (its headers and signature) and its log row stay in its own webhooks.ts.
 */
export abstract class SignedWebhookSender<E extends { body: string; bad: boolean }, F extends WebhookFaults, R extends SignedRow> {
  protected readonly queue: DeliveryQueue<E, F, R>;

  constructor(
    o: RetryingOptions<F>,
    spec: Pick<DeliveryOptions<E, F, R>, 'url' | 'headers'> & { row: (...a: Parameters<DeliveryOptions<E, F, R>['logRow']>) => Omit<R, keyof SignedRow> },
  ) {
    this.queue = new DeliveryQueue<E, F, R>({
      faults: o.faults,
      timeoutMs: o.timeoutMs,
      later: o.later,
      url: spec.url,
      body: (ev) => ev.body,
      headers: spec.headers,
      retryDelayMs: doubling(o.attempts, o.retryBaseMs),
      logRow: (ev, ...rest) => ({ ...spec.row(ev, ...rest), signature: ev.bad ? 'bad' : 'valid', at: new Date().toISOString() }) as R,
    });
  }

  get log(): R[] {
    return this.queue.log;
  }

  close(): void {
    this.queue.close();
  }
}
