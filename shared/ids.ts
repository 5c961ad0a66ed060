// Owns random characters for identifiers and secrets: base62, decimal digits, hex (uniform: rejection
// sampling). Bytes come from the CSPRNG in 4 KiB refills rather than one system call per id (as
// crypto.randomUUID does): ids are made on every request. The server (src/ids.ts) and the partner
// emulators (partner-sim/) both mint theirs here.
import { randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const pool = Buffer.alloc(4096);
let offset = pool.length;

/** Where the next `n` (at most 4096) unused bytes of the pool start, refilling it when fewer are left. */
function reserve(n: number): number {
  if (offset + n > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  offset += n;
  return offset - n;
}

const randomByte = (): number => pool[reserve(1)]!;

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
  const at = reserve(bytes);
  return pool.toString('hex', at, at + bytes);
}

/** Decimal digits, e.g. for UTR / RRN style references. */
export const randomDigits = (length: number) => randomString('0123456789', length);
