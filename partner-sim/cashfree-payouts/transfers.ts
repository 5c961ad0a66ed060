// Owns the emulator's in-memory Cashfree account: pre-created beneficiaries (seeded through /_sim), the
// transfers keyed by `transfer_id`, their lifecycle (steered by outcomes.ts), and the fund source
// balance. Every stage change is reported through `onChange`, which the webhook sender turns into events.
//
// Idempotency (PARTNERS.md §3.6): there is no header; `transfer_id` is the key. [G] decisions:
// - Same transfer_id and the same body (parsed JSON, keys sorted) answers 200 with the transfer as it is
//   now (the docs' "safe retry = same transfer_id"); the conflict_on_replay fault makes it a 409 instead.
// - Same transfer_id and a different body: 409 transfer_id_already_exists. Nothing changes.
// - A request refused by validation records nothing, so a corrected retry under the same id goes through.
import { randomDigits } from '../../shared/ids.js';
import { invalid, transferExists, transferNotFound } from './errors.js';
import { PLANS, REFUNDS, STAGES, TERMINAL, planFor, type Plan, type Stage, type StageName, type TransferStatus } from './outcomes.js';
import type { TransferInput, TransferMode } from './validate.js';
import { canonicalJson } from '../common/canonical.js';

export interface Transfer {
  transfer_id: string;
  cf_transfer_id: string;
  status: TransferStatus;
  status_code: string;
  status_description: string;
  beneficiary_details: { beneficiary_id?: string; beneficiary_instrument_details: { vpa: string } };
  transfer_amount: number;
  transfer_service_charge?: number;
  transfer_service_tax?: number;
  transfer_mode: string;
  transfer_utr?: string;
  fundsource_id: string;
  added_on: string;
  updated_on: string;
}

export interface TransferRecord {
  transfer: Transfer;
  plan: Plan;
  /** Canonical JSON of the creating body: the idempotency fingerprint. */
  fingerprint: string;
  beneficiaryName: string | null;
  remarks: string | null;
  amountPaise: number;
  debited: boolean;
  /** Bumped by a forced settle, so stages scheduled earlier do not run. */
  generation: number;
  /** The x-api-version the creating request carried (null: none). */
  apiVersion: string | null;
  history: Array<{ status: TransferStatus; status_code: string; at: string }>;
}

export interface Beneficiary {
  beneficiary_id: string;
  beneficiary_name: string;
  vpa: string;
}

export interface TransfersOptions {
  fundsourceId: string;
  balancePaise: number;
  pendingMs: () => number;
  later: (ms: number, fn: () => void) => void;
  onChange: (rec: TransferRecord, stage: Stage) => void;
}

/** [P] timestamps are ISO 8601 in UTC without fractions: `2021-11-24T13:39:25Z`. */
export const isoNow = (): string => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');

/** [P] `transfer_mode` is echoed as `BANK` for a bank transfer and `upi` for UPI; [G] the others upper-cased. */
const echoMode = (m: TransferMode): string => (m === 'upi' ? 'upi' : m === 'banktransfer' ? 'BANK' : m.toUpperCase());

export class TransferBook {
  readonly transfers = new Map<string, TransferRecord>();
  readonly beneficiaries = new Map<string, Beneficiary>();
  /** Create requests seen per transfer_id, replays and conflicts included (for /_sim/transfers). */
  readonly requests = new Map<string, number>();
  /** cf_transfer_id → transfer_id (books.ts rebuilds it after a restart). */
  readonly byCfId = new Map<string, string>();
  balance: number;

  constructor(private readonly o: TransfersOptions) {
    this.balance = o.balancePaise;
  }

  /**
   * Creates the transfer (RECEIVED) and starts its lifecycle, or answers the existing one for a replay.
   * Errors: 409 transfer_id_already_exists; 400 beneficiary_id unknown or its VPA mismatched.
   */
  create(input: TransferInput, body: unknown, conflictOnReplay: boolean): { record: TransferRecord; replay: boolean } {
    const id = input.transferId;
    this.requests.set(id, (this.requests.get(id) ?? 0) + 1);
    const fingerprint = canonicalJson(body);
    const known = this.transfers.get(id);
    if (known) {
      if (known.fingerprint !== fingerprint || conflictOnReplay) throw transferExists(id);
      return { record: known, replay: true };
    }
    const vpa = this.resolveVpa(input);
    let plan: Plan = input.mode === 'upi' ? planFor(vpa) : 'mode_mismatch';
    const debit = plan !== 'mode_mismatch';
    if (debit && input.amountPaise > this.balance) plan = 'low_balance';
    const now = isoNow();
    const rec: TransferRecord = {
      transfer: {
        transfer_id: id,
        cf_transfer_id: this.newCfId(),
        ...STAGES.received,
        beneficiary_details: { ...(input.beneficiaryId ? { beneficiary_id: input.beneficiaryId } : {}), beneficiary_instrument_details: { vpa } },
        transfer_amount: input.amount,
        transfer_mode: echoMode(input.mode),
        fundsource_id: input.fundsourceId,
        added_on: now,
        updated_on: now,
      },
      plan,
      fingerprint,
      beneficiaryName: input.beneficiaryName ?? this.beneficiaries.get(input.beneficiaryId ?? '')?.beneficiary_name ?? null,
      remarks: input.remarks,
      amountPaise: input.amountPaise,
      debited: false,
      generation: 0,
      apiVersion: null,
      history: [{ status: 'RECEIVED', status_code: 'RECEIVED', at: now }],
    };
    if (plan !== 'low_balance' && plan !== 'mode_mismatch') {
      this.balance -= input.amountPaise;
      rec.debited = true;
    }
    this.transfers.set(id, rec);
    this.byCfId.set(rec.transfer.cf_transfer_id, id);
    this.schedule(rec, PLANS[plan]);
    return { record: rec, replay: false };
  }

