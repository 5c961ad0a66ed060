// Owns the emulated NPCI side of a penny drop: which bank account a mobile number's UPI id resolves to.
// Every answer is a pure function of the mobile number, so the same number always finds the same
// person, bank, branch and account. IFSC codes and bank names are real (Razorpay's `ifsc` directory via
// shared/ifsc.ts); that directory has no branch details, so branch, address, city, MICR and NBIN are
// made up but stable [G]. Magic numbers steer the outcome (docs/PARTNER-EMULATORS.md).
import { createHash } from 'node:crypto';
import { bankNameOf, ownBranchesOf } from '../../shared/ifsc.js';

export interface LinkedAccount {
  name_at_bank: string;
  bank_account: string;
  ifsc: string;
  vpa: string;
  account_type: 'SAVINGS' | 'CURRENT';
  ifsc_details: IfscDetails;
}

export interface IfscDetails {
  bank: string;
  neft: string;
  imps: string;
  rtgs: string;
  upi: string;
  address: string;
  city: string;
  state: string;
  branch: string;
  category: string;
  swift_code: string;
  micr: number;
  nbin: number;
}

/** What a mobile number leads to. */
export type Plan =
  | { kind: 'valid' }
  /** No UPI id / bank account is linked to the number. */
  | { kind: 'invalid' }
  /** The penny drop stays PENDING for pendingMs, then ends VALID or INVALID. */
  | { kind: 'pending'; then: 'valid' | 'invalid' }
  /** The call fails with the documented 500 every time; nothing is created. */
  | { kind: 'error' };

/** [G] magic numbers; 9000000000 matches the Sangam sandbox's "no account linked" (CONTRACT §7). */
export const MAGIC_MOBILES: Readonly<Record<string, Plan>> = {
  '9000000000': { kind: 'invalid' },
  '9000000001': { kind: 'error' },
  '9000000002': { kind: 'pending', then: 'valid' },
  '9000000003': { kind: 'pending', then: 'invalid' },
};

export const planFor = (mobile: string): Plan => MAGIC_MOBILES[mobile] ?? { kind: 'valid' };

/** Banks a penny drop lands in: bank code, its UPI handle, its account number length. */
const BANKS: ReadonlyArray<readonly [string, string, number]> = [
  ['SBIN', 'sbi', 11],
  ['HDFC', 'hdfcbank', 14],
  ['ICIC', 'icici', 12],
  ['UTIB', 'axisbank', 15],
  ['KKBK', 'kotak', 10],
  ['PUNB', 'pnb', 16],
  ['BARB', 'barodampay', 14],
  ['YESB', 'yesbank', 15],
  ['IDFB', 'idfcbank', 11],
  ['CNRB', 'cnrb', 13],
  ['UBIN', 'unionbank', 15],
  ['INDB', 'indus', 12],
];
const FIRST = ['AARAV', 'ANANYA', 'ARJUN', 'DIVYA', 'FARHAN', 'GEETA', 'HARISH', 'ISHA', 'KARAN', 'LAKSHMI', 'MANOJ', 'NEHA', 'PRIYA', 'RAHUL', 'SANJAY', 'SUNITA'];
const LAST = ['SHARMA', 'IYER', 'REDDY', 'KHAN', 'PATEL', 'NAIR', 'GUPTA', 'DAS', 'SINGH', 'MENON', 'JOSHI', 'BANERJEE'];
const PLACES: ReadonlyArray<readonly [string, string, string]> = [
  ['BANGALORE', 'KARNATAKA', '560098'],
  ['MUMBAI', 'MAHARASHTRA', '400001'],
  ['CHENNAI', 'TAMIL NADU', '600002'],
  ['NEW DELHI', 'DELHI', '110001'],
  ['KOLKATA', 'WEST BENGAL', '700001'],
  ['HYDERABAD', 'TELANGANA', '500001'],
  ['PUNE', 'MAHARASHTRA', '411001'],
  ['AHMEDABAD', 'GUJARAT', '380009'],
  ['JAIPUR', 'RAJASTHAN', '302001'],
  ['LUCKNOW', 'UTTAR PRADESH', '226001'],
];

/** A stream of stable pseudo-random numbers for one seed. */
function picker(seed: string): (n: number) => number {
  let block = createHash('sha256').update(seed).digest();
  let i = 0;
  return (n) => {
    if (i + 4 > block.length) {
      block = createHash('sha256').update(block).digest();
      i = 0;
    }
    const v = block.readUInt32BE(i);
    i += 4;
    return v % n;
  };
}

const digits = (pick: (n: number) => number, len: number) => String(1 + pick(9)) + Array.from({ length: len - 1 }, () => pick(10)).join('');

/** The account linked to `mobile`: same number, same answer, on every run. */
export function linkedAccount(mobile: string): LinkedAccount {
  const pick = picker(`cashfree-penny-drop:${mobile}`);
  const [bank, handle, length] = BANKS[pick(BANKS.length)]!;
  const branches = ownBranchesOf(bank);
  const ifsc = branches[pick(branches.length)]!;
  const [city, state, pin] = PLACES[pick(PLACES.length)]!;
  const branch = `${city} - ${ifsc.slice(5)} BRANCH`;
  return {
    name_at_bank: `${FIRST[pick(FIRST.length)]} ${LAST[pick(LAST.length)]}`,
    bank_account: digits(pick, length),
    ifsc,
    vpa: `${mobile}@${handle}`,
    account_type: pick(8) === 0 ? 'CURRENT' : 'SAVINGS',
    ifsc_details: {
      bank: bankNameOf(ifsc)!,
      neft: 'Live',
      imps: 'Live',
      rtgs: 'Live',
      upi: 'Live',
      address: `${branch}, ${1 + pick(200)} MAIN ROAD, ${city} - ${pin}`,
      city,
      state,
      branch,
      category: 'DIRECT_MEMBER',
      swift_code: `${bank}INBBXXX`,
      micr: Number(`${pin.slice(0, 3)}${bank === 'SBIN' ? '002' : digits(pick, 3)}${digits(pick, 3)}`),
      nbin: 1000 + pick(9000),
    },
  };
}

/** [P] a 12-digit UTR for the one-rupee UPI credit, stable per verification. */
export const utrFor = (verificationId: string, mobile: string): string => digits(picker(`utr:${verificationId}:${mobile}`), 12);
