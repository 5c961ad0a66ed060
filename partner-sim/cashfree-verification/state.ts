// Owns the penny drops the emulator has made: one per verification_id, never two (a repeated id is a
// 409), each with its request count and history so /_sim can prove a one-rupee credit went out at most
// once. A pending one moves to its final status on a timer; the status call reads the same record.
import { duplicateVerification } from './errors.js';
import { linkedAccount, utrFor, type LinkedAccount, type Plan, type IfscDetails } from './directory.js';
import { nameMatch } from './name-match.js';
import type { PennyDropInput } from './validate.js';

/** [P] VALID is the only status the docs show; PENDING and INVALID are [G]. */
export type PennyDropStatus = 'PENDING' | 'VALID' | 'INVALID';

/** The response body, in the order and with the names of the docs' sample. */
export interface PennyDropView {
  verification_id: string;
  reference_id: number;
  status: PennyDropStatus;
  ifsc: string | null;
  vpa: string | null;
  mobile_number: string;
  account_type: string | null;
  name_at_bank: string | null;
  utr: string | null;
  /** [P] the full account number, unmasked, as in the sample: masking is the caller's business. */
  bank_account: string | null;
  name_match_score: string | null;
  name_match_result: string | null;
  ifsc_details: IfscDetails | null;
}

export interface PennyDropRecord {
  input: PennyDropInput;
  plan: Plan;
  view: PennyDropView;
  /** Create calls seen with this verification_id, the first included. */
  requests: number;
  created_at: string;
  history: Array<{ status: PennyDropStatus; at: string }>;
}

export class PennyDropState {
  readonly byId = new Map<string, PennyDropRecord>();
  /** By reference_id, and the next one (books.ts keeps them across a restart). */
  readonly byReference = new Map<number, PennyDropRecord>();
  nextReference = 70_000_001;

  constructor(private readonly deps: { pendingMs: () => number; later: (ms: number, fn: () => void) => void }) {}

  /** Throws 409 for a verification_id already used (the repeat is still counted in `requests`). */
  create(input: PennyDropInput, plan: Plan): PennyDropRecord {
    const seen = this.byId.get(input.verification_id);
    if (seen) {
      seen.requests++;
      throw duplicateVerification(input.verification_id);
    }
    const now = new Date().toISOString();
    const status: PennyDropStatus = plan.kind === 'pending' ? 'PENDING' : plan.kind === 'invalid' ? 'INVALID' : 'VALID';
    const rec: PennyDropRecord = { input, plan, view: this.view(input, this.nextReference++, status), requests: 1, created_at: now, history: [{ status, at: now }] };
    this.byId.set(input.verification_id, rec);
    this.byReference.set(rec.view.reference_id, rec);
    if (plan.kind === 'pending') {
      this.deps.later(this.deps.pendingMs(), () => this.settle(rec, plan.then === 'valid' ? 'VALID' : 'INVALID'));
    }
    return rec;
  }


  settle(rec: PennyDropRecord, status: PennyDropStatus): void {
    rec.view = this.view(rec.input, rec.view.reference_id, status);
    rec.history.push({ status, at: new Date().toISOString() });
  }

  private view(input: PennyDropInput, reference_id: number, status: PennyDropStatus): PennyDropView {
    const acct: LinkedAccount | null = status === 'VALID' ? linkedAccount(input.mobile_number) : null;
    const match = acct && input.name !== null ? nameMatch(input.name, acct.name_at_bank) : null;
    return {
      verification_id: input.verification_id,
      reference_id,
      status,
      ifsc: acct?.ifsc ?? null,
      vpa: acct?.vpa ?? null,
      mobile_number: input.mobile_number,
      account_type: acct?.account_type ?? null,
      name_at_bank: acct?.name_at_bank ?? null,
      utr: acct ? utrFor(input.verification_id, input.mobile_number) : null,
      bank_account: acct?.bank_account ?? null,
      name_match_score: match ? String(match.score) : null,
      name_match_result: match?.result ?? null,
      ifsc_details: acct?.ifsc_details ?? null,
    };
  }
}
