// Owns the BBPS emulator's in-memory bill fetches (validations) and payments, both keyed by the `refId`
// a fetch request answers. The lifecycle is steered by the last four digits of the subscriber number
// (each later step waits `pendingMs`; fetches complete after `fetchMs`):
//
//   suffix   fetch      payment/request → payment/response           BILL_PAY webhooks
//   (other)  Success    Success                                       Success
//   0001     Success    Failure                                       Failure (failureReason)
//   0002     Success    Processing → Success                          Success
//   0003     Success    Processing → Failure                          Failure
//   0004     Success    Success → Credit_Adjustment (the refund)      Success, Credit_Adjustment
//   0005     Success    Processing until POST /_sim/payments/{refId}/settle
//   0009     Failure (subscriber not found); paying it is refused
//
// [P] payment/response statuses Success | Failure | Processing (its OpenAPI enum); the refund
// (Credit_Adjustment) is documented in the BILL_PAY webhook only, so payment/response keeps showing the
// refunded payment as Success (api.ts paymentView) while the webhook says Credit_Adjustment.
// [P] a plan-mandatory biller's payment names one of its plans (paymentDetails.Id, or the fetch's "Id"
// customer parameter) and pays exactly its amount (plan-mdm-integration.mdx); [G] the refusal texts.
import { randomInt } from 'node:crypto';
import type { Biller, Subscriber } from './billers.js';
import { subscriberFor } from './billers.js';
import { conflict, invalidParams, notFound } from './errors.js';
import { planOf, type FetchInput, type PaymentInput } from './validate.js';

export type Plan = 'success' | 'failure' | 'pending_success' | 'pending_failure' | 'refund' | 'held' | 'not_found';
export const MAGIC_SUFFIXES: Readonly<Record<string, Plan>> = {
  '0001': 'failure',
  '0002': 'pending_success',
  '0003': 'pending_failure',
  '0004': 'refund',
  '0005': 'held',
  '0009': 'not_found',
};

export type PayStatus = 'Processing' | 'Success' | 'Failure' | 'Credit_Adjustment';
export interface Reason {
  code: string;
  message: string;
}
/** [G] failure reasons. */
export const REASONS = {
  notFound: { code: 'customer-not-found', message: 'No subscriber found for the given customer parameters' },
  billerDeclined: { code: 'biller-declined', message: 'Payment declined by the biller' },
  refunded: { code: 'credit-adjustment', message: 'Amount credited back to the customer after the biller reversed the payment' },
} as const satisfies Record<string, Reason>;

export interface FetchRecord {
  refId: string;
  input: FetchInput;
  plan: Plan;
  status: 'Processing' | 'Success' | 'Failure';
  subscriber: Subscriber | null;
  error: Reason | null;
  traceId: string;
  /** [P] the fetch answer's billerRefId. */
  billerRefId: string;
  payment: PaymentRecord | null;
}

export interface PaymentRecord {
  input: PaymentInput;
  status: PayStatus;
  billerRefId: string;
  transactionId: string;
  failureReason: Reason | null;
  history: Array<{ status: PayStatus; at: string }>;
}

export interface StateOptions {
  pendingMs: () => number;
  fetchMs: () => number;
  later: (ms: number, fn: () => void) => void;
  onFetched: (rec: FetchRecord) => void;
  onPaid: (rec: FetchRecord, final: boolean) => void;
}

const pick = (n: number, alphabet: string): string => Array.from({ length: n }, () => alphabet[randomInt(alphabet.length)]).join('');
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

export const FORCEABLE: Readonly<Record<string, readonly PayStatus[]>> = {
  Success: ['Processing'],
  Failure: ['Processing'],
  Credit_Adjustment: ['Success'],
};

/** A plan-mandatory biller: the payment names an active plan of it and pays exactly its amount. */
function checkPlan(rec: FetchRecord, input: PaymentInput): void {
  const b = rec.input.biller;
  const id = input.planId ?? rec.input.planId;
  if (b.planRequirement !== 'MANDATORY') return;
  if (!id) throw invalidParams(`Plan selection is mandatory for biller ${b.id}: paymentDetails.Id is required`);
  const plan = planOf(b, id);
  if (!plan) throw invalidParams(`No active plan ${id} for biller ${b.id}`);
  if (plan.amount !== input.amount) throw invalidParams(`paymentDetails.amount must equal the plan amount ${plan.amount}`);
}

