// Owns the emulated Bank Account Verification V2 and UPI Verification V2 books: one record per check,
// found by Cashfree's reference_id and by our id (BAV async `user_id`, UPI `verification_id`; a repeat of
// either is refused as the document says), each with its history. Answers are pure functions of the
// input: holders are shared/people.ts persons, banks the real ones of shared/ifsc.ts; magic inputs
// (MAGIC_ACCOUNTS, MAGIC_VPAS; docs/PARTNER-EMULATORS.md) steer the outcome. A pending check settles
// after pendingMs; the status calls read the same record.
import { createHash } from 'node:crypto';
import { bankNameOf } from '../../shared/ifsc.js';
import { person } from '../../shared/people.js';

/** What an account number leads to: an account_status and its code, or a bank-side 422, or a 500. */
export type BavPlan =
  | { kind: 'final'; status: 'VALID' | 'INVALID' | 'FAILED'; code: string }
  | { kind: 'pending'; then: 'VALID' | 'INVALID'; code: string }
  | { kind: 'bank422'; code: string; message: string }
  | { kind: 'error' };

/** [G] magic account numbers (any IFSC); the codes are Cashfree's documented ones. */
export const MAGIC_ACCOUNTS: Readonly<Record<string, BavPlan>> = {
  '000000000001': { kind: 'final', status: 'INVALID', code: 'INVALID_ACCOUNT_FAIL' },
  '000000000002': { kind: 'final', status: 'INVALID', code: 'ACCOUNT_BLOCKED' },
  '000000000003': { kind: 'final', status: 'INVALID', code: 'NRE_ACCOUNT_FAIL' },
  '000000000004': { kind: 'pending', then: 'VALID', code: 'ACCOUNT_IS_VALID' },
  '000000000005': { kind: 'bank422', code: 'failed_at_bank', message: 'failed at bank.' },
  '000000000006': { kind: 'error' },
  '000000000007': { kind: 'final', status: 'FAILED', code: 'BENEFICIARY_BANK_OFFLINE' },
};

/** [P] Cashfree's own UPI test VPAs (the document's examples); `pending@upi` is ours [G]. */
export const MAGIC_VPAS: Readonly<Record<string, string>> = {
  'success@upi': 'VALID',
  'invalid@upi': 'INVALID',
  'expired@upi': 'EXPIRED',
  'invalidname@upi': 'NPCI_NAME_INCORRECT',
  'pending@upi': 'PENDING',
};

/** An IFSC the directory does not know is INVALID_IFSC_FAIL; otherwise VALID (or the magic plan). */
export function bavPlanFor(account: string, ifsc: string): BavPlan {
  return MAGIC_ACCOUNTS[account] ?? (bankNameOf(ifsc) ? { kind: 'final', status: 'VALID', code: 'ACCOUNT_IS_VALID' } : { kind: 'final', status: 'INVALID', code: 'INVALID_IFSC_FAIL' });
}

const digits = (seed: string, n: number): string => {
  const h = createHash('sha256').update(seed).digest();
  return Array.from({ length: n }, (_, i) => (i === 0 ? 1 + (h[i]! % 9) : h[i]! % 10)).join('');
};

/** BAVV2…Schema in the document's key order. */
export interface BavView {
  reference_id: number;
  user_id?: string;
  name_at_bank: string | null;
  bank_name: string | null;
  city: string | null;
  branch: string | null;
  micr: number | null;
  name_match_score: string | null;
  name_match_result: string | null;
  account_status: string;
  account_status_code: string;
  utr: string | null;
}

export interface BavRecord {
  input: { bank_account: string; ifsc: string; user_id: string | null; mode: 'sync' | 'async' };
  plan: BavPlan;
  view: BavView;
  created_at: string;
  history: Array<{ status: string; at: string }>;
}

/** UPIv2ResponseSchema. */
export interface UpiView {
  verification_id: string;
  reference_id: number;
  status: string;
  name_at_bank: string | null;
  vpa: string;
}

export interface UpiRecord {
  view: UpiView;
  requests: number;
  created_at: string;
  history: Array<{ status: string; at: string }>;
}

