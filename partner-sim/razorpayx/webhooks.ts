// Owns webhook delivery as RazorpayX documents it (PARTNERS.md §2.9): the event envelope
// `{entity:"event", account_id, event, contains:["payout"], payload:{payout:{entity}}, created_at}`,
// `X-Razorpay-Signature` = lower-case hex HMAC-SHA256 of the raw body under the webhook secret, and
// `x-razorpay-event-id`, unique per event (a redelivery keeps it). Any non-2xx is a failure and is
// retried with exponential backoff ([P] for 24 hours upstream; here `attempts` tries, quickly).
// Events of one payout are delivered in order unless the out_of_order fault is set.
import { createHmac, randomBytes } from 'node:crypto';
import { SignedWebhookSender, type Outcome, type RetryingOptions } from '../common/webhooks.js';
import { newEventId, unixNow } from './entities.js';
import type { Faults } from './faults.js';

export interface DeliveryRecord {
  event_id: string;
  event: string;
  payout_id: string;
  payout_status: string;
  attempt: number;
  /** The HTTP status the receiver answered, or null (network error, dropped, no URL). */
  status_code: number | null;
  outcome: Outcome;
  signature: 'valid' | 'bad';
  at: string;
}

interface Event {
  id: string;
  event: string;
  payoutId: string;
  payoutStatus: string;
  body: string;
  signature: string;
  bad: boolean;
}

export interface WebhookOptions extends RetryingOptions<Faults> {
  accountId: string;
  config: () => { url: string | null; secret: string };
}

export const sign = (secret: string, body: string): string => createHmac('sha256', secret).update(body).digest('hex');

export class WebhookSender extends SignedWebhookSender<Event, Faults, DeliveryRecord> {
  constructor(private readonly o: WebhookOptions) {
    super(o, {
      url: () => o.config().url,
      headers: (ev) => ({ 'content-type': 'application/json', 'user-agent': 'Razorpay-Webhook/v1', 'x-razorpay-signature': ev.signature, 'x-razorpay-event-id': ev.id }),
      row: (ev, attempt, status_code, outcome) => ({
        event_id: ev.id,
        event: ev.event,
        payout_id: ev.payoutId,
        payout_status: ev.payoutStatus,
        attempt,
        status_code,
        outcome,
      }),
    });
  }

  /**
   * Queues one event carrying `entity` (a snapshot of the payout, or of a `fund_account.validation` with
   * `contains` naming it [P §9.1]); `final` releases held ones.
   */
  emit(event: string, entity: { id: string; status: string }, final: boolean, contains: 'payout' | 'fund_account.validation' = 'payout'): void {
    const f = this.o.faults();
    const body = JSON.stringify({ entity: 'event', account_id: this.o.accountId, event, contains: [contains], payload: { [contains]: { entity } }, created_at: unixNow() });
    // [P] a retry of an older event keeps the secret it was first signed with, so sign now.
    const secret = f.bad_signature ? randomBytes(16).toString('hex') : this.o.config().secret;
    const ev: Event = { id: newEventId(), event, payoutId: entity.id, payoutStatus: entity.status, body, signature: sign(secret, body), bad: f.bad_signature };
    this.queue.emit(ev, ev.payoutId, !final, final);
  }
}
