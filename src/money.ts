// Owns the conversion between the API's INR numbers (at most 2 decimals) and integer paise.
// Conversion happens only at the API edge; everything inside works in paise.
export function inrToPaise(inr: number): number {
  const paise = Math.round(inr * 100);
  if (!Number.isSafeInteger(paise) || Math.abs(paise - inr * 100) > 1e-6) throw new RangeError(`not an INR amount: ${inr}`);
  return paise;
}

export const paiseToInr = (paise: number): number => paise / 100;
