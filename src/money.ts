// Owns the conversion between the API's INR numbers (at most 2 decimals) and integer paise.
// Conversion happens only at the API edge; everything inside works in paise.
// An INR number is a whole number of paise when it is exactly the double nearest to paise / 100: no
// tolerance, so 5e-324 or 19.990000000001 is never read as 0 or 1999 paise, while 19.99, 0.07 and 1.15
// (not exact in binary) are.

/** `inr` is a whole number of paise: the double nearest to some integer / 100. */
export function isWholePaise(inr: number): boolean {
  const paise = Math.round(inr * 100);
  return Number.isSafeInteger(paise) && paise / 100 === inr;
}

export function inrToPaise(inr: number): number {
  if (!isWholePaise(inr)) throw new RangeError(`not an INR amount: ${inr}`);
  return Math.round(inr * 100);
}

export const paiseToInr = (paise: number): number => paise / 100;
