// Owns the DTH catalogue of the BBPS emulator: billers of category `DTH` in the shape of Setu's own
// OpenAPI (docs/partners/setu-dth/: `customerParams[].paramName`, the required biller fields, and
// `planRequirement`), their plans (`GET /api/v2/bbps/billers/plans`, plan-mdm-integration.mdx: `Id`,
// `amountInRupees`, …), and the deterministic subscriber behind a subscriber number. The values (ids,
// limits, which biller is plan-mandatory) are [G]. Sun Direct is plan-mandatory, as Setu's guide shows it
// ("Sun Direct TV: Subscriber Number → channel packages"). `Independent TV` is a biller Sangam has no code
// for, to exercise a connector's "unmapped → clear failure".

/** [P] a biller's customer parameter (every field required by the OpenAPI). */
export interface CustomerParam {
  paramName: string;
  dataType: 'NUMERIC' | 'ALPHANUMERIC';
  minLength: number;
  maxLength: number;
  regex: string;
  optional: boolean;
  values: string;
  visibility: boolean;
}

export interface Biller {
  id: string;
  name: string;
  categoryName: 'DTH';
  coverage: 'IND';
  exactness: 'Any';
  fetchApiType: 'BILL_VALIDATE';
  payWithoutFetchAllowed: false;
  supportsPendingStatus: true;
  planRequirement: 'MANDATORY' | 'OPTIONAL';
  status: 'ACTIVE';
  paymentChannels: Array<{ paymentChannel: string; minLimit: number; maxLimit: number; supportsPendingStatus: boolean }>;
  paymentModes: Array<{ paymentMode: string; minLimit: number; maxLimit: number; supportsPendingStatus: boolean }>;
  customerParams: CustomerParam[];
}

const param = (paramName: string, min: number, max: number): CustomerParam => ({
  paramName,
  dataType: 'NUMERIC',
  minLength: min,
  maxLength: max,
  regex: `^[0-9]{${min},${max}}$`,
  optional: false,
  values: '',
  visibility: true,
});

const limits = { minLimit: 100, maxLimit: 5_000_000, supportsPendingStatus: true };

const biller = (id: string, name: string, p: CustomerParam, planRequirement: Biller['planRequirement'] = 'OPTIONAL'): Biller => ({
  id,
  name,
  categoryName: 'DTH',
  coverage: 'IND',
  exactness: 'Any',
  // [P] DTH is a Bill Validation → Payment biller (quickstart.mdx §1.1): a fetch (validation) precedes every payment.
  fetchApiType: 'BILL_VALIDATE',
  payWithoutFetchAllowed: false,
  supportsPendingStatus: true,
  planRequirement,
  status: 'ACTIVE',
  paymentChannels: ['INT', 'INTB', 'MOB', 'MOBB', 'AGT'].map((paymentChannel) => ({ paymentChannel, ...limits })),
  paymentModes: ['Wallet', 'UPI', 'Internet Banking', 'Debit Card', 'Account Transfer'].map((paymentMode) => ({ paymentMode, ...limits })),
  customerParams: [p],
});

/** BBPS-style 14-character biller ids. */
export const BILLERS: readonly Biller[] = [
  biller('AIRTELDTH0NAT1', 'Airtel Digital TV', param('Customer ID', 10, 10)),
  biller('DISHTV0000NAT1', 'Dish TV', param('Registered Mobile Number / Viewing Card Number', 10, 11)),
  biller('SUNDIRECT0NAT1', 'Sun Direct', param('Smart Card Number', 10, 11), 'MANDATORY'),
  biller('TATAPLAY00NAT1', 'Tata Play', param('Subscriber Number', 10, 10)),
  biller('VIDEOCON00NAT1', 'Videocon d2h', param('Customer ID', 6, 12)),
  biller('INDEPTV000NAT1', 'Independent TV', param('Customer ID', 10, 10)),
];

export const billerById = (id: string): Biller | undefined => BILLERS.find((b) => b.id === id);

export interface DthPlan {
  id: string;
  name: string;
  amount: number;
  description: string;
  validity: string;
  category: 'Base Pack' | 'Add-on' | 'Long Term';
  status: 'ACTIVE';
}

type Row = [rupees: number, name: string, description: string, validity: string, category: DthPlan['category']];
const COMMON: readonly Row[] = [
  [199, 'Hindi Value Pack', '200+ SD channels including Hindi GEC, movies and news', '1 Month', 'Base Pack'],
  [299, 'Hindi Family HD', '250+ channels with 40 HD, Hindi GEC, kids and movies', '1 Month', 'Base Pack'],
  [249, 'South Value Pack', '220+ SD channels with Tamil, Telugu, Kannada and Malayalam GEC', '1 Month', 'Base Pack'],
  [59, 'Sports Add-on', 'All sports channels in SD', '1 Month', 'Add-on'],
  [2149, 'Hindi Value Pack (12 months)', 'Hindi Value Pack for 12 months plus 1 month free', '13 Months', 'Long Term'],
];

/** [P] a plan as GET /api/v2/bbps/billers/plans answers it (plan-mdm-integration.mdx §4.2.3). */
export function planView(b: Biller, p: DthPlan): Record<string, unknown> {
  return {
    Id: p.id,
    billerId: b.id,
    amountInRupees: String(p.amount / 100),
    categoryType: p.category.replace(/[^A-Za-z0-9]/g, '').toUpperCase(),
    description: `${p.name}: ${p.description}`,
    effectiveFrom: null,
    effectiveTo: null,
    status: p.status,
    additionalInfo: [
      { paramName: 'Package Details', paramValue: p.name },
      { paramName: 'Validity', paramValue: p.validity },
    ],
  };
}

export function plansFor(b: Biller): DthPlan[] {
  const prefix = b.id.slice(0, 4);
  // [G] a little variation per biller so plans are not interchangeable across billers
  const bump = BILLERS.indexOf(b);
  return COMMON.map(([rupees, name, description, validity, category], i) => ({
    id: `${prefix}PLN${String(i + 1).padStart(3, '0')}`,
    name,
    amount: (rupees + (category === 'Add-on' ? 0 : bump)) * 100,
    description,
    validity,
    category,
    status: 'ACTIVE',
  }));
}

const NAMES = ['Ramesh Kumar', 'Priya Nair', 'Arjun Reddy', 'Fatima Shaikh', 'Suresh Iyer', 'Kavita Joshi', 'Manpreet Singh', 'Anita Das', 'Vikram Rao', 'Lakshmi Menon'];

export interface Subscriber {
  customerName: string;
  plan: DthPlan;
  balancePaise: number;
  nextRechargeDate: string;
}

/** Deterministic for a subscriber number: name by its first digit, base pack by its second, balance by digits 3–5. */
export function subscriberFor(b: Biller, number: string): Subscriber {
  const base = plansFor(b).filter((p) => p.category === 'Base Pack');
  const plan = base[Number(number[1]) % base.length]!;
  const balancePaise = (Number(number.slice(2, 5)) % 400) * 100 + 50;
  const days = Math.floor(balancePaise / (plan.amount / 30));
  const next = new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
  return { customerName: NAMES[Number(number[0])]!, plan, balancePaise, nextRechargeDate: next };
}
