// Owns the emulator's in-memory RazorpayX account: contacts and fund accounts of VPAs and (for fund account
// validations only) of bank accounts, deduplicated as documented; payouts and their lifecycle (steered by outcomes.ts), and the business balance. Every
// status change is reported through `onChange`, which the webhook sender turns into events.
import { badRequest, insufficientFunds, unknownId } from './errors.js';
import { bankNameOf } from '../../shared/ifsc.js';
import { errorView, newRzpId, newUtr, unixNow, vpaParts, type BankFundAccount, type Contact, type FundAccount, type Payout, type PayoutStatus, type StatusDetails } from './entities.js';
import { DETAILS, planFor, type Plan } from './outcomes.js';
import type { BankAccountInput, ContactInput, PayoutInput, ValidationRequest } from './validate.js';

export interface PayoutRecord {
  payout: Payout;
  plan: Plan;
  idempotencyKey: string;
  /** Whether the amount is currently debited from the balance. */
  debited: boolean;
  history: Array<{ status: PayoutStatus; at: string }>;
}

export interface StateOptions {
  accountNumber: string;
  narration: string;
  pendingMs: () => number;
  balancePaise: number;
  later: (ms: number, fn: () => void) => void;
  onChange: (rec: PayoutRecord) => void;
}

/** Moves the admin endpoint may force; anything else is a 409 there. */
const FORCEABLE: Readonly<Record<string, readonly PayoutStatus[]>> = {
  processed: ['processing'],
  failed: ['processing', 'queued'],
  reversed: ['processed', 'failed'],
  rejected: ['pending'],
  processing: ['queued', 'pending'],
};

export class RazorpayxState {
  readonly contacts = new Map<string, Contact>();
  readonly fundAccounts = new Map<string, FundAccount>();
  /** Bank account fund accounts: only fund account validations name them (payouts are to VPAs). */
  readonly bankFundAccounts = new Map<string, BankFundAccount>();
  readonly payouts = new Map<string, PayoutRecord>();
  /** Dedup keys (books.ts keeps them across a restart). */
  readonly contactByKey = new Map<string, string>();
  readonly faByKey = new Map<string, string>();
  balance: number;

  constructor(private readonly o: StateOptions) {
    this.balance = o.balancePaise;
  }

  /** [P] dedup: all of name, email, contact, type and reference_id equal ⇒ the existing contact. */
  createContact(c: ContactInput): { contact: Contact; created: boolean } {
    const key = JSON.stringify([c.name, c.email, c.contact, c.type, c.reference_id]);
    const known = this.contactByKey.get(key);
    if (known) return { contact: this.contacts.get(known)!, created: false };
    const contact: Contact = { id: newRzpId('cont'), entity: 'contact', ...c, batch_id: null, active: true, created_at: unixNow() };
    this.contacts.set(contact.id, contact);
    this.contactByKey.set(key, contact.id);
    return { contact, created: true };
  }

  /** [P] dedup on (contact_id, vpa.address); fund accounts are never edited. */
  createFundAccount(contactId: string, address: string): { fundAccount: FundAccount; created: boolean } {
    if (!this.contacts.has(contactId)) throw unknownId('contact_id');
    const key = `${contactId}\n${address}`;
    const known = this.faByKey.get(key);
    if (known) return { fundAccount: this.fundAccounts.get(known)!, created: false };
    const fa: FundAccount = { id: newRzpId('fa'), entity: 'fund_account', contact_id: contactId, account_type: 'vpa', vpa: vpaParts(address), active: true, batch_id: null, created_at: unixNow() };
    this.fundAccounts.set(fa.id, fa);
    this.faByKey.set(key, fa.id);
    return { fundAccount: fa, created: true };
  }

