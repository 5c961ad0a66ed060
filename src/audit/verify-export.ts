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
  const c = new ExportCheck(publicKey, pinned);
  const verdict = c.verify(text);
  return { verdict, positions: c.positions, compared: c.compared };
}

type Sealed = { sha256: string; rows: number; links: number; checkpoints: number; unprovable: number };
type Run = { chain: number; seq: number; prev: string; startLine: number; covered: boolean };
type RowLine = RowMetadata & { data_class: string; content_hash: string; prev_hash: string };
type Content = { salt: string; client_ip: string | null; request_body?: unknown; response_body?: unknown };

/** One export checked line by line, in the order of the module header; each step throws Refused. */
class ExportCheck {
  /** Every chain position shown (rows, links, signed heads) with its hash: what a later export is held to. */
  readonly positions = new Map<string, string>();
  compared = 0;
  private counts = { rows: 0, links: 0, checkpoints: 0, unprovable: 0 };
  private header: Line = {};
  private keyId: string;
  /** What each (chain, seq) a checkpoint signed must hash to, and which checkpoint signed it. */
  private signed = new Map<string, { hash: string; id: number }>();
  private run: Run | null = null;
  private lastSeq = new Map<number, number>();

  constructor(
    private publicKey: KeyObject,
    private pinned: Map<string, string> | undefined,
  ) {
    this.keyId = keyIdOf(publicKey);
  }

  verify(text: string): ExportVerdict {
    try {
      const { lines, last } = this.parse(text);
      const n = lines.length;
      this.header = lines[0]!;
      if (this.header.type !== EXPORT_TYPE || this.header.version !== 1) throw new Refused(1, `the first line is not a ${EXPORT_TYPE} version 1 header`);
      const sealed = this.checkEnd(text, lines[n - 1]!, last, n);
      lines.forEach((l, i) => l.type === 'checkpoint' && this.checkCheckpoint(l, i + 1));
      for (let i = 1; i < n - 1; i++) this.checkLine(lines[i]!, i + 1);
      this.closeRun();
      for (const k of ['rows', 'links', 'checkpoints'] as const) {
        if (this.counts[k] !== sealed[k]) throw new Refused(n, `the end line counts ${sealed[k]} ${k}, the export has ${this.counts[k]}`);
      }
      return { ok: true, ...this.scope(), ...this.counts };
    } catch (err) {
      // Anything the checks did not foresee in a malformed file is a refusal too, never a crash.
      const first_error = err instanceof Refused ? { line: err.line, reason: err.message } : { line: 0, reason: `malformed export: ${(err as Error).message}` };
      return { ok: false, ...this.scope(), ...this.counts, first_error };
    }
  }

  private scope() {
    return { account_id: str(this.header.account_id), environment: str(this.header.environment) };
  }

  /** The lines as JSON objects, and the text of the last one. */
  private parse(text: string): { lines: Line[]; last: string } {
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
    return { lines, last: raw.at(-1)! };
  }

  /** The end line vouches for every byte before it. */
  private checkEnd(text: string, end: Line, endText: string, n: number): Sealed {
    if (end.type !== 'end') throw new Refused(n, 'the last line is not the end line (the export was cut short)');
    const body = text.slice(0, text.length - endText.length - 1);
    const sealed = { sha256: str(end.sha256), rows: num(end.rows), links: num(end.links), checkpoints: num(end.checkpoints), unprovable: num(end.unprovable) };
    if (end.key_id !== this.keyId) throw new Refused(n, `signed by key ${str(end.key_id)}, not by the given key ${this.keyId}`);
    if (createHash('sha256').update(body).digest('hex') !== sealed.sha256) throw new Refused(n, 'the lines before the end line are not the ones it sealed (a line was changed, added or removed)');
    if (!verify(null, endMessage(sealed), this.publicKey, signatureBytes(end.signature))) throw new Refused(n, 'the end line signature does not verify');
    this.counts.unprovable = sealed.unprovable;
    return sealed;
  }

