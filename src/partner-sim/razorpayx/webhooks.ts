// Owns webhook delivery as RazorpayX documents it (PARTNERS.md §2.9): the event envelope
// `{entity:"event", account_id, event, contains:["payout"], payload:{payout:{entity}}, created_at}`,
// `X-Razorpay-Signature` = lower-case hex HMAC-SHA256 of the raw body under the webhook secret, and
// `x-razorpay-event-id`, unique per event (a redelivery keeps it). Any non-2xx is a failure and is
// retried with exponential backoff ([P] for 24 hours upstream; here `attempts` tries, quickly).
// Events of one payout are delivered in order unless the out_of_order fault is set.
import { createHmac, randomBytes } from 'node:crypto';
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
  outcome: 'delivered' | 'rejected' | 'error' | 'dropped' | 'no_url';
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

export interface WebhookOptions {
  accountId: string;
  config: () => { url: string | null; secret: string };
  faults: () => Faults;
  attempts: number;
  retryBaseMs: number;
  timeoutMs: number;
  later: (ms: number, fn: () => void) => void;
}

export const sign = (secret: string, body: string): string => createHmac('sha256', secret).update(body).digest('hex');

export class WebhookSender {
  readonly log: DeliveryRecord[] = [];
  private readonly chains = new Map<string, Promise<void>>();
  private readonly held = new Map<string, Event[]>();
  private readonly abort = new AbortController();

  constructor(private readonly o: WebhookOptions) {}

  /** Queues one event carrying `entity` (a snapshot of the payout at this moment). */
  emit(event: string, entity: { id: string; status: string }, final: boolean): void {
    const f = this.o.faults();
    const body = JSON.stringify({ entity: 'event', account_id: this.o.accountId, event, contains: ['payout'], payload: { payout: { entity } }, created_at: unixNow() });
    // [P] a retry of an older event keeps the secret it was first signed with, so sign now.
    const secret = f.bad_signature ? randomBytes(16).toString('hex') : this.o.config().secret;
    const ev: Event = { id: newEventId(), event, payoutId: entity.id, payoutStatus: entity.status, body, signature: sign(secret, body), bad: f.bad_signature };
    if (f.drop_webhooks) return void this.record(ev, 1, null, 'dropped');
    if (f.out_of_order && !final) {
      this.held.set(ev.payoutId, [...(this.held.get(ev.payoutId) ?? []), ev]);
      return;
    }
    this.enqueue(ev, f);
    if (final) {
      for (const h of this.held.get(ev.payoutId) ?? []) this.enqueue(h, f);
      this.held.delete(ev.payoutId);
    }
  }

  close(): void {
    this.abort.abort();
  }

  private enqueue(ev: Event, f: Faults): void {
    const prev = this.chains.get(ev.payoutId) ?? Promise.resolve();
    const next = prev
      .then(() => new Promise<void>((r) => this.o.later(f.webhook_delay_ms, r)))
      .then(() => this.send(ev, 1))
      .then(() => (f.duplicate_webhooks ? this.send(ev, 1) : undefined));
    this.chains.set(ev.payoutId, next);
  }

  /** One attempt; a failure schedules the next one without holding up the payout's later events. */
  private async send(ev: Event, attempt: number): Promise<void> {
    const url = this.o.config().url;
    if (!url) return void this.record(ev, attempt, null, 'no_url');
    let status: number | null = null;
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'Razorpay-Webhook/v1', 'x-razorpay-signature': ev.signature, 'x-razorpay-event-id': ev.id },
        body: ev.body,
        signal: AbortSignal.any([this.abort.signal, AbortSignal.timeout(this.o.timeoutMs)]),
      });
      status = res.status;
      await res.body?.cancel();
    } catch {
      if (this.abort.signal.aborted) return;
    }
    const ok = status !== null && status >= 200 && status < 300;
    this.record(ev, attempt, status, ok ? 'delivered' : status === null ? 'error' : 'rejected');
    if (!ok && attempt < this.o.attempts) this.o.later(this.o.retryBaseMs * 2 ** (attempt - 1), () => void this.send(ev, attempt + 1));
  }

  private record(ev: Event, attempt: number, status_code: number | null, outcome: DeliveryRecord['outcome']): void {
    this.log.push({
      event_id: ev.id,
      event: ev.event,
      payout_id: ev.payoutId,
      payout_status: ev.payoutStatus,
      attempt,
      status_code,
      outcome,
      signature: ev.bad ? 'bad' : 'valid',
      at: new Date().toISOString(),
    });
  }
}