  /** [P] dedup on (contact_id, bank_account.name, .ifsc, .account_number); fund accounts are never edited. */
  createBankFundAccount(contactId: string, bank: BankAccountInput): BankFundAccount {
    const key = JSON.stringify([contactId, bank.name, bank.ifsc, bank.account_number]);
    const known = this.faByKey.get(key);
    if (known) return this.bankFundAccounts.get(known)!;
    const fa: BankFundAccount = {
      id: newRzpId('fa'),
      entity: 'fund_account',
      contact_id: contactId,
      account_type: 'bank_account',
      bank_account: { ifsc: bank.ifsc, bank_name: bankNameOf(bank.ifsc), name: bank.name, account_number: bank.account_number, notes: [] },
      active: true,
      batch_id: null,
      created_at: unixNow(),
    };
    this.bankFundAccounts.set(fa.id, fa);
    this.faByKey.set(key, fa.id);
    return fa;
  }

  /** The fund account a validation names: a VPA or a bank account inline (created or deduplicated), or either by id. */
  resolveValidationAccount(input: ValidationRequest): FundAccount | BankFundAccount {
    if (input.bank) return this.createBankFundAccount(this.createContact(input.bank.contact).contact.id, input.bank.account);
    const bank = input.fundAccountId ? this.bankFundAccounts.get(input.fundAccountId) : undefined;
    return bank ?? this.resolveFundAccount(input);
  }

  /** Creates the payout and starts its lifecycle. Errors: unknown fund account, insufficient funds (400). */
  createPayout(input: PayoutInput, idempotencyKey: string): PayoutRecord {
    const fa = this.resolveFundAccount(input);
    const plan = planFor(fa.vpa.address);
    const lowBalance = (plan === 'processed' || plan === 'held' || plan === 'failed' || plan === 'reversed') && this.balance < input.amount;
    if (lowBalance && !input.queueIfLowBalance) throw insufficientFunds();
    const rec: PayoutRecord = { payout: this.newPayout(input, fa), plan, idempotencyKey, debited: false, history: [] };
    this.payouts.set(rec.payout.id, rec);
    if (plan === 'invalid') this.move(rec, 'failed', DETAILS.vpaInvalid);
    else if (plan === 'rejected') {
      this.move(rec, 'pending', DETAILS.pendingApproval);
      this.after(rec, 'pending', this.o.pendingMs(), () => this.move(rec, 'rejected', DETAILS.rejected));
    }
    else if (plan === 'queued') this.move(rec, 'queued', DETAILS.bankDown);
    else if (lowBalance) this.move(rec, 'queued', DETAILS.lowBalance);
    else this.startProcessing(rec);
    return rec;
  }

  /** The fund account a payout or a validation names: inline (created or deduplicated) or by id. */
  resolveFundAccount(input: Pick<PayoutInput, 'fundAccountId' | 'composite'>): FundAccount {
    if (input.composite) {
      const { contact } = this.createContact(input.composite.contact);
      return this.createFundAccount(contact.id, input.composite.address).fundAccount;
    }
    const fa = this.fundAccounts.get(input.fundAccountId!);
    if (!fa) throw unknownId('fund_account_id');
    return fa;
  }

  private newPayout(input: PayoutInput, fa: FundAccount): Payout {
    return {
      id: newRzpId('pout'),
      entity: 'payout',
      fund_account_id: fa.id,
      amount: input.amount,
      currency: 'INR',
      notes: input.notes,
      // UPI payouts in the docs' samples carry no fee; the emulator charges none.
      fees: 0,
      tax: 0,
      status: 'processing',
      purpose: input.purpose,
      utr: null,
      mode: 'UPI',
      reference_id: input.reference_id,
      narration: input.narration ?? this.o.narration,
      debit_account_number: this.o.accountNumber,
      batch_id: null,
      failure_reason: null,
      status_details: null,
      created_at: unixNow(),
      fee_type: '',
      error: errorView('processing', null),
    };
  }

