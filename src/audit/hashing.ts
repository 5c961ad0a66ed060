// Owns the audit trail's hash formulas, and nothing else: no store, no I/O, only node:crypto and
// canonical JSON, so that the server (chain.ts, checkpoints.ts) and the offline verifier of a
// tenant's export (proof.ts) compute exactly the same thing. docs/AUDIT-EXPORT.md spells each formula
// out for anyone who writes a verifier of their own.
//
// A row (since migration 0013) is two parts:
// - metadata (who, when, what, the outcome), hashed as it is;
// - content (client IP, redacted request and response bodies), which may be erased later, hashed only
//   through a salted commitment: content_hash = SHA-256("sangam-audit-content\n" salt "\n" canonical).
//   The salt (16 random bytes) keeps a short content (an IP, a masked number) from being guessed from
//   the commitment once it is published in an export.
// digest = SHA-256(canonical metadata + data_class + content_hash); hash = SHA-256(prev "\n" digest).
// Rows from before the commitment (content_hash null) hash the whole row: SHA-256(prev "\n" canonical).
import { hash } from 'node:crypto';
import { canonicalJson } from '../canonical.js';

/** SHA-256 of the parts' UTF-8 bytes one after another, hex; one-shot (no Hash object: every row hashes three times). */
const sha256 = (...parts: string[]) => hash('sha256', parts.join(''), 'hex');

/** A body as stored: JSON text (or null), parsed so that canonical form does not depend on the driver. */
export const parseBody = (v: string | null | undefined): unknown => (v == null ? null : (JSON.parse(v) as unknown));
const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : new Date(String(v)).toISOString());

/** The columns every row hashes as they are (never erased). */
export interface RowMetadata {
  request_id: string;
  created_at: Date | string;
  account_id?: string | null;
  key_id?: string | null;
  environment?: string | null;
  method: string;
  path: string;
  operation?: string | null;
  http_status: number;
  ok: boolean;
  statuscode?: string | null;
  reference_id?: string | null;
  latency_ms: number;
}

/** The erasable columns, with bodies as their stored JSON text. */
export interface RowContent {
  client_ip?: string | null;
  request_body?: string | null;
  response_body?: string | null;
}

const metadata = (r: RowMetadata) => ({
  request_id: r.request_id,
  created_at: iso(r.created_at),
  account_id: r.account_id ?? null,
  key_id: r.key_id ?? null,
  environment: r.environment ?? null,
  method: r.method,
  path: r.path,
  operation: r.operation ?? null,
  http_status: r.http_status,
  ok: r.ok,
  statuscode: r.statuscode ?? null,
  reference_id: r.reference_id ?? null,
  latency_ms: r.latency_ms,
});

const content = (r: RowContent) => ({ client_ip: r.client_ip ?? null, request_body: parseBody(r.request_body), response_body: parseBody(r.response_body) });

/** The salted commitment to a row's erasable content. */
export const contentCommitment = (salt: string, r: RowContent) => sha256('sangam-audit-content\n', salt, '\n', canonicalJson(content(r)));

/** What a row contributes to its chain: its metadata, its data class and its content commitment. */
export const rowDigest = (r: RowMetadata & { data_class: string; content_hash: string }) =>
  sha256(canonicalJson({ ...metadata(r), data_class: r.data_class, content_hash: r.content_hash }));

/** The link of a row to the one before it in its chain. */
export const linkHash = (prev: string, digest: string) => sha256(prev, '\n', digest);

/** A row from before content commitments: every column, content included, in the hash. */
export const legacyHash = (prev: string, r: RowMetadata & RowContent) => sha256(prev, '\n', canonicalJson({ ...metadata(r), ...content(r) }));

export type Heads = Record<string, { seq: number; hash: string }>;
const node = (...parts: string[]) => sha256(parts.join('\n'));

/** Merkle root over the chain heads in chain order; leaves and inner nodes are domain-separated, an odd node is carried up. */
export function merkleRoot(heads: Heads): string {
  let level = Object.keys(heads)
    .map(Number)
    .sort((a, b) => a - b)
    .map((c) => node('leaf', String(c), String(heads[c]!.seq), heads[c]!.hash));
  if (level.length === 0) return node('empty');
  while (level.length > 1) {
    const next: string[] = [];
    for (let i = 0; i < level.length; i += 2) next.push(i + 1 < level.length ? node('node', level[i]!, level[i + 1]!) : level[i]!);
    level = next;
  }
  return level[0]!;
}

/** What a checkpoint's signature covers: the moment and the Merkle root, as canonical JSON. */
export const checkpointMessage = (createdAt: Date | string, root: string) => Buffer.from(canonicalJson({ created_at: iso(createdAt), merkle_root: root }));

export { sha256 };