  /** [P] the mismatch text; [G] an unknown beneficiary_id is beneficiary_id_invalid. */
  private resolveVpa(input: TransferInput): string {
    if (!input.beneficiaryId) return input.vpa!;
    const bene = this.beneficiaries.get(input.beneficiaryId);
    if (!bene) throw invalid('beneficiary_details.beneficiary_id_invalid', `beneficiary_id ${input.beneficiaryId} does not exist`);
    if (input.vpa && input.vpa !== bene.vpa) {
      throw invalid('beneficiary_details.beneficiary_instrument_details.vpa_invalid', `Vpa passed in the request does not match with the beneficiary with beneficiary_id :: ${bene.beneficiary_id}`);
    }
    return bene.vpa;
  }

  private newCfId(): string {
    for (;;) {
      const id = String(1 + Number(randomDigits(1)) % 9) + randomDigits(7);
      if (!this.byCfId.has(id)) return id;
    }
  }

  /** Runs the stages one pendingMs apart, unless a forced settle has taken over the transfer since. */
  schedule(rec: TransferRecord, stages: readonly StageName[], firstAfterMs = this.o.pendingMs()): void {
    const gen = rec.generation;
    let delay = firstAfterMs;
    for (const name of stages) {
      this.o.later(delay, () => {
        if (rec.generation === gen) this.enter(rec, STAGES[name]);
      });
      delay += this.o.pendingMs();
    }
  }

  private enter(rec: TransferRecord, stage: Stage, overrides: { status_code?: string; status_description?: string } = {}): void {
    const t = rec.transfer;
    t.status = stage.status;
    t.status_code = overrides.status_code ?? stage.status_code;
    t.status_description = overrides.status_description ?? stage.status_description;
    t.updated_on = isoNow();
    if (stage.status === 'SUCCESS' && !t.transfer_utr) {
      // [P] the UPI sample's utr is 16 digits; [G] no service charge or tax on UPI transfers
      t.transfer_utr = randomDigits(16);
      t.transfer_service_charge = 0;
      t.transfer_service_tax = 0;
    }
    if (rec.debited && REFUNDS.has(stage.status)) {
      this.balance += rec.amountPaise;
      rec.debited = false;
    }
    rec.history.push({ status: t.status, status_code: t.status_code, at: t.updated_on });
    this.o.onChange(rec, stage);
  }

  /** [P] status by either id; [G] both given must name the same transfer, else 404. */
  find(q: { transferId?: string; cfTransferId?: string }): TransferRecord {
    const byCf = q.cfTransferId === undefined ? undefined : this.byCfId.get(q.cfTransferId);
    const id = q.transferId ?? byCf;
    const rec = id === undefined ? undefined : this.transfers.get(id);
    if (!rec || (q.cfTransferId !== undefined && rec.transfer.cf_transfer_id !== q.cfTransferId)) throw transferNotFound(q.transferId === undefined ? 'cf_transfer_id' : 'transfer_id');
    return rec;
  }

  /**
   * Admin: force an outcome now. SUCCESS runs SENT_TO_BENEFICIARY then (after pendingMs) COMPLETED; FAILED,
   * REJECTED from a transfer not yet SUCCESS; REVERSED only from SUCCESS. Returns an error text otherwise.
   */
  force(transferId: string, status: 'SUCCESS' | 'FAILED' | 'REJECTED' | 'REVERSED', overrides: { status_code?: string; status_description?: string }): TransferRecord | string {
    const rec = this.transfers.get(transferId);
    if (!rec) return 'unknown transfer';
    const now = rec.transfer.status;
    const ok = status === 'REVERSED' ? now === 'SUCCESS' : now !== 'SUCCESS' && !TERMINAL.has(now);
    if (!ok) return `cannot move a ${now} transfer to ${status}`;
    rec.generation++;
    const stage = { SUCCESS: STAGES.sent, FAILED: STAGES.bankFail, REJECTED: STAGES.blacklisted, REVERSED: STAGES.reversed }[status];
    this.enter(rec, stage, overrides);
    if (status === 'SUCCESS') this.schedule(rec, ['completed']);
    return rec;
  }

  /** Admin: set the fund source balance (paise). Transfers already accepted are not revisited. */
  setBalance(paise: number): void {
    this.balance = paise;
  }
}
