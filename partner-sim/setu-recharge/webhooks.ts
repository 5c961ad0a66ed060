// Owns webhook delivery for the Setu emulators. Setu documents no signature or auth header for its
// webhooks (PARTNERS.md §4.6 / §4.7 [G]): a delivery is a plain JSON POST; the receiver should treat it as a
// hint and confirm with the status API. Retries follow the documented schedule (§4.6): payment webhooks
// 5 retries starting at 2 s, doubling, capped at 2 min; wallet webhooks 3 retries starting at 5 s, capped at
// 1 min — multiplied by `timeScale` so tests can run them in milliseconds. Any non-2xx or network error is a
// failed attempt. Webhooks of one transaction go out in order unless the out_of_order fault is set.
import { DeliveryQueue, type Outcome } from '../common/webhooks.js';
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
  outcome: Outcome;
  forged: boolean;
  at: string;
  /** What was sent (null when there was no URL to send it to). */
  body: Record<string, unknown> | null;
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

type Logged = Pick<Queued, 'seq' | 'url' | 'label' | 'ref' | 'forged'> & { body?: Record<string, unknown> };

const row = (q: Logged, attempt: number, status_code: number | null, outcome: Outcome): DeliveryRecord => ({
  seq: q.seq,
  url: q.url,
  label: q.label,
  ref: q.ref,
  attempt,
  status_code,
  outcome,
  forged: q.forged ?? false,
  at: new Date().toISOString(),
  body: q.body ?? null,
});

export class WebhookSender {
  private seq = 0;
  private readonly queue: DeliveryQueue<Queued, Faults, DeliveryRecord>;

  constructor(o: SenderOptions) {
    this.queue = new DeliveryQueue<Queued, Faults, DeliveryRecord>({
      faults: o.faults,
      timeoutMs: o.timeoutMs,
      later: o.later,
      url: (q) => q.url,
      body: (q) => q.raw,
      headers: () => ({ 'content-type': 'application/json', 'user-agent': o.userAgent }),
      // [P] the documented schedule: retries doubling from initialMs, capped at maxMs.
      retryDelayMs: (q, attempt) => (attempt <= q.schedule.retries ? Math.min(q.schedule.initialMs * 2 ** (attempt - 1), q.schedule.maxMs) * o.timeScale : null),
      logRow: row,
    });
  }

  get log(): DeliveryRecord[] {
    return this.queue.log;
  }

  /** Queues one webhook. `holdable`: a message out_of_order may delay until the chain's next `emit`. */
  emit(w: Outgoing | { noUrl: true; label: string; ref: string }, holdable = false): void {
    if ('noUrl' in w) return void this.queue.log.push(row({ seq: ++this.seq, url: '', label: w.label, ref: w.ref, forged: false }, 1, null, 'no_url'));
    this.queue.emit({ ...w, seq: ++this.seq, raw: JSON.stringify(w.body) }, w.chain, holdable, true);
  }

  close(): void {
    this.queue.close();
  }
}

/** ISO 8601 in IST with its offset, the form of every Setu timestamp sample (`2026-01-09T11:56:26+05:30`). */
export function istNow(): string {
  return `${new Date(Date.now() + 5.5 * 3600_000).toISOString().slice(0, 19)}+05:30`;
}

/** Paise → the rupee string of the payment webhook (`"99.00"`). */
export const rupees = (paise: number): string => (paise / 100).toFixed(2);
