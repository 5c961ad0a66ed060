// Owns the emulator's telecom catalogue in Setu's own vocabulary (PARTNERS.md §4.2): the operator ids
// (`jio` `airtel` `vi` `bsnl` `mtnl`), the exact circle strings, the deterministic mobile → operator/circle
// lookup, and the plans per operator and circle. `mtnl` and the `Uttaranchal` circle are deliberately in the
// catalogue: a Sangam connector has no code for them, so they exercise its "unmapped → clear failure" path.
//
// Lookup rule (digits d0…d9 of the 10-digit number; the last four, d6…d9, are left to the outcome magic):
//   series 9868 → mtnl / Delhi, series 9869 → mtnl / Mumbai
//   otherwise operator by d1: 0–3 jio, 4–6 airtel, 7–8 vi, 9 bsnl;  circle = CIRCLES[(d2d3 as a number) % 24]
//   d4 = 9 → ported: previous_operator is the one above, current_operator is PORTED_TO[it], same circle
// e.g. 9876543210 → vi / Maharashtra, 9823012345 → vi / Uttaranchal, 9868012345 → mtnl / Delhi,
//      9876943210 → jio (ported from vi) / Maharashtra.

export const OPERATORS = ['jio', 'airtel', 'vi', 'bsnl', 'mtnl'] as const;
export type Operator = (typeof OPERATORS)[number];

/** [G] display names: the payment webhook sample says `"provider": "Airtel"` where the API says `airtel`. */
export const DISPLAY_NAME: Readonly<Record<Operator, string>> = { jio: 'Jio', airtel: 'Airtel', vi: 'Vi', bsnl: 'BSNL', mtnl: 'MTNL' };

/** [P] the 24 real circles, in the documented order; `All` and `IND` are the documented pseudo-circles. */
export const CIRCLES = [
  'Kolkata', 'Mumbai', 'Delhi', 'Chennai', 'Maharashtra', 'Gujarat', 'Andhra Pradesh', 'Karnataka', 'Tamil Nadu', 'Kerala',
  'Punjab', 'Haryana', 'Uttar Pradesh (East)', 'Uttar Pradesh (West)', 'Madhya Pradesh', 'Rajasthan', 'West Bengal & AN Island',
  'Orissa', 'Himachal Pradesh', 'Bihar & Jharkhand', 'Assam', 'NorthEast', 'J&K', 'Uttaranchal',
] as const;
export const LOCATIONS: ReadonlySet<string> = new Set<string>([...CIRCLES, 'All', 'IND']);

const MTNL_SERIES: Readonly<Record<string, string>> = { '9868': 'Delhi', '9869': 'Mumbai' };
const PORTED_TO: Readonly<Record<Operator, Operator>> = { jio: 'airtel', airtel: 'vi', vi: 'jio', bsnl: 'jio', mtnl: 'airtel' };

export interface OperatorDetails {
  mobile_number: string;
  current_operator: Operator;
  current_location: string;
  previous_operator: Operator | 'None';
  previous_location: string;
  ported: boolean;
}

function homeOperator(d1: number): Operator {
  return d1 <= 3 ? 'jio' : d1 <= 6 ? 'airtel' : d1 <= 8 ? 'vi' : 'bsnl';
}

export function lookup(mobile: string): OperatorDetails {
  const series = mobile.slice(0, 4);
  const home: Operator = MTNL_SERIES[series] ? 'mtnl' : homeOperator(Number(mobile[1]));
  const circle = MTNL_SERIES[series] ?? CIRCLES[Number(mobile.slice(2, 4)) % CIRCLES.length]!;
  const ported = mobile[4] === '9';
  return {
    mobile_number: mobile,
    current_operator: ported ? PORTED_TO[home] : home,
    current_location: circle,
    // [P] `None` when never ported; [G] previous_location is also `None` then.
    previous_operator: ported ? home : 'None',
    previous_location: ported ? circle : 'None',
    ported,
  };
}

/** [P] the field names of the plan sample; amounts in paise ([G] — the sample's ₹10 voucher is 1000). */
export interface Plan {
  amount: number;
  plan_name: string;
  plan_description: string;
  talktime: string;
  validity: string;
  service_provider: string;
}

