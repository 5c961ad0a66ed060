// Owns Webhooks V2 delivery as Cashfree documents it (PARTNERS.md §3.7): the body
// `{"data": {…transfer…}, "event_time", "type"}`, and the headers `x-webhook-signature` =
// base64(HMAC-SHA256(key = client secret, timestamp + raw body)), `x-webhook-timestamp` (epoch ms as a
// string), `x-webhook-version` and `x-webhook-attempt`. Any non-2xx is retried.
//
// [G] decisions where the docs are silent:
// - `event_time` is India time (UTC+05:30) without a zone, like the sample `2024-07-25T17:43:37`.
// - `data` is the whole transfer object as the status API shows it at that moment (the samples show
//   subsets of it).
// - `x-webhook-version` carries the API version (2024-01-01).
// - Retries: `attempts` tries with exponential backoff from `retryBaseMs` (the real schedule was not
//   captured); each retry has the same body, a fresh timestamp and signature, and attempt + 1.
// Events of one transfer go out in order unless the out_of_order fault is set.
import { createHmac, randomBytes } from 'node:crypto';
import type { Faults } from './faults.js';
import type { Transfer } from './transfers.js';

export interface DeliveryRecord {
  type: string;
  transfer_id: string;
  status: string;
  status_code: string;
  attempt: number;
  timestamp: string;
  /** The HTTP status the receiver answered, or null (network error, dropped, no URL). */
  http_status: number | null;
  outcome: 'delivered' | 'rejected' | 'error' | 'dropped' | 'no_url';
  signature: 'valid' | 'bad';
  at: string;
}

interface Event {
  type: string;
  transfer: Pick<Transfer, 'transfer_id' | 'status' | 'status_code'>;
  body: string;
  bad: boolean;
}

export interface WebhookOptions {
  url: () => string | null;
  secret: string;
  version: string;
  faults: () => Faults;
  attempts: number;
  retryBaseMs: number;
  timeoutMs: number;
  later: (ms: number, fn: () => void) => void;
}

/** [P] `base64(HMAC_SHA256(clientSecret, timestampMs + rawBody))`. */
export const sign = (secret: string, timestamp: string, body: string): string => createHmac('sha256', secret).update(timestamp + body).digest('base64');

const IST_OFFSET_MS = 330 * 60_000;
const eventTime = (): string => new Date(Date.now() + IST_OFFSET_MS).toISOString().slice(0, 19);

export class WebhookSender {
  readonly log: DeliveryRecord[] = [];
  private readonly chains = new Map<string, Promise<void>>();
  private readonly held = new Map<string, Event[]>();
  private readonly abort = new AbortController();

  constructor(private readonly o: WebhookOptions) {}

  /** Queues one event carrying a snapshot of the transfer. `final`: nothing held back may stay behind it. */
  emit(type: string, transfer: Transfer, final: boolean): void {
    const f = this.o.faults();
    const body = JSON.stringify({ data: transfer, event_time: eventTime(), type });
    const ev: Event = { type, transfer: { transfer_id: transfer.transfer_id, status: transfer.status, status_code: transfer.status_code }, body, bad: f.bad_signature };
    if (f.drop_webhooks) return void this.record(ev, 1, '', null, 'dropped');
    const id = transfer.transfer_id;
    if (f.out_of_order && !final) {
      this.held.set(id, [...(this.held.get(id) ?? []), ev]);
      return;
    }
    this.enqueue(ev, f);
    if (final) {
      for (const h of this.held.get(id) ?? []) this.enqueue(h, f);
      this.held.delete(id);
    }
  }

  close(): void {
    this.abort.abort();
  }

  private enqueue(ev: Event, f: Faults): void {
    const id = ev.transfer.transfer_id;
    const next = (this.chains.get(id) ?? Promise.resolve())
      .then(() => new Promise<void>((r) => this.o.later(f.webhook_delay_ms, r)))
      .then(async () => {
        const headers = this.headers(ev, 1, f);
        await this.send(ev, 1, headers);
        if (f.duplicate_webhooks) await this.send(ev, 1, headers);
      });
    this.chains.set(id, next);
  }

  private headers(ev: Event, attempt: number, f: Faults): Record<string, string> {
    const timestamp = String(Date.now() - f.webhook_timestamp_skew_ms);
    const secret = ev.bad ? randomBytes(16).toString('hex') : this.o.secret;
    return {
      'content-type': 'application/json',
      'x-webhook-signature': sign(secret, timestamp, ev.body),
      'x-webhook-timestamp': timestamp,
      'x-webhook-version': this.o.version,
      'x-webhook-attempt': String(attempt),
    };
  }

  /** One attempt; a failure schedules the next one without holding up the transfer's later events. */
  private async send(ev: Event, attempt: number, headers: Record<string, string>): Promise<void> {
    const url = this.o.url();
    const timestamp = headers['x-webhook-timestamp']!;
    if (!url) return void this.record(ev, attempt, timestamp, null, 'no_url');
    let status: number | null = null;
    try {
      const res = await fetch(url, { method: 'POST', headers, body: ev.body, signal: AbortSignal.any([this.abort.signal, AbortSignal.timeout(this.o.timeoutMs)]) });
      status = res.status;
      await res.body?.cancel();
    } catch {
      if (this.abort.signal.aborted) return;
    }
    const ok = status !== null && status >= 200 && status < 300;
    this.record(ev, attempt, timestamp, status, ok ? 'delivered' : status === null ? 'error' : 'rejected');
    if (!ok && attempt < this.o.attempts) {
      this.o.later(this.o.retryBaseMs * 2 ** (attempt - 1), () => void this.send(ev, attempt + 1, this.headers(ev, attempt + 1, this.o.faults())));
    }
  }

  private record(ev: Event, attempt: number, timestamp: string, http_status: number | null, outcome: DeliveryRecord['outcome']): void {
    this.log.push({ type: ev.type, ...ev.transfer, attempt, timestamp, http_status, outcome, signature: ev.bad ? 'bad' : 'valid', at: new Date().toISOString() });
  }
}
