// Owns how PostgreSQL values become JavaScript values, identically on both stores.
// bigint columns hold paise and counters: they come back as numbers, and a value beyond 2^53 is an error
// rather than a silent rounding.
export function INT8_PARSER(text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n)) throw new RangeError(`int8 value ${text} is beyond the safe integer range`);
  return n;
}