type P = [rupees: number, planName: string, description: string, talktime: string, validity: string];
const TALKTIME = 'Talktime (top up voucher)';
const STV = 'Special Tariff Voucher';

const BASE: Readonly<Record<Operator, readonly P[]>> = {
  airtel: [
    [10, TALKTIME, 'Talktime : Rs 7.47', '7.47', 'NA'],
    [20, TALKTIME, 'Talktime : Rs 14.95', '14.95', 'NA'],
    [19, 'Data', '1GB data for 1 day', '0', '1 Day'],
    [58, 'Data', '3GB data, valid till your existing pack', '0', 'Existing Plan'],
    [199, 'Unlimited', 'Unlimited calls, 2GB total data, 300 SMS', '0', '28 Days'],
    [299, 'Unlimited', 'Unlimited calls, 1.5GB/day, 100 SMS/day', '0', '28 Days'],
    [719, 'Unlimited', 'Unlimited calls, 1.5GB/day, 100 SMS/day', '0', '84 Days'],
  ],
  jio: [
    [10, TALKTIME, 'Talktime : Rs 7.47', '7.47', 'NA'],
    [15, 'Data', '1GB data add-on', '0', 'Existing Plan'],
    [189, 'Unlimited', 'Unlimited voice, 2GB total data, 300 SMS', '0', '28 Days'],
    [299, 'Unlimited', 'Unlimited voice, 1.5GB/day, 100 SMS/day', '0', '28 Days'],
    [349, 'Unlimited', 'Unlimited voice, 2GB/day, unlimited 5G data', '0', '28 Days'],
    [889, 'Unlimited', 'Unlimited voice, 1.5GB/day, 100 SMS/day', '0', '84 Days'],
  ],
  vi: [
    [10, TALKTIME, 'Talktime : Rs 7.47', '7.47', 'NA'],
    [48, 'Data', '6GB data for 3 days', '0', '3 Days'],
    [199, 'Unlimited', 'Unlimited calls, 2GB/day for 18 days', '0', '18 Days'],
    [299, 'Unlimited', 'Unlimited calls, 1GB/day, 100 SMS/day', '0', '28 Days'],
    [859, 'Unlimited', 'Unlimited calls, 1.5GB/day, 100 SMS/day', '0', '84 Days'],
  ],
  bsnl: [
    [10, TALKTIME, 'Talktime : Rs 7.47', '7.47', 'NA'],
    [50, TALKTIME, 'Talktime : Rs 39.37', '39.37', 'NA'],
    [107, STV, '200 minutes, 3GB data, 35 days validity', '0', '35 Days'],
    [197, STV, '2GB/day for 15 days, unlimited calls for 15 days', '0', '70 Days'],
    [397, STV, 'Unlimited calls and 2GB/day for 30 days', '0', '150 Days'],
  ],
  mtnl: [
    [10, TALKTIME, 'Talktime : Rs 7.47', '7.47', 'NA'],
    [97, STV, '1GB/day and 100 minutes/day', '0', '15 Days'],
    [297, STV, 'Unlimited calls, 1GB/day', '0', '30 Days'],
  ],
};

/** Operators whose plans vary by circle carry one extra circle plan each ([G] amounts chosen to differ per circle). */
function circlePlan(op: Operator, location: string): P | undefined {
  const i = (CIRCLES as readonly string[]).indexOf(location);
  if (i < 0 || op === 'jio' || op === 'mtnl') return undefined;
  const kind = op === 'bsnl' ? STV : 'Unlimited';
  return [151 + 2 * i, kind, `${location} special: unlimited calls, 1GB/day, 100 SMS/day`, '0', '24 Days'];
}

export function plansFor(op: Operator, location: string): Plan[] {
  const extra = circlePlan(op, location);
  const rows = extra ? [...BASE[op], extra] : BASE[op];
  return rows.map(([rupees, plan_name, plan_description, talktime, validity]) => ({
    amount: rupees * 100,
    plan_name,
    plan_description,
    talktime,
    validity,
    service_provider: `${DISPLAY_NAME[op]} Prepaid`,
  }));
}

/** [G] `details.is_special`: true when the amount is one of the operator's Special Tariff Vouchers in that circle. */
export function isSpecial(op: Operator, location: string, amountPaise: number): boolean {
  return plansFor(op, location).some((p) => p.plan_name === STV && p.amount === amountPaise);
}
