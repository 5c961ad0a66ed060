// Owns identifiers and secrets made of random base62 characters (uniform: rejection sampling). Bytes
// come from the CSPRNG in 4 KiB refills rather than one system call per id (as crypto.randomUUID
// does): ids are made on every request.
import { randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const pool = Buffer.alloc(4096);
let offset = pool.length;

function randomByte(): number {
  if (offset === pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  return pool[offset++]!;
}

/** `length` characters drawn from `alphabet`, each uniformly: bytes at or above the last whole multiple are rejected. */
function randomString(alphabet: string, length: number): string {
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < length) {
    const b = randomByte();
    if (b < limit) out += alphabet[b % alphabet.length];
  }
  return out;
}

export const randomBase62 = (length: number) => randomString(ALPHABET, length);

/** `bytes` (at most 4096) random bytes as hex (a salt), from the same pool. */
export function randomHex(bytes: number): string {
  if (offset + bytes > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  offset += bytes;
  return pool.toString('hex', offset - bytes, offset);
}

export const newId = (prefix: string, length = 20) => `${prefix}_${randomBase62(length)}`;

/** Decimal digits, e.g. for UTR / RRN style references. */
export const randomDigits = (length: number) => randomString('0123456789', length);
