// Owns the sandbox's recharge pre-flight (CONTRACT §10): a deterministic operator and circle for a
// mobile number (the same answer every time; about one number in ten is ported) and a fixed plan
// catalogue per operator, priced like India's prepaid market in 2026. In our codes. And its DTH
// pre-flight: a subscriber's name (people.ts), current pack, balance and next recharge date, derived from
// the subscriber id (the date counts from today: what the balance still covers); an id ending 0009 is a
// subscriber the biller does not know, as in the BBPS emulator.
import { CIRCLES, MOBILE_OPERATORS } from '../../catalog/operators.js';
import type { DthSubscriber, OperatorLookup, RechargePlan } from '../connector.js';
import { person } from '../../../shared/people.js';
import { SeededRandom } from '../../../shared/random.js';

export function sandboxLookup(mobile: string): OperatorLookup {
  const r = new SeededRandom(`operator-lookup|${mobile}`);
  // BSNL Special is a plan family of BSNL's, not where a number lives: lookups answer BSNL Topup.
  const operator = r.pick(MOBILE_OPERATORS.filter((o) => o.code !== 'BS')).code;
  return { operator, circle: r.pick(CIRCLES).code, ported: r.int(10) === 0 };
}

const days = (n: number) => `${n} days`;
const plan = (inr: number, validity: string, description: string, category: RechargePlan['category']): RechargePlan => ({
  amountPaise: inr * 100,
  validity,
  description,
  category,
});

const PRIVATE: readonly RechargePlan[] = [
  plan(199, days(28), 'Unlimited calls, 1.5 GB/day, 100 SMS/day', 'unlimited'),
  plan(299, days(28), 'Unlimited calls, 2 GB/day, 100 SMS/day', 'unlimited'),
  plan(349, days(28), 'Unlimited calls, 2.5 GB/day, 100 SMS/day', 'unlimited'),
  plan(579, days(56), 'Unlimited calls, 1.5 GB/day, 100 SMS/day', 'unlimited'),
  plan(859, days(84), 'Unlimited calls, 1.5 GB/day, 100 SMS/day', 'unlimited'),
  plan(3599, days(365), 'Unlimited calls, 2.5 GB/day, 100 SMS/day', 'annual'),
  plan(19, '1 day', '1 GB data add-on', 'data'),
  plan(49, '1 day', 'Unlimited data for the day', 'data'),
  plan(77, 'base pack', '5 GB data add-on', 'data'),
  plan(10, 'no expiry', '₹7.47 talktime', 'talktime'),
  plan(100, 'no expiry', '₹81.75 talktime', 'talktime'),
];

const BSNL: readonly RechargePlan[] = [
  plan(107, days(35), '200 minutes, 3 GB', 'unlimited'),
  plan(199, days(30), 'Unlimited calls, 2 GB/day, 100 SMS/day', 'unlimited'),
  plan(397, days(150), 'Unlimited calls for 30 days, 2 GB/day', 'unlimited'),
  plan(1999, days(365), 'Unlimited calls, 600 GB, 100 SMS/day', 'annual'),
  plan(16, '1 day', '2 GB data add-on', 'data'),
  plan(50, 'no expiry', '₹39.37 talktime', 'talktime'),
];

export const sandboxPlans = (operator: string): RechargePlan[] => [...(operator === 'BT' || operator === 'BS' ? BSNL : PRIVATE)];

/** Monthly DTH packs per operator (name, INR a month), priced like 2026's NTO-regulated packs. */
const DTH_PACKS: Readonly<Record<string, ReadonlyArray<readonly [string, number]>>> = {
  AD: [['Hindi Value SD', 299], ['Hindi Entertainment HD', 399], ['Telugu Value SD', 289], ['Mega HD', 549]],
  DT: [['Super Family', 269], ['Titanium HD', 459], ['Tamil Saral', 229], ['Hindi Maxi', 329]],
  SD: [['Tamil Value', 229], ['Telugu Value Plus', 269], ['Kannada Family HD', 349], ['Malayalam Super', 259]],
  TS: [['Hindi Smart', 299], ['Hindi Mega HD', 499], ['Marathi Basic', 259], ['Bangla Value HD', 389]],
  VD: [['Gold Hindi', 279], ['Diamond HD', 469], ['Platinum Sports', 529], ['Silver Tamil', 239]],
};

export function sandboxDthSubscriber(operator: string, subscriberId: string, today = new Date()): DthSubscriber | null {
  if (subscriberId.endsWith('0009')) return null;
  const r = new SeededRandom(`dth-subscriber|${operator}|${subscriberId}`);
  const [pack, monthlyInr] = r.pick(DTH_PACKS[operator] ?? DTH_PACKS.TS!);
  // Anywhere from nothing left to about two months of the pack, in whole rupees and paise.
  const balancePaise = r.int(monthlyInr * 2 * 100);
  const days = Math.floor((balancePaise / (monthlyInr * 100)) * 30);
  return {
    name: person(`dth:${subscriberId}`).name,
    pack,
    balancePaise,
    // The date in India (UTC+05:30), where the subscriber recharges.
    nextRechargeDate: new Date(today.getTime() + 19_800_000 + days * 86_400_000).toISOString().slice(0, 10),
  };
}