  /** A signed checkpoint: its heads, key, Merkle root and signature; its heads become what runs must reach. */
  private checkCheckpoint(cp: Line, line: number): void {
    const heads = cp.heads as Heads;
    const headsOk =
      heads && typeof heads === 'object' && !Array.isArray(heads) &&
      Object.entries(heads).every(([c, h]) => /^(0|[1-9][0-9]*)$/.test(c) && h && typeof h === 'object' && Number.isSafeInteger(h.seq) && typeof h.hash === 'string');
    if (!headsOk) throw new Refused(line, 'checkpoint heads must map chain numbers to { seq, hash }');
    if (!isInstant(cp.created_at)) throw new Refused(line, 'checkpoint created_at must be an ISO 8601 instant');
    if (cp.key_id !== this.keyId) throw new Refused(line, `checkpoint signed by key ${str(cp.key_id)}, not by the given key ${this.keyId}`);
    if (merkleRoot(heads) !== cp.merkle_root) throw new Refused(line, 'the checkpoint Merkle root does not match its heads');
    if (!verify(null, checkpointMessage(str(cp.created_at), str(cp.merkle_root)), this.publicKey, signatureBytes(cp.signature))) {
      throw new Refused(line, 'the checkpoint signature does not verify');
    }
    for (const [chain, h] of Object.entries(heads)) {
      const prior = this.signed.get(`${chain}:${h.seq}`);
      if (prior && prior.hash !== h.hash) throw new Refused(line, `checkpoints ${prior.id} and ${String(cp.id)} sign different hashes for chain ${chain} seq ${h.seq} (a fork)`);
      this.signed.set(`${chain}:${h.seq}`, { hash: h.hash, id: num(cp.id) });
      this.at(line, chain, h.seq, h.hash);
    }
    this.counts.checkpoints++;
  }

  /** A row or link: a row starts a run; each line after it continues the chain; a run must end at a signed head. */
  private checkLine(l: Line, line: number): void {
    if (l.type === 'checkpoint') return;
    if (l.type !== 'row' && l.type !== 'link') throw new Refused(line, `unknown line type ${String(l.type)}`);
    const chain = num(l.chain);
    const seq = num(l.seq);
    if (Number.isNaN(chain) || Number.isNaN(seq)) throw new Refused(line, 'chain and seq must be integers');
    if (seq <= (this.lastSeq.get(chain) ?? 0)) throw new Refused(line, `chain ${chain} seq ${seq} is out of order`);
    let run = this.run;
    if (run === null || run.chain !== chain || seq !== run.seq + 1) {
      this.closeRun();
      if (l.type !== 'row') throw new Refused(line, 'a run must start with one of the account\'s rows');
      run = { chain, seq: seq - 1, prev: str(l.prev_hash), startLine: line, covered: false };
    }
    const fault = shapeFault(l);
    if (fault) throw new Refused(line, fault);
    const digest = l.type === 'row' ? this.rowDigest(l as unknown as RowLine, l.content as Content | null, run, line) : str(l.digest);
    if (l.type === 'row') this.counts.rows++;
    else this.counts.links++;
    const hash = linkHash(run.prev, digest);
    if (l.type === 'row' && hash !== l.hash) throw new Refused(line, 'the row hash does not match its content and the line before it (it was changed)');
    const want = this.signed.get(`${chain}:${seq}`);
    if (want && want.hash !== hash) throw new Refused(line, `chain ${chain} seq ${seq} differs from what checkpoint ${want.id} signed`);
    // A run is covered when its last line is a head a checkpoint signed: every row in it is then proven.
    this.run = { ...run, seq, prev: hash, covered: want !== undefined };
    this.lastSeq.set(chain, seq);
    this.at(line, chain, seq, hash);
  }

  /** One of the account's rows: its scope, its content against its commitment, its link to the line before. */
  private rowDigest(r: RowLine, content: Content | null, run: Run, line: number): string {
    if (r.account_id !== this.header.account_id || r.environment !== this.header.environment) throw new Refused(line, 'the row is not of the header\'s account and environment');
    if (content !== null) {
      const given = {
        client_ip: content.client_ip,
        request_body: content.request_body == null ? null : JSON.stringify(content.request_body),
        response_body: content.response_body == null ? null : JSON.stringify(content.response_body),
      };
      if (contentCommitment(content.salt, given) !== r.content_hash) throw new Refused(line, 'the content does not match its commitment (it was changed)');
    }
    if (r.prev_hash !== run.prev) throw new Refused(line, 'prev_hash does not match the line before it');
    return rowDigest(r);
  }

  private closeRun(): void {
    const run = this.run;
    if (run && !run.covered) throw new Refused(run.startLine, `the run from here (chain ${run.chain}) ends at seq ${run.seq} without reaching a signed checkpoint`);
  }

  /** Records the hash shown at a chain position, and holds it against the pinned export's. */
  private at(line: number, chain: string | number, seq: number, hash: string): void {
    const key = `${chain}:${seq}`;
    this.positions.set(key, hash);
    const was = this.pinned?.get(key);
    if (was === undefined) return;
    this.compared++;
    if (was !== hash) throw new Refused(line, `chain ${chain} seq ${seq} differs from the pinned export (the trail was rewritten since)`);
  }
}