  private startProcessing(rec: PayoutRecord): void {
    this.balance -= rec.payout.amount;
    rec.debited = true;
    this.move(rec, 'processing', rec.plan === 'held' ? DETAILS.confirmationPending : DETAILS.processing);
    const step = this.o.pendingMs();
    if (rec.plan === 'processed' || rec.plan === 'reversed') {
      this.after(rec, 'processing', step, () => this.move(rec, 'processed', DETAILS.processed, newUtr()));
      if (rec.plan === 'reversed') this.after(rec, 'processed', 2 * step, () => this.move(rec, 'reversed', DETAILS.bankOffline));
    } else if (rec.plan === 'failed') {
      this.after(rec, 'processing', step, () => this.move(rec, 'failed', DETAILS.bankRejected));
    }
  }

  /** Runs `fn` later only if the payout is still in `expected` (an admin settle or cancel may have moved it). */
  private after(rec: PayoutRecord, expected: PayoutStatus, ms: number, fn: () => void): void {
    this.o.later(ms, () => {
      if (rec.payout.status === expected) fn();
    });
  }

  private move(rec: PayoutRecord, status: PayoutStatus, details: StatusDetails, utr?: string): void {
    const p = rec.payout;
    p.status = status;
    p.status_details = { ...details };
    if (utr) p.utr = utr;
    p.failure_reason = status === 'failed' || status === 'reversed' ? details.description : null;
    p.error = errorView(status, details);
    if (rec.debited && (status === 'failed' || status === 'reversed' || status === 'cancelled')) {
      this.balance += p.amount; // the reversal credits the amount back
      rec.debited = false;
    }
    rec.history.push({ status, at: new Date().toISOString() });
    this.o.onChange(rec);
  }

  /** [P] only a `queued` payout can be cancelled; [G] the error text. */
  cancel(id: string): PayoutRecord {
    const rec = this.get(id);
    if (rec.payout.status !== 'queued') throw badRequest(`Payout cannot be cancelled as it is in ${rec.payout.status} state. Only queued payouts can be cancelled.`, 'id');
    this.move(rec, 'cancelled', DETAILS.cancelled);
    return rec;
  }

  get(id: string): PayoutRecord {
    const rec = this.payouts.get(id);
    if (!rec) throw unknownId('id');
    return rec;
  }

  /** Admin: force a documented transition (e.g. finish a `pending@` payout). Returns an error text on a move that cannot happen. */
  force(id: string, status: PayoutStatus, details?: Partial<StatusDetails>): PayoutRecord | string {
    const rec = this.payouts.get(id);
    if (!rec) return 'unknown payout';
    const from = FORCEABLE[status];
    if (!from || !from.includes(rec.payout.status)) return `cannot move a ${rec.payout.status} payout to ${status}`;
    if (status === 'processing') {
      this.startProcessingForced(rec);
      return rec;
    }
    const base = status === 'processed' ? DETAILS.processed : status === 'rejected' ? DETAILS.rejected : status === 'reversed' ? DETAILS.bankOffline : DETAILS.bankRejected;
    this.move(rec, status, { ...base, ...details }, status === 'processed' ? newUtr() : undefined);
    return rec;
  }

  private startProcessingForced(rec: PayoutRecord): void {
    // A released payout follows the default lifecycle unless its VPA asked for failure/reversal/hold.
    if (rec.plan === 'queued' || rec.plan === 'rejected') rec.plan = 'processed';
    this.startProcessing(rec);
  }

  /** Admin: set the balance, then release low-balance queued payouts first-in first-out while they fit. */
  setBalance(paise: number): string[] {
    this.balance = paise;
    const released: string[] = [];
    for (const rec of this.payouts.values()) {
      if (rec.payout.status !== 'queued' || rec.payout.status_details?.reason !== 'low_balance') continue;
      if (this.balance < rec.payout.amount) break;
      this.startProcessing(rec);
      released.push(rec.payout.id);
    }
    return released;
  }
}
