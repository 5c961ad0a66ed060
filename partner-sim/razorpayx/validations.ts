// Owns the emulator's fund account validations of VPAs (PARTNERS.md §9.1): the `fund_account.validation`
// entity, its `created` → `completed` life after `validationMs` (0: `completed` in the create answer, as
// the current VPA page's sample shows), and the verdict for a VPA. The verdict follows the sandbox's
// rule for holders (shared/people.ts: `ramesh.kumar@okaxis` is held by "Ramesh Kumar"), so
// a tester can make a name match or not; a local part starting `invalid` (or `novpa`) is
// `account_status: invalid` with no name; one starting `favfail` ends `failed` (a technical failure).
import { vpaHolderName } from '../../shared/people.js';
import { unknownId } from './errors.js';
import { newRzpId, unixNow, type FundAccount } from './entities.js';

export interface ValidationResults {
  account_status: 'active' | 'invalid' | '' | null;
  registered_name: string | null;
  details: string | null;
  name_match_score: number | null;
  validated_account_type: 'vpa' | null;
}

export interface Validation {
  id: string;
  entity: 'fund_account.validation';
  fund_account: FundAccount;
  status: 'created' | 'completed' | 'failed';
  amount: null;
  currency: null;
  notes: Record<string, string>;
  /** [P] `results` in the entity/fetch/webhook samples; the create answer repeats it as `validation_results`. */
  results: ValidationResults;
  status_details: { description: string; source: string; reason: string };
  reference_id: string | null;
  created_at: number;
  utr: string | null;
}

export interface ValidationInput {
  fundAccount: FundAccount;
  reference_id: string | null;
  notes: Record<string, string>;
}

const WAITING: ValidationResults = { account_status: null, registered_name: null, details: null, name_match_score: null, validated_account_type: null };

/** The verdict the bank gives for a VPA (see the module header). */
function verdictFor(address: string): { status: 'completed' | 'failed'; results: ValidationResults; details: Validation['status_details'] } {
  const local = address.split('@')[0]!.toLowerCase();
  if (local.startsWith('favfail')) {
    return {
      status: 'failed',
      results: { account_status: '', registered_name: '', details: null, name_match_score: null, validated_account_type: null },
      details: { description: 'Validation failed due to a technical error at the beneficiary bank', source: 'beneficiary_bank', reason: 'validation_failed' },
    };
  }
  const completed = { description: 'Validation request is completed', source: 'beneficiary_bank', reason: 'validation_completed' };
  if (local.startsWith('invalid') || local.startsWith('novpa')) {
    return { status: 'completed', results: { account_status: 'invalid', registered_name: null, details: 'The beneficiary account is invalid', name_match_score: null, validated_account_type: 'vpa' }, details: completed };
  }
  const results: ValidationResults = { account_status: 'active', registered_name: vpaHolderName(address), details: 'The beneficiary account is valid', name_match_score: null, validated_account_type: 'vpa' };
  return { status: 'completed', results, details: completed };
}

export class ValidationBook {
  readonly validations = new Map<string, Validation>();

  constructor(
    private readonly o: {
      validationMs: () => number;
      later: (ms: number, fn: () => void) => void;
      /** Called when a validation reaches its verdict (the webhook). */
      onFinal: (v: Validation) => void;
    },
  ) {}

  create(input: ValidationInput): Validation {
    const v: Validation = {
      id: newRzpId('fav'),
      entity: 'fund_account.validation',
      fund_account: input.fundAccount,
      status: 'created',
      amount: null,
      currency: null,
      notes: input.notes,
      results: { ...WAITING },
      status_details: { description: 'Validation request is created', source: 'internal', reason: 'validation_request_created' },
      reference_id: input.reference_id,
      created_at: unixNow(),
      utr: null,
    };
    this.validations.set(v.id, v);
    const ms = this.o.validationMs();
    if (ms <= 0) this.finish(v);
    else this.o.later(ms, () => this.finish(v));
    return v;
  }

  get(id: string): Validation {
    const v = this.validations.get(id);
    if (!v) throw unknownId('id');
    return v;
  }

  /** The verdict (also books.ts's, for a validation a restart interrupted). */
  finish(v: Validation): void {
    const { status, results, details } = verdictFor(v.fund_account.vpa.address);
    Object.assign(v, { status, results, status_details: details });
    this.o.onFinal(v);
  }
}

/** A validation as the create answer shows it: the results under `validation_results` too [P §9.1]. */
export const createView = (v: Validation) => ({ ...structuredClone(v), validation_results: structuredClone(v.results) });
