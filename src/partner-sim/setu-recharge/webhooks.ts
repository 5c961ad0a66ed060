// Owns webhook delivery for the Setu emulators. Setu documents no signature or auth header for its
// webhooks (PARTNERS.md §4.6 / §4.7 [G]): a delivery is a plain JSON POST; the receiver should treat it as a
// hint and confirm with the status API. Retries follow the documented schedule (§4.6): payment webhooks
// 5 retries starting at 2 s, doubling, capped at 2 min; wallet webhooks 3 retries starting at 5 s, capped at
// 1 min — multiplied by `timeScale` so tests can run them in milliseconds. Any non-2xx or network error is a
// failed attempt. Webhooks of one transaction go out in order unless the out_of_order fault is set.
import type { Faults } from './faults.js';

export interface RetrySchedule {
  retries: number;
  initialMs: number;
  maxMs: number;
}
export const PAYMENT_RETRIES: RetrySchedule = { retries: 5, initialMs: 2000, maxMs: 120_000 };
export const WALLET_RETRIES: RetrySchedule = { retries: 3, initialMs: 5000, maxMs: 60_000 };

export interface Outgoing {
  /** Absolute URL to POST to. */
  url: string;
  body: Record<string, unknown>;
  /** Orders deliveries: one chain per transaction. */
  chain: string;
  schedule: RetrySchedule;
  /** For the log: the status / event carried, and the transaction reference it is about. */
  label: string;
  ref: string;
  forged?: boolean;
}

export interface DeliveryRecord {
  seq: number;
  url: string;
  label: string;
  ref: string;
  attempt: number;
  status_code: number | null;
  outcome: 'delivered' | 'rejected' | 'error' | 'dropped' | 'no_url';
  forged: boolean;
  at: string;
}

interface Queued extends Outgoing {
  seq: number;
  raw: string;
}

export interface SenderOptions {
  faults: () => Faults;
  timeScale: number;
  timeoutMs: number;
  later: (ms: number, fn: () => void) => void;
  userAgent: string;
}

export class WebhookSender {
  readonly log: DeliveryRecord[] = [];
  private seq = 0;
  private readonly chains = new Map<string, Promise<void>>();
  private readonly held = new Map<string, Queued[]>();
  private readonly abort = new AbortController();

  constructor(private readonly o: SenderOptions) {}

  /** Queues one webhook. `holdable`: a message out_of_order may delay until the chain's next `emit`. */
  emit(w: Outgoing | { noUrl: true; label: string; ref: string }, holdable = false): void {
    if ('noUrl' in w) return void this.record({ seq: ++this.seq, url: '', label: w.label, ref: w.ref, forged: false }, 1, null, 'no_url');
    const f = this.o.faults();
    const q: Queued = { ...w, seq: ++this.seq, raw: JSON.stringify(w.body) };
    if (f.drop_webhooks) return void this.record(q, 1, null, 'dropped');
    if (f.out_of_order && holdable) {
      this.held.set(q.chain, [...(this.held.get(q.chain) ?? []), q]);
      return;
    }
    this.enqueue(q, f);
    for (const h of this.held.get(q.chain) ?? []) this.enqueue(h, f);
    this.held.delete(q.chain);
  }

  close(): void {
    this.abort.abort();
  }

  private enqueue(q: Queued, f: Faults): void {
    const prev = this.chains.get(q.chain) ?? Promise.resolve();
    const next = prev
      .then(() => new Promise<void>((r) => this.o.later(f.webhook_delay_ms, r)))
      .then(() => this.send(q, 1))
      .then(() => (f.duplicate_webhooks ? this.send(q, 1) : undefined));
    this.chains.set(q.chain, next);
  }

  /** One attempt; a failure schedules the next without holding up the chain's later webhooks. */
  private async send(q: Queued, attempt: number): Promise<void> {
    let status: number | null = null;
    try {
      const res = await fetch(q.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': this.o.userAgent },
        body: q.raw,
        signal: AbortSignal.any([this.abort.signal, AbortSignal.timeout(this.o.timeoutMs)]),
      });
      status = res.status;
      await res.body?.cancel();
    } catch {
      if (this.abort.signal.aborted) return;
    }
    const ok = status !== null && status >= 200 && status < 300;
    this.record(q, attempt, status, ok ? 'delivered' : status === null ? 'error' : 'rejected');
    if (!ok && attempt <= q.schedule.retries) {
      const delay = Math.min(q.schedule.initialMs * 2 ** (attempt - 1), q.schedule.maxMs) * this.o.timeScale;
      this.o.later(delay, () => void this.send(q, attempt + 1));
    }
  }

  private record(q: Pick<Queued, 'seq' | 'url' | 'label' | 'ref' | 'forged'>, attempt: number, status_code: number | null, outcome: DeliveryRecord['outcome']): void {
    this.log.push({ seq: q.seq, url: q.url, label: q.label, ref: q.ref, attempt, status_code, outcome, forged: q.forged ?? false, at: new Date().toISOString() });
  }
}

/** ISO 8601 in IST with its offset, the form of every Setu timestamp sample (`2026-01-09T11:56:26+05:30`). */
export function istNow(): string {
  return `${new Date(Date.now() + 5.5 * 3600_000).toISOString().slice(0, 19)}+05:30`;
}

/** Paise → the rupee string of the payment webhook (`"99.00"`). */
export const rupees = (paise: number): string => (paise / 100).toFixed(2);