export class PayeeState {
  readonly bavByRef = new Map<number, BavRecord>();
  readonly upiById = new Map<string, UpiRecord>();
  nextReference = 80_000_001;

  constructor(private readonly deps: { pendingMs: () => number; later: (ms: number, fn: () => void) => void }) {}

  bavByUserId(userId: string): BavRecord | undefined {
    return [...this.bavByRef.values()].find((r) => r.input.user_id === userId);
  }

  upiByRef(ref: number): UpiRecord | undefined {
    return [...this.upiById.values()].find((r) => r.view.reference_id === ref);
  }

  /** A BAV check: async ones are RECEIVED first whatever their plan; a pending plan stays RECEIVED for pendingMs. */
  createBav(input: BavRecord['input'], plan: Exclude<BavPlan, { kind: 'bank422' | 'error' }>): BavRecord {
    const now = new Date().toISOString();
    const received = input.mode === 'async' || plan.kind !== 'final';
    const [status, code] = plan.kind === 'final' && !received ? [plan.status, plan.code] : ['RECEIVED', 'VALIDATION_IN_PROGRESS'];
    const rec: BavRecord = { input, plan, view: this.bavView(input, this.nextReference++, status, code), created_at: now, history: [{ status, at: now }] };
    this.bavByRef.set(rec.view.reference_id, rec);
    if (received) this.deps.later(this.deps.pendingMs(), () => this.settleBav(rec));
    return rec;
  }

  settleBav(rec: BavRecord): void {
    if (rec.view.account_status !== 'RECEIVED') return;
    const p = rec.plan as Exclude<BavPlan, { kind: 'bank422' | 'error' }>;
    const status = p.kind === 'final' ? p.status : p.then;
    rec.view = this.bavView(rec.input, rec.view.reference_id, status, p.code);
    rec.history.push({ status, at: new Date().toISOString() });
  }

  /** A bank-side 422's reference (the check was attempted; nothing is kept to look up [G]). */
  takeReference(): number {
    return this.nextReference++;
  }

  /** A UPI check; the caller has refused a repeated verification_id (counted here). */
  createUpi(verification_id: string, vpa: string): UpiRecord {
    const now = new Date().toISOString();
    const status = MAGIC_VPAS[vpa.toLowerCase()] ?? 'VALID';
    const rec: UpiRecord = { view: this.upiView(verification_id, this.nextReference++, status, vpa), requests: 1, created_at: now, history: [{ status, at: now }] };
    this.upiById.set(verification_id, rec);
    if (status === 'PENDING') this.deps.later(this.deps.pendingMs(), () => this.settleUpi(rec));
    return rec;
  }

  settleUpi(rec: UpiRecord): void {
    if (rec.view.status !== 'PENDING') return;
    rec.view = this.upiView(rec.view.verification_id, rec.view.reference_id, 'VALID', rec.view.vpa);
    rec.history.push({ status: 'VALID', at: new Date().toISOString() });
  }

  private bavView(input: BavRecord['input'], reference_id: number, status: string, code: string): BavView {
    const valid = status === 'VALID';
    const seed = `${input.ifsc}:${input.bank_account}`;
    return {
      reference_id,
      ...(input.user_id !== null ? { user_id: input.user_id } : {}),
      name_at_bank: valid ? person(`bav:${seed}`).name.toUpperCase() : null,
      bank_name: valid ? bankNameOf(input.ifsc) : null,
      city: valid ? person(`bav:${seed}`).address.Dist.toUpperCase() : null,
      branch: valid ? `${person(`bav:${seed}`).address.Dist.toUpperCase()} - ${input.ifsc.slice(5)}` : null,
      micr: valid ? Number(digits(`micr:${input.ifsc}`, 9)) : null,
      name_match_score: null,
      name_match_result: null,
      account_status: status,
      account_status_code: code,
      utr: valid ? digits(`utr:${reference_id}:${seed}`, 12) : null,
    };
  }

  private upiView(verification_id: string, reference_id: number, status: string, vpa: string): UpiView {
    return { verification_id, reference_id, status, name_at_bank: status === 'VALID' ? person(`upi:${vpa.toLowerCase()}`).name.toUpperCase() : null, vpa };
  }
}
