// Owns the offline check of a verifiable audit export (proof.ts writes it; docs/AUDIT-EXPORT.md
// specifies it). It needs only the export's text and Sangam's public key — no store, no network — so a
// tenant can run it (`sangam audit verify-export FILE --public-key KEY`) on a copy kept anywhere. It
// checks, and names the first line that fails:
// - the end line: the SHA-256 over every line before it, the counts, and the signature over both;
// - every checkpoint: key id, Merkle root over its heads, Ed25519 signature;
// - every row: it is the header's account and environment; its content (unless erased) matches its
//   salted commitment; its hash links it to the line before it in its run;
// - every run (a row, then the rows and links after it in its chain) ends exactly at a head a signed
//   checkpoint recorded, with the hash that checkpoint signed;
// - with an earlier export the tenant kept (`--against OLD`), that both agree on every chain position
//   they both show: a rewrite of the store since the old export cannot be hidden from its holder.
import { createHash, verify, type KeyObject } from 'node:crypto';
import { keyIdOf } from './checkpoints.js';
import { checkpointMessage, contentCommitment, linkHash, merkleRoot, rowDigest, type Heads, type RowMetadata } from './hashing.js';
import { endMessage, EXPORT_TYPE } from './proof.js';

export interface ExportVerdict {
  ok: boolean;
  account_id?: string;
  environment?: string;
  rows: number;
  links: number;
  checkpoints: number;
  unprovable: number;
  first_error?: { line: number; reason: string };
}

type Line = Record<string, unknown> & { type?: unknown };

