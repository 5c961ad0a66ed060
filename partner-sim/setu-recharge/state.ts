// Owns the emulator's in-memory prepaid account: recharges keyed by paymentRefId (the documented
// idempotency key: a second request with a used one is refused), their lifecycle steered by outcomes.ts,
// and the prepaid wallet that recharges draw on. Every change worth a webhook is reported through the
// `on*` callbacks; index.ts turns them into webhooks.
import { randomInt } from 'node:crypto';
import { isSpecial, type Operator } from './catalogue.js';
import { duplicatePaymentRef, invalidTxnRef } from './errors.js';
import { amountError, BUSINESS_ERRORS, planFor, type Plan, type RechargeError } from './outcomes.js';
import type { RechargeInput } from './validate.js';

export type RechargeStatus = 'Processing' | 'Successful' | 'Failure';

export interface RechargeRecord {
  input: RechargeInput;
  plan: Plan;
  transactionRefId: string;
  operatorRefId: string | null;
  status: RechargeStatus;
  error: RechargeError | null;
  /** [P] a reversal shows only in the webhook; the status API keeps answering `Successful`. */
  reversed: boolean;
  isSpecial: boolean;
  /** The trace id of the request that created it (also carried by its webhooks). */
  traceId: string;
  /** Whether the amount is currently debited from the wallet. */
  debited: boolean;
  history: Array<{ status: RechargeStatus | 'REVERSED'; at: string }>;
}

export interface StateOptions {
  pendingMs: () => number;
  walletPaise: number;
  lowBalancePaise: number;
  later: (ms: number, fn: () => void) => void;
  onFinal: (rec: RechargeRecord) => void;
  onReversed: (rec: RechargeRecord) => void;
  onLowBalance: (balancePaise: number) => void;
}

const ALNUM = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const pick = (n: number, alphabet: string): string => Array.from({ length: n }, () => alphabet[randomInt(alphabet.length)]).join('');
/** [P] shapes of the samples: transactionRefId `CYJSTPM37695672`, operatorRefId `F3MV358Q19`. */
const newTransactionRef = (): string => `CYJSTPM${pick(8, '0123456789')}`;
const newOperatorRef = (): string => pick(10, ALNUM);

export const FORCEABLE: Readonly<Record<string, readonly string[]>> = {
  Successful: ['Processing'],
  Failure: ['Processing'],
  REVERSED: ['Successful'],
};

export class RechargeState {
  readonly recharges = new Map<string, RechargeRecord>();
  /** Every /recharge/request seen per paymentRefId, refused duplicates included (for /_sim/recharges). */
  readonly requests = new Map<string, number>();
  wallet: number;

  constructor(private readonly o: StateOptions) {
    this.wallet = o.walletPaise;
  }

  /** Counts the request; throws ERR005 if the paymentRefId was used before. */
  claim(paymentRefId: string): void {
    this.requests.set(paymentRefId, (this.requests.get(paymentRefId) ?? 0) + 1);
    if (this.recharges.has(paymentRefId)) throw duplicatePaymentRef(paymentRefId);
  }

  /** Creates the recharge and starts its lifecycle. A refused amount or an empty wallet is a `Failure` record, not an error. */
  create(input: RechargeInput, traceId: string): RechargeRecord {
    const rec: RechargeRecord = {
      input,
      plan: planFor(input.mobile),
      transactionRefId: newTransactionRef(),
      operatorRefId: null,
      status: 'Processing',
      error: null,
      reversed: false,
      isSpecial: isSpecial(input.operator as Operator, input.location, input.amount),
      traceId,
      debited: false,
      history: [],
    };
    this.recharges.set(input.paymentRefId, rec);
    const refused = amountError(input.amount) ?? (this.wallet < input.amount ? BUSINESS_ERRORS.lowWallet : null);
    if (refused) {
      this.finish(rec, 'Failure', refused);
      return rec;
    }
    this.debit(rec);
    const step = this.o.pendingMs();
    switch (rec.plan) {
      case 'success':
        this.finish(rec, 'Successful');
        break;
      case 'failure':
        this.finish(rec, 'Failure', BUSINESS_ERRORS.operatorFailure);
        break;
      case 'reversal':
        this.finish(rec, 'Successful');
        this.o.later(step, () => this.reverse(rec));
        break;
      case 'pending_success':
      case 'pending_failure':
        this.mark(rec, 'Processing');
        this.o.later(step, () => {
          if (rec.status !== 'Processing') return; // settled by hand meanwhile
          if (rec.plan === 'pending_success') this.finish(rec, 'Successful');
          else this.finish(rec, 'Failure', BUSINESS_ERRORS.operatorFailure);
        });
        break;
      case 'held':
        this.mark(rec, 'Processing');
        break;
    }
    return rec;
  }

  get(paymentRefId: string): RechargeRecord {
    const rec = this.recharges.get(paymentRefId);
    if (!rec) throw invalidTxnRef(paymentRefId);
    return rec;
  }

  /** Admin: force a documented move. Returns an error text on a move that cannot happen. */
  force(paymentRefId: string, status: string): RechargeRecord | string {
    const rec = this.recharges.get(paymentRefId);
    if (!rec) return 'unknown recharge';
    const from = FORCEABLE[status];
    const current = rec.reversed ? 'REVERSED' : rec.status;
    if (!from || !from.includes(current)) return `cannot move a ${current} recharge to ${status}`;
    if (status === 'REVERSED') this.reverse(rec);
    else this.finish(rec, status as 'Successful' | 'Failure', status === 'Failure' ? BUSINESS_ERRORS.operatorFailure : null);
    return rec;
  }

  /** Admin: set the wallet balance (paise). */
  setWallet(paise: number): void {
    this.wallet = paise;
  }

  private debit(rec: RechargeRecord): void {
    const before = this.wallet;
    this.wallet -= rec.input.amount;
    rec.debited = true;
    if (before >= this.o.lowBalancePaise && this.wallet < this.o.lowBalancePaise) this.o.onLowBalance(this.wallet);
  }

  private credit(rec: RechargeRecord): void {
    if (!rec.debited) return;
    this.wallet += rec.input.amount;
    rec.debited = false;
  }

  private mark(rec: RechargeRecord, status: RechargeStatus | 'REVERSED'): void {
    if (status !== 'REVERSED') rec.status = status;
    rec.history.push({ status, at: new Date().toISOString() });
  }

  private finish(rec: RechargeRecord, status: 'Successful' | 'Failure', error: RechargeError | null = null): void {
    this.mark(rec, status);
    rec.error = error;
    if (status === 'Successful') rec.operatorRefId = newOperatorRef();
    else this.credit(rec);
    this.o.onFinal(rec);
  }

  private reverse(rec: RechargeRecord): void {
    if (rec.reversed || rec.status !== 'Successful') return;
    rec.reversed = true;
    this.mark(rec, 'REVERSED');
    this.credit(rec);
    this.o.onReversed(rec);
  }
}
