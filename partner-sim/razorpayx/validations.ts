// Owns the emulator's fund account validations of VPAs and bank accounts (PARTNERS.md §9.1): the
// `fund_account.validation` entity, its `created` → `completed` life after `validationMs` (0: `completed`
// in the create answer, as the current VPA page's sample shows), the listing under the Lite identifier,
// and the verdict. Verdicts are deterministic:
//   - a VPA's holder follows the sandbox's rule (shared/people.ts: `ramesh.kumar@okaxis` is held by
//     "Ramesh Kumar"), so a tester can make a name match or not; a local part starting `invalid` (or
//     `novpa`) is `account_status: invalid` with no name; `favfail` ends `failed` (a technical failure);
//     `favslow` stays `created` for `slowValidationMs` before its verdict (a pending, then the webhook);
//   - a bank account's holder is a made-up person seeded by IFSC and number, at the bank the IFSC
//     directory names (shared/ifsc.ts); the penny drop carries a 12-digit UTR. An account number ending
//     `000` is invalid (no UTR: nothing was credited), `999` fails, `888` is slow, as above.
import { bankNameOf } from '../../shared/ifsc.js';
import { person, vpaHolderName } from '../../shared/people.js';
import { SeededRandom } from '../../shared/random.js';
import { unknownId } from './errors.js';
import { newRzpId, newUtr, unixNow, type BankFundAccount, type FundAccount } from './entities.js';

export interface ValidationResults {
  account_status: 'active' | 'invalid' | '' | null;
  registered_name: string | null;
  details: string | null;
  name_match_score: number | null;
  validated_account_type: 'vpa' | 'bank_account' | null;
  /** [P] the account validated (for a VPA, the account behind it; its number masked). */
  bank_account?: { bank_routing_code: string; account_number: string; bank_name: string | null; account_type: string };
}

export interface Validation {
  id: string;
  entity: 'fund_account.validation';
  fund_account: FundAccount | BankFundAccount;
  status: 'created' | 'completed' | 'failed';
  /** [P] the penny drop's paise for a bank account (100 by default); null for a VPA. */
  amount: number | null;
  currency: 'INR' | null;
  notes: Record<string, string>;
  /** [P] `results` in the entity/fetch/webhook samples; the create answer repeats it as `validation_results`. */
  results: ValidationResults;
  status_details: { description: string; source: string; reason: string };
  reference_id: string | null;
  created_at: number;
  /** [P] the penny drop's UTR once completed ("a UTR number … for every successful Fund Account Validation"). */
  utr: string | null;
}

export interface ValidationInput {
  fundAccount: FundAccount | BankFundAccount;
  reference_id: string | null;
  notes: Record<string, string>;
}

type Verdict = { status: 'completed' | 'failed'; results: ValidationResults; details: Validation['status_details']; utr: string | null };
type Steer = 'active' | 'invalid' | 'failed' | 'slow';

const WAITING: ValidationResults = { account_status: null, registered_name: null, details: null, name_match_score: null, validated_account_type: null };
const COMPLETED = { description: 'Validation request is completed', source: 'beneficiary_bank', reason: 'validation_completed' };
const FAILED: Verdict = {
  status: 'failed',
  results: { account_status: '', registered_name: '', details: null, name_match_score: null, validated_account_type: null },
  details: { description: 'Validation failed due to a technical error at the beneficiary bank', source: 'beneficiary_bank', reason: 'validation_failed' },
  utr: null,
};

/** What the magic inputs of the module header ask for. */
function steerOf(fa: FundAccount | BankFundAccount): Steer {
  if (fa.account_type === 'bank_account') {
    const tail = fa.bank_account.account_number.slice(-3);
    return tail === '000' ? 'invalid' : tail === '999' ? 'failed' : tail === '888' ? 'slow' : 'active';
  }
  const local = fa.vpa.address.split('@')[0]!.toLowerCase();
  if (local.startsWith('favfail')) return 'failed';
  if (local.startsWith('invalid') || local.startsWith('novpa')) return 'invalid';
  return local.startsWith('favslow') ? 'slow' : 'active';
}