export class BbpsState {
  readonly fetches = new Map<string, FetchRecord>();
  readonly byPaymentRef = new Map<string, string>();
  /** payment/request calls seen per paymentRefId, refused ones included. */
  readonly paymentRequests = new Map<string, number>();

  constructor(private readonly o: StateOptions) {}

  fetch(input: FetchInput, traceId: string): FetchRecord {
    // [G] BBPS refIds are 35 characters
    const rec: FetchRecord = { refId: pick(35, UPPER), input, plan: MAGIC_SUFFIXES[input.subscriber.slice(-4)] ?? 'success', status: 'Processing', subscriber: null, error: null, traceId, billerRefId: pick(10, '0123456789'), payment: null };
    this.fetches.set(rec.refId, rec);
    this.o.later(this.o.fetchMs(), () => {
      if (rec.plan === 'not_found') {
        rec.status = 'Failure';
        rec.error = REASONS.notFound;
      } else {
        rec.status = 'Success';
        rec.subscriber = subscriberFor(input.biller as Biller, input.subscriber);
      }
      this.o.onFetched(rec);
    });
    return rec;
  }

  get(refId: string): FetchRecord {
    const rec = this.fetches.get(refId);
    if (!rec) throw notFound('ref-id', refId);
    return rec;
  }

  /** Errors: unknown refId (404), fetch not successful (400), refId already paid or paymentRefId reused (409). */
  pay(input: PaymentInput): FetchRecord {
    this.paymentRequests.set(input.paymentRefId, (this.paymentRequests.get(input.paymentRefId) ?? 0) + 1);
    const rec = this.get(input.refId);
    if (this.byPaymentRef.has(input.paymentRefId)) throw conflict('duplicate-payment-ref-id', `Duplicate Payment Reference ID : ${input.paymentRefId}`);
    if (rec.payment) throw conflict('payment-already-initiated', `A payment was already made for refId ${rec.refId}`);
    if (rec.status !== 'Success') throw invalidParams(`The bill fetch for refId ${rec.refId} has not succeeded (status ${rec.status})`);
    checkPlan(rec, input);
    const p: PaymentRecord = { input, status: 'Processing', billerRefId: pick(12, UPPER), transactionId: `CC01${pick(16, '0123456789')}`, failureReason: null, history: [] };
    rec.payment = p;
    this.byPaymentRef.set(input.paymentRefId, rec.refId);
    const step = this.o.pendingMs();
    switch (rec.plan) {
      case 'success':
        this.move(rec, 'Success');
        break;
      case 'failure':
        this.move(rec, 'Failure', REASONS.billerDeclined);
        break;
      case 'refund':
        this.move(rec, 'Success', null, false);
        this.o.later(step, () => this.move(rec, 'Credit_Adjustment', REASONS.refunded));
        break;
      case 'pending_success':
      case 'pending_failure':
        p.history.push({ status: 'Processing', at: new Date().toISOString() });
        this.o.later(step, () => {
          if (p.status !== 'Processing') return;
          if (rec.plan === 'pending_success') this.move(rec, 'Success');
          else this.move(rec, 'Failure', REASONS.billerDeclined);
        });
        break;
      default:
        p.history.push({ status: 'Processing', at: new Date().toISOString() });
    }
    return rec;
  }

  force(refId: string, status: string): FetchRecord | string {
    const rec = this.fetches.get(refId);
    if (!rec?.payment) return 'unknown payment';
    const from = FORCEABLE[status];
    if (!from || !from.includes(rec.payment.status)) return `cannot move a ${rec.payment.status} payment to ${status}`;
    const reason = status === 'Failure' ? REASONS.billerDeclined : status === 'Credit_Adjustment' ? REASONS.refunded : null;
    this.move(rec, status as PayStatus, reason);
    return rec;
  }

  private move(rec: FetchRecord, status: PayStatus, reason: Reason | null = null, final = true): void {
    const p = rec.payment!;
    p.status = status;
    p.failureReason = reason;
    p.history.push({ status, at: new Date().toISOString() });
    this.o.onPaid(rec, final);
  }
}
