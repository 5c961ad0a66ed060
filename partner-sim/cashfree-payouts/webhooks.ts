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
import { SignedWebhookSender, type Outcome, type RetryingOptions } from '../common/webhooks.js';
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
  outcome: Outcome;
  signature: 'valid' | 'bad';
  at: string;
}

interface Event {
  type: string;
  transfer: Pick<Transfer, 'transfer_id' | 'status' | 'status_code'>;
  body: string;
  bad: boolean;
}

export interface WebhookOptions extends RetryingOptions<Faults> {
  url: () => string | null;
  secret: string;
  version: string;
}

/** [P] `base64(HMAC_SHA256(clientSecret, timestampMs + rawBody))`. */
export const sign = (secret: string, timestamp: string, body: string): string => createHmac('sha256', secret).update(timestamp + body).digest('base64');

const IST_OFFSET_MS = 330 * 60_000;
const eventTime = (): string => new Date(Date.now() + IST_OFFSET_MS).toISOString().slice(0, 19);

export class WebhookSender extends SignedWebhookSender<Event, Faults, DeliveryRecord> {
  constructor(private readonly o: WebhookOptions) {
    super(o, {
      url: () => o.url(),
      headers: (ev, attempt, f) => headersOf(o, ev, attempt, f),
      row: (ev, attempt, http_status, outcome, headers) => ({
        type: ev.type,
        ...ev.transfer,
        attempt,
        timestamp: headers?.['x-webhook-timestamp'] ?? '',
        http_status,
        outcome,
      }),
    });
  }

  /** Queues one event carrying a snapshot of the transfer. `final`: nothing held back may stay behind it. */
  emit(type: string, transfer: Transfer, final: boolean): void {
    const body = JSON.stringify({ data: transfer, event_time: eventTime(), type });
    const ev: Event = { type, transfer: { transfer_id: transfer.transfer_id, status: transfer.status, status_code: transfer.status_code }, body, bad: this.o.faults().bad_signature };
    this.queue.emit(ev, transfer.transfer_id, !final, final);
  }
}

/** Each attempt is signed afresh: a new timestamp (skewed by the fault) and attempt number. */
function headersOf(o: WebhookOptions, ev: Event, attempt: number, f: Faults): Record<string, string> {
  const timestamp = String(Date.now() - f.webhook_timestamp_skew_ms);
  const secret = ev.bad ? randomBytes(16).toString('hex') : o.secret;
  return {
    'content-type': 'application/json',
    'x-webhook-signature': sign(secret, timestamp, ev.body),
    'x-webhook-timestamp': timestamp,
    'x-webhook-version': o.version,
    'x-webhook-attempt': String(attempt),
  };
}