class Refused extends Error {
  constructor(
    readonly line: number,
    reason: string,
  ) {
    super(reason);
  }
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const HEX64 = /^[0-9a-f]{64}$/;
/**
 * A signature's bytes, only from canonical base64: Node's decoder is lenient (it ignores what follows
 * the padding, and the unused bits of the last character), so a changed byte there would still verify.
 */
const signatureBytes = (v: unknown) => {
  const bytes = Buffer.from(str(v), 'base64');
  return bytes.toString('base64') === v ? bytes : Buffer.alloc(0);
};
const isInstant = (v: unknown) => typeof v === 'string' && !Number.isNaN(Date.parse(v)) && new Date(v).toISOString() === v;

/** What is wrong with the JSON types of a row or link line, or null: values are hashed exactly as shown, never coerced. */
function shapeFault(l: Line): string | null {
  if (l.type === 'link') return typeof l.digest === 'string' && HEX64.test(l.digest) ? null : 'digest must be 64 hex digits';
  for (const k of ['request_id', 'method', 'path', 'data_class', 'content_hash', 'prev_hash', 'hash']) if (typeof l[k] !== 'string') return `${k} must be a string`;
  for (const k of ['account_id', 'key_id', 'environment', 'operation', 'statuscode', 'reference_id']) if (l[k] !== null && typeof l[k] !== 'string') return `${k} must be a string or null`;
  if (!isInstant(l.created_at)) return 'created_at must be an ISO 8601 instant as Sangam writes it';
  if (l.erased_at !== null && !isInstant(l.erased_at)) return 'erased_at must be null or an ISO 8601 instant';
  if (typeof l.ok !== 'boolean') return 'ok must be true or false';
  if (!Number.isSafeInteger(l.http_status)) return 'http_status must be an integer';
  if (typeof l.latency_ms !== 'number' || !Number.isFinite(l.latency_ms)) return 'latency_ms must be a number';
  const c = l.content as Record<string, unknown> | null | undefined;
  if (c === null) return l.erased_at === null ? 'the row has no content but is not marked erased' : null;
  if (!c || typeof c !== 'object' || Array.isArray(c)) return 'content must be an object or null';
  if (typeof c.salt !== 'string' || (c.client_ip !== null && typeof c.client_ip !== 'string')) return 'content needs a salt and a client_ip string or null';
  return null;
}
const num = (v: unknown) => (typeof v === 'number' && Number.isSafeInteger(v) ? v : NaN);

/**
 * Verifies `text`; with `pinned` (an earlier export the tenant kept), also that every chain position both
 * exports show (rows, links, signed heads) has the same hash in each. That is what pins history: whoever
 * rewrote the store after `pinned` was taken could make a new export verify on its own (by re-hashing the
 * chain and removing the checkpoints after the rewrite), but not agree with what was signed before.
 */
export function verifyExport(text: string, publicKey: KeyObject, pinned?: string): ExportVerdict & { pinned_positions?: number } {
  if (pinned === undefined) return check(text, publicKey).verdict;
  const old = check(pinned, publicKey);
  if (!old.verdict.ok) return { ...old.verdict, first_error: { line: old.verdict.first_error!.line, reason: `the pinned export does not verify: ${old.verdict.first_error!.reason}` } };
  const now = check(text, publicKey, old.positions);
  return { ...now.verdict, pinned_positions: now.compared };
}

function check(text: string, publicKey: KeyObject, pinned?: Map<string, string>): { verdict: ExportVerdict; positions: Map<string, string>; compared: number } {
  const positions = new Map<string, string>();
  let compared = 0;
  /** Records the hash shown at a chain position, and holds it against the pinned export's. */
  const at = (line: number, chain: string | number, seq: number, hash: string) => {
    const key = `${chain}:${seq}`;
    positions.set(key, hash);
    const was = pinned?.get(key);
    if (was === undefined) return;
    compared++;
    if (was !== hash) throw new Refused(line, `chain ${chain} seq ${seq} differs from the pinned export (the trail was rewritten since)`);
  };
  const verdict = ((): ExportVerdict => {
    const counts = { rows: 0, links: 0, checkpoints: 0, unprovable: 0 };
    let header: Line = {};
    try {
      const raw = text.split('\n');
      if (raw.at(-1) !== '') throw new Refused(raw.length, 'the export does not end with a newline (it was cut short)');
      raw.pop();
      if (raw.length < 2) throw new Refused(raw.length, 'the export has no header and end lines');
      const lines = raw.map((l, i) => {
        try {
          const o = JSON.parse(l) as unknown;
          if (!o || typeof o !== 'object' || Array.isArray(o)) throw new Error();
          return o as Line;
        } catch {
          throw new Refused(i + 1, 'not a JSON object');
        }
      });
      const n = lines.length;
      header = lines[0]!;
      if (header.type !== EXPORT_TYPE || header.version !== 1) throw new Refused(1, `the first line is not a ${EXPORT_TYPE} version 1 header`);
      const keyId = keyIdOf(publicKey);

      // The end line vouches for every byte before it.
      const end = lines[n - 1]!;
      if (end.type !== 'end') throw new Refused(n, 'the last line is not the end line (the export was cut short)');
      const body = text.slice(0, text.length - raw[n - 1]!.length - 1);
      const sealed = { sha256: str(end.sha256), rows: num(end.rows), links: num(end.links), checkpoints: num(end.checkpoints), unprovable: num(end.unprovable) };
      if (end.key_id !== keyId) throw new Refused(n, `signed by key ${str(end.key_id)}, not by the given key ${keyId}`);
      if (createHash('sha256').update(body).digest('hex') !== sealed.sha256) throw new Refused(n, 'the lines before the end line are not the ones it sealed (a line was changed, added or removed)');
      if (!verify(null, endMessage(sealed), publicKey, signatureBytes(end.signature))) throw new Refused(n, 'the end line signature does not verify');
      counts.unprovable = sealed.unprovable;

      // Signed checkpoints first: what each (chain, seq) must hash to.
      const signed = new Map<string, { hash: string; id: number }>();
      lines.forEach((cp, i) => {
        if (cp.type !== 'checkpoint') return;
        const heads = cp.heads as Heads;
        const headsOk =
          heads && typeof heads === 'object' && !Array.isArray(heads) &&
          Object.entries(heads).every(([c, h]) => /^(0|[1-9][0-9]*)$/.test(c) && h && typeof h === 'object' && Number.isSafeInteger(h.seq) && typeof h.hash === 'string');
        if (!headsOk) throw new Refused(i + 1, 'checkpoint heads must map chain numbers to { seq, hash }');
        if (!isInstant(cp.created_at)) throw new Refused(i + 1, 'checkpoint created_at must be an ISO 8601 instant');
        if (cp.key_id !== keyId) throw new Refused(i + 1, `checkpoint signed by key ${str(cp.key_id)}, not by the given key ${keyId}`);
        if (merkleRoot(heads) !== cp.merkle_root) throw new Refused(i + 1, 'the checkpoint Merkle root does not match its heads');
        if (!verify(null, checkpointMessage(str(cp.created_at), str(cp.merkle_root)), publicKey, signatureBytes(cp.signature))) {
          throw new Refused(i + 1, 'the checkpoint signature does not verify');
        }
        for (const [chain, h] of Object.entries(heads)) {
          const prior = signed.get(`${chain}:${h.seq}`);
          if (prior && prior.hash !== h.hash) throw new Refused(i + 1, `checkpoints ${prior.id} and ${String(cp.id)} sign different hashes for chain ${chain} seq ${h.seq} (a fork)`);
          signed.set(`${chain}:${h.seq}`, { hash: h.hash, id: num(cp.id) });
          at(i + 1, chain, h.seq, h.hash);
        }
        counts.checkpoints++;
      });

      // Runs: a row starts one; each line after it continues the chain; it must end at a signed head.
      let run: { chain: number; seq: number; prev: string; startLine: number; covered: boolean } | null = null;
      const lastSeq = new Map<number, number>();
      // A run is covered when its last line is a head a checkpoint signed: every row in it is then proven.
      const close = () => {
        if (run && !run.covered) throw new Refused(run.startLine, `the run from here (chain ${run.chain}) ends at seq ${run.seq} without reaching a signed checkpoint`);
      };
      for (let i = 1; i < n - 1; i++) {
        const l = lines[i]!;
        if (l.type === 'checkpoint') continue;
        if (l.type !== 'row' && l.type !== 'link') throw new Refused(i + 1, `unknown line type ${String(l.type)}`);
        const chain = num(l.chain);
        const seq = num(l.seq);
        if (Number.isNaN(chain) || Number.isNaN(seq)) throw new Refused(i + 1, 'chain and seq must be integers');
        if (seq <= (lastSeq.get(chain) ?? 0)) throw new Refused(i + 1, `chain ${chain} seq ${seq} is out of order`);
        const continues = run !== null && run.chain === chain && seq === run.seq + 1;
        if (!continues) {
          close();
          if (l.type !== 'row') throw new Refused(i + 1, 'a run must start with one of the account\'s rows');
          run = { chain, seq: seq - 1, prev: str(l.prev_hash), startLine: i + 1, covered: false };
        }
        const fault = shapeFault(l);
        if (fault) throw new Refused(i + 1, fault);
        let digest: string;
        if (l.type === 'row') {
          const r = l as unknown as RowMetadata & { data_class: string; content_hash: string; prev_hash: string };
          if (r.account_id !== header.account_id || r.environment !== header.environment) throw new Refused(i + 1, 'the row is not of the header\'s account and environment');
          const content = l.content as { salt: string; client_ip: string | null; request_body?: unknown; response_body?: unknown } | null;
          if (content !== null) {
            const given = {
              client_ip: content.client_ip,
              request_body: content.request_body == null ? null : JSON.stringify(content.request_body),
              response_body: content.response_body == null ? null : JSON.stringify(content.response_body),
            };
            if (contentCommitment(content.salt, given) !== r.content_hash) throw new Refused(i + 1, 'the content does not match its commitment (it was changed)');
          }
          if (r.prev_hash !== run!.prev) throw new Refused(i + 1, 'prev_hash does not match the line before it');
          digest = rowDigest(r);
          counts.rows++;
        } else {
          digest = str(l.digest);
          counts.links++;
        }
        const hash = linkHash(run!.prev, digest);
        if (l.type === 'row' && hash !== l.hash) throw new Refused(i + 1, 'the row hash does not match its content and the line before it (it was changed)');
        run = { ...run!, seq, prev: hash };
        const want = signed.get(`${chain}:${seq}`);
        if (want && want.hash !== hash) throw new Refused(i + 1, `chain ${chain} seq ${seq} differs from what checkpoint ${want.id} signed`);
        run.covered = want !== undefined;
        lastSeq.set(chain, seq);
        at(i + 1, chain, seq, hash);
      }
      close();
      for (const k of ['rows', 'links', 'checkpoints'] as const) {
        if (counts[k] !== sealed[k]) throw new Refused(n, `the end line counts ${sealed[k]} ${k}, the export has ${counts[k]}`);
      }
      return { ok: true, account_id: str(header.account_id), environment: str(header.environment), ...counts };
    } catch (err) {
      // Anything the checks above did not foresee in a malformed file is a refusal too, never a crash.
      const first_error = err instanceof Refused ? { line: err.line, reason: err.message } : { line: 0, reason: `malformed export: ${(err as Error).message}` };
      return { ok: false, account_id: str(header.account_id), environment: str(header.environment), ...counts, first_error };
    }
  })();
  return { verdict, positions, compared };
}
