// Owns canonical JSON: the same value always gives the same text, whether it comes from a request,
// from memory or back from a jsonb column. The audit chain, the idempotency request hash and the
// export's proofs all hash this text, so it never changes. It is what JSON.stringify writes for a copy
// of the value whose objects got their keys in sorted order (UTF-16 code units); since JavaScript
// always lists integer-like keys ("0", "17") first, in numeric order, those come first
// (docs/AUDIT-EXPORT.md spells this out for verifiers of their own). safe-stable-stringify (pino's
// serializer) writes that text in one pass, about twice as fast as copying and stringifying;
// test/canonical.test.ts holds it to the formula above.
import { configure } from 'safe-stable-stringify';

/** An array index as JavaScript orders keys: a canonical integer from 0 to 2^32 - 2. */
const isIndex = (k: string): boolean => {
  const c = k.charCodeAt(0);
  return c >= 48 && c <= 57 && (k === '0' || (c !== 48 && /^\d+$/.test(k) && Number(k) < 4294967295));
};

/** Integer-like keys first, by value; then the rest by UTF-16 code units. */
function keyOrder(a: string, b: string): number {
  const ia = isIndex(a);
  const ib = isIndex(b);
  if (ia || ib) return ia && ib ? Number(a) - Number(b) : ia ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

const stringify = configure({ deterministic: keyOrder, bigint: false, circularValue: TypeError });

export function canonicalJson(value: unknown): string {
  return stringify(value) ?? 'null';
}
