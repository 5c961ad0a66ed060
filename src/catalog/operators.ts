// Owns the operator and circle codes of CONTRACT §3 and the commission each operator pays, in basis
// points of the recharge amount (100 bp = 1%). Served by the operator listing endpoints.
export interface Operator {
  code: string;
  name: string;
  commission_bp: number;
}

export const MOBILE_OPERATORS: readonly Operator[] = [
  { code: 'AT', name: 'Airtel', commission_bp: 250 },
  { code: 'JIO', name: 'Jio', commission_bp: 200 },
  { code: 'VI', name: 'Vodafone Idea', commission_bp: 300 },
  { code: 'BT', name: 'BSNL Topup', commission_bp: 350 },
  { code: 'BS', name: 'BSNL Special', commission_bp: 350 },
];

export const DTH_OPERATORS: readonly Operator[] = [
  { code: 'AD', name: 'Airtel Digital TV', commission_bp: 300 },
  { code: 'DT', name: 'Dish TV', commission_bp: 350 },
  { code: 'SD', name: 'Sun Direct', commission_bp: 350 },
  { code: 'TS', name: 'Tata Play', commission_bp: 250 },
  { code: 'VD', name: 'Videocon d2h', commission_bp: 350 },
];

export const CIRCLES: ReadonlyArray<{ code: string; name: string }> = [
  { code: 'AP', name: 'Andhra Pradesh' }, { code: 'AS', name: 'Assam' }, { code: 'BR', name: 'Bihar & Jharkhand' },
  { code: 'CH', name: 'Chennai' }, { code: 'DL', name: 'Delhi NCR' }, { code: 'GJ', name: 'Gujarat' },
  { code: 'HR', name: 'Haryana' }, { code: 'HP', name: 'Himachal Pradesh' }, { code: 'JK', name: 'Jammu & Kashmir' },
  { code: 'KA', name: 'Karnataka' }, { code: 'KL', name: 'Kerala' }, { code: 'KO', name: 'Kolkata' },
  { code: 'MP', name: 'Madhya Pradesh & Chhattisgarh' }, { code: 'MH', name: 'Maharashtra & Goa' },
  { code: 'MU', name: 'Mumbai' }, { code: 'NE', name: 'North East' }, { code: 'OR', name: 'Odisha' },
  { code: 'PB', name: 'Punjab' }, { code: 'RJ', name: 'Rajasthan' }, { code: 'TN', name: 'Tamil Nadu' },
  { code: 'UW', name: 'Uttar Pradesh (West)' }, { code: 'UE', name: 'Uttar Pradesh (East)' }, { code: 'WB', name: 'West Bengal' },
];

export const codes = (list: ReadonlyArray<{ code: string }>) => list.map((o) => o.code);

/** Commission in paise, rounded down: the platform never promises a paisa it does not receive. */
export function commissionPaise(list: readonly Operator[], code: string, amountPaise: number): number {
  const op = list.find((o) => o.code === code);
  if (!op) throw new RangeError(`unknown operator ${code}`);
  return Math.floor((amountPaise * op.commission_bp) / 10_000);
}
