// Owns consent receipts: the compact JWS (RFC 7515, alg EdDSA over Ed25519, RFC 8037) Sangam signs
// over a consent record, the deployment's receipt key (generated into server_secrets at first use),
// its public form as a JWKS, and checking a receipt offline. node:crypto only: a receipt is three
// base64url parts, and any JOSE library verifies it (docs/CONSENT.md gives the format).
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type JsonWebKey, type KeyObject } from 'node:crypto';
import type { Db } from '../db/client.js';
import { loadSecret } from '../http/signed-url.js';

const SECRET_NAME = 'consent_receipt_key';
/** The receipt's media type (RFC 7515 `typ`), so a receipt is never mistaken for a login token. */
export const RECEIPT_TYP = 'consent-receipt+jwt';

export interface ReceiptKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
  kid: string;
}

/** First 16 hex characters of the SHA-256 of the public key's SPKI DER (as the audit checkpoints' key id). */
const kidOf = (publicKey: KeyObject) => createHash('sha256').update(publicKey.export({ type: 'spki', format: 'der' })).digest('hex').slice(0, 16);

export async function loadReceiptKey(db: Db): Promise<ReceiptKey> {
  const generate = () => generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64');
  const privateKey = createPrivateKey({ key: Buffer.from(await loadSecret(db, SECRET_NAME, generate), 'base64'), format: 'der', type: 'pkcs8' });
  const publicKey = createPublicKey(privateKey);
  return { privateKey, publicKey, kid: kidOf(publicKey) };
}

export interface PublicJwk extends JsonWebKey {
  kid: string;
  alg: 'EdDSA';
  use: 'sig';
}

/** The receipt key as a JWK Set (RFC 7517): a set, so a rotated key can be published beside the old one. */
export const jwks = (key: { publicKey: KeyObject; kid: string }): { keys: PublicJwk[] } => ({
  keys: [{ ...key.publicKey.export({ format: 'jwk' }), kid: key.kid, alg: 'EdDSA', use: 'sig' }],
});

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

export function signReceipt(key: ReceiptKey, claims: Record<string, unknown>): string {
  const input = `${b64({ alg: 'EdDSA', typ: RECEIPT_TYP, kid: key.kid })}.${b64(claims)}`;
  return `${input}.${sign(null, Buffer.from(input), key.privateKey).toString('base64url')}`;
}

/** SHA-256 of the compact receipt as sent, hex: what enters the audit chain. */
export const receiptHash = (receipt: string) => createHash('sha256').update(receipt).digest('hex');

export type Verdict =
  | { ok: true; header: Record<string, unknown>; claims: Record<string, unknown> }
  | { ok: false; reason: string };

/** Reads a public key from a JWK, a JWKS (picking the receipt's kid), or PEM text. Throws on anything else. */
export function publicKeyFrom(text: string, kid?: string): KeyObject {
  const trimmed = text.trim();
  if (trimmed.startsWith('-----BEGIN')) return createPublicKey(trimmed);
  const doc = JSON.parse(trimmed) as { keys?: JsonWebKey[]; data?: { keys?: JsonWebKey[] } } & JsonWebKey;
  const set = doc.keys ?? doc.data?.keys; // the JWKS, or GET /api/v1/consents/public-key's whole envelope
  const jwk = set ? (set.find((k) => kid !== undefined && (k as { kid?: string }).kid === kid) ?? set[0]) : doc;
  if (!jwk || jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519') throw new Error('not an Ed25519 public key (a JWK, a JWKS or PEM)');
  return createPublicKey({ key: jwk, format: 'jwk' });
}

/**
 * Whether `part` is the one base64url text of its bytes (RFC 7515 §2: no padding, no line breaks).
 * Node's decoder is lenient: it ignores the unused low bits of the last character, so without this
 * check four texts of one signature would verify, each with its own receipt_sha256.
 */
const canonicalBase64url = (part: string) => /^[A-Za-z0-9_-]+$/.test(part) && Buffer.from(part, 'base64url').toString('base64url') === part;

/** Checks a receipt's form and signature with `publicKey`; never throws. */
export function verifyReceipt(receipt: string, publicKey: KeyObject | ((kid: string | undefined) => KeyObject)): Verdict {
  const parts = receipt.trim().split('.');
  if (parts.length !== 3 || parts.some((p) => !/^[A-Za-z0-9_-]+$/.test(p))) return { ok: false, reason: 'not a compact JWS (three base64url parts)' };
  if (!parts.every(canonicalBase64url)) return { ok: false, reason: 'a part is not canonical base64url (RFC 7515: no padding, and the unused bits of its last character must be zero)' };
  let header: Record<string, unknown>;
  let claims: Record<string, unknown>;
  try {
    header = JSON.parse(Buffer.from(parts[0]!, 'base64url').toString('utf8')) as Record<string, unknown>;
    claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    return { ok: false, reason: 'the header or the claims are not JSON' };
  }
  if (header.alg !== 'EdDSA') return { ok: false, reason: `alg must be EdDSA, not ${String(header.alg)}` };
  let key: KeyObject;
  try {
    key = typeof publicKey === 'function' ? publicKey(typeof header.kid === 'string' ? header.kid : undefined) : publicKey;
  } catch (err) {
    return { ok: false, reason: (err as Error).message };
  }
  const good = verify(null, Buffer.from(`${parts[0]}.${parts[1]}`), key, Buffer.from(parts[2]!, 'base64url'));
  return good ? { ok: true, header, claims } : { ok: false, reason: 'the signature does not match: the receipt was changed or signed by another key' };
}