/** The account behind a VPA: a branch of a bank seeded by the VPA, its number masked as in the current VPA sample. */
function accountBehind(address: string): NonNullable<ValidationResults['bank_account']> {
  const r = new SeededRandom(`vpa-account:${address.toLowerCase()}`);
  const ifsc = r.pick(['HDFC0000053', 'ICIC0000047', 'SBIN0000691', 'UTIB0000004']);
  return { bank_routing_code: ifsc, account_number: `XXXXXXXX${String(1000 + r.int(9000))}`, bank_name: bankNameOf(ifsc), account_type: 'savings' };
}

/** The verdict the bank gives (see the module header). */
function verdictFor(fa: FundAccount | BankFundAccount): Verdict {
  const steer = steerOf(fa);
  if (steer === 'failed') return FAILED;
  const type = fa.account_type;
  if (steer === 'invalid') {
    return { status: 'completed', results: { account_status: 'invalid', registered_name: null, details: 'The beneficiary account is invalid', name_match_score: null, validated_account_type: type }, details: COMPLETED, utr: null };
  }
  const found = fa.account_type === 'bank_account'
    ? { name: person(`account:${fa.bank_account.ifsc}:${fa.bank_account.account_number}`).name, account: { bank_routing_code: fa.bank_account.ifsc, account_number: fa.bank_account.account_number, bank_name: fa.bank_account.bank_name, account_type: 'savings' } }
    : { name: vpaHolderName(fa.vpa.address), account: accountBehind(fa.vpa.address) };
  const results: ValidationResults = { account_status: 'active', registered_name: found.name, details: 'The beneficiary account is valid', name_match_score: null, validated_account_type: type, bank_account: found.account };
  return { status: 'completed', results, details: COMPLETED, utr: type === 'bank_account' ? newUtr() : null };
}

export class ValidationBook {
  readonly validations = new Map<string, Validation>();

  constructor(
    private readonly o: {
      validationMs: () => number;
      /** How long a `favslow` / `…888` validation stays `created`. */
      slowValidationMs: () => number;
      later: (ms: number, fn: () => void) => void;
      /** Called when a validation reaches its verdict (the webhook). */
      onFinal: (v: Validation) => void;
    },
  ) {}

  create(input: ValidationInput): Validation {
    const bank = input.fundAccount.account_type === 'bank_account';
    const v: Validation = {
      id: newRzpId('fav'),
      entity: 'fund_account.validation',
      fund_account: input.fundAccount,
      status: 'created',
      amount: bank ? 100 : null,
      currency: bank ? 'INR' : null,
      notes: input.notes,
      results: { ...WAITING },
      status_details: { description: 'Validation request is created', source: 'internal', reason: 'validation_request_created' },
      reference_id: input.reference_id,
      created_at: unixNow(),
      utr: null,
    };
    this.validations.set(v.id, v);
    const ms = this.waitFor(v);
    if (ms <= 0) this.finish(v);
    else this.o.later(ms, () => this.finish(v));
    return v;
  }

  /** How long a validation stays `created` (books.ts waits as long again after a restart). */
  waitFor(v: Validation): number {
    return steerOf(v.fund_account) === 'slow' ? this.o.slowValidationMs() : this.o.validationMs();
  }

  get(id: string): Validation {
    const v = this.validations.get(id);
    if (!v) throw unknownId('id');
    return v;
  }

  /** [P §9.1] `GET /v1/fund_accounts/validations?account_number=` with `count` ≤ 100 (default 10), `skip`; newest first. */
  list(count: number, skip: number): { entity: 'collection'; count: number; items: Validation[] } {
    const items = [...this.validations.values()].reverse().slice(skip, skip + count);
    return { entity: 'collection', count: items.length, items };
  }

  /** The verdict (also books.ts's, for a validation a restart interrupted). */
  finish(v: Validation): void {
    const { status, results, details, utr } = verdictFor(v.fund_account);
    Object.assign(v, { status, results, status_details: details, utr });
    this.o.onFinal(v);
  }
}

/** A validation as the create answer shows it: the results under `validation_results` too [P §9.1]. */
export const createView = (v: Validation) => ({ ...structuredClone(v), validation_results: structuredClone(v.results) });
