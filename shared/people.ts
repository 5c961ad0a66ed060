// Owns the sandbox's made-up people, accounts and addresses; the accounts sit at real bank branches.
// Every value is derived from a seed, so the same input always yields the same identity or account.
// Shared: the partner emulators name a VPA's holder by the same rule (vpaHolderName), so a payout name
// check answers alike in the sandbox and against an emulator.
import { bankNameOf, ownBranchesOf } from './ifsc.js';
import { SeededRandom } from './random.js';

const FIRST_M = ['Aarav', 'Vihaan', 'Arjun', 'Rohan', 'Karthik', 'Siddharth', 'Imran', 'Gurpreet', 'Anil', 'Suresh'];
const FIRST_F = ['Ananya', 'Priya', 'Diya', 'Kavya', 'Meera', 'Fatima', 'Lakshmi', 'Sneha', 'Harpreet', 'Neha'];
const LAST = ['Sharma', 'Iyer', 'Reddy', 'Patel', 'Khan', 'Singh', 'Nair', 'Das', 'Joshi', 'Menon', 'Gupta', 'Banerjee'];
const PLACES = [
  { state: 'Karnataka', dist: 'Bengaluru Urban', pc: '560034', street: '17th Cross, Koramangala' },
  { state: 'Maharashtra', dist: 'Pune', pc: '411004', street: 'Law College Road, Erandwane' },
  { state: 'Tamil Nadu', dist: 'Chennai', pc: '600020', street: '2nd Avenue, Adyar' },
  { state: 'Delhi', dist: 'South Delhi', pc: '110017', street: 'Block C, Malviya Nagar' },
  { state: 'West Bengal', dist: 'Kolkata', pc: '700029', street: 'Rash Behari Avenue, Ballygunge' },
  { state: 'Gujarat', dist: 'Ahmedabad', pc: '380009', street: 'C G Road, Navrangpura' },
  { state: 'Kerala', dist: 'Ernakulam', pc: '682016', street: 'M G Road, Ravipuram' },
  { state: 'Telangana', dist: 'Hyderabad', pc: '500034', street: 'Road No 12, Banjara Hills' },
];
/** Bank codes of the IFSC directory; a sandbox account's bank is picked by the mobile's last digit. */
const BANKS = ['HDFC', 'ICIC', 'SBIN', 'UTIB', 'KKBK', 'PUNB', 'BARB', 'CNRB', 'UBIN', 'IDIB'] as const;

export interface Person {
  name: string;
  gender: 'M' | 'F';
  careOf: string;
  dob: string; // DD-MM-YYYY, as the Aadhaar XML writes it
  address: { Country: string; State: string; Dist: string; Street: string; Pincode: string; House: string };
}

export function person(seed: string): Person {
  const r = new SeededRandom(`person:${seed}`);
  const gender = r.int(2) === 0 ? 'M' : 'F';
  const last = r.pick(LAST);
  const name = `${r.pick(gender === 'M' ? FIRST_M : FIRST_F)} ${last}`;
  const careOf = `${gender === 'M' ? 'S/O' : 'D/O'} ${r.pick(FIRST_M)} ${last}`;
  const dob = `${String(1 + r.int(28)).padStart(2, '0')}-${String(1 + r.int(12)).padStart(2, '0')}-${1960 + r.int(45)}`;
  const p = r.pick(PLACES);
  return {
    name,
    gender,
    careOf,
    dob,
    address: { Country: 'India', State: p.state, Dist: p.dist, Street: p.street, Pincode: p.pc, House: `${1 + r.int(250)}` },
  };
}

/**
 * The account the sandbox says a mobile number is linked to: "91" + the mobile, at a real branch
 * (seeded by the mobile) of the bank picked by its last digit. The directory has no branch names, so
 * `branch` is null rather than made up.
 */
export function linkedAccount(mobile: string) {
  const ifsc = new SeededRandom(`ifsc:${mobile}`).pick(ownBranchesOf(BANKS[Number(mobile.at(-1))]!));
  return {
    account_holder_name: person(`mobile:${mobile}`).name,
    account_number: `91${mobile}`,
    ifsc,
    bank_name: bankNameOf(ifsc),
    branch: null,
  };
}

/** The sandbox's VPAs that do not exist (CONTRACT §7's table, extended for the payout name check). */
export const SANDBOX_NO_SUCH_VPA = 'novpa@sandbox';

/**
 * A sandbox VPA's registered holder: the words of its local part (`ramesh.kumar@okbank` is held by
 * "Ramesh Kumar"), or, where the local part holds no name (`9876543210@upi`, the magic VPAs), a
 * made-up person derived from the VPA. So a tester can make a payout whose name matches, or not.
 */
export function vpaHolderName(vpa: string): string {
  const local = vpa.split('@')[0]!.toLowerCase();
  const words = local.split(/[^a-z]+/).filter((w) => w.length > 1);
  const magic = ['success', 'failure', 'pending', 'pendingfail', 'novpa'].includes(local);
  if (words.length === 0 || magic) return person(`vpa:${vpa.toLowerCase()}`).name;
  return words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join(' ');
}
