// Owns identifiers and secrets made of random base62 characters (uniform: rejection sampling).
import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < 248 && out.length < length) out += ALPHABET[b % 62];
    }
  }
  return out;
}

export const newId = (prefix: string, length = 20) => `${prefix}_${randomBase62(length)}`;

/** Decimal digits, e.g. for UTR / RRN style references. */
export function randomDigits(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) if (b < 250 && out.length < length) out += String(b % 10);
  }
  return out;
}
