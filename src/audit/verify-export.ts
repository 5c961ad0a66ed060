// Owns the offline check of a verifiable audit export (proof.ts writes it; docs/AUDIT-EXPORT.md
// specifies it). It needs only the export's text and Sangam's public key — no store, no network — so a
// tenant can run it (`sangam audit verify-export FILE --public-key KEY`) on a copy kept anywhere. It
// checks, and names the first line that fails:
// - the end line: the SHA-256 over every line before it, the counts, and the signature over both;
// - every checkpoint: key id, Merkle root over its heads, Ed25519 signature;
// - every row: it is the header's account and environment; its content (unless erased) matches its
//   salted commitment; its hash links it to the line before it in its run;
// - every run (a row, then the rows and links after it in its chain) ends exactly at a head a signed
//   checkpoint recorded, with the hash that checkpoint signed.
import { createHash, verify, type KeyObject } from 'node:crypto';
import { keyIdOf } from './checkpoints.js';
import { checkpointMessage, contentCommitment, linkHash, merkleRoot, rowDigest, type Heads } from './hashing.js';
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
const num = (v: unknown) => (typeof v === 'number' && Number.isSafeInteger(v) ? v : NaN);
const real = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : NaN);

export function verifyExport(text: string, publicKey: KeyObject): ExportVerdict {
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
    if (!verify(null, endMessage(sealed), publicKey, Buffer.from(str(end.signature), 'base64'))) throw new Refused(n, 'the end line signature does not verify');
    counts.unprovable = sealed.unprovable;

    // Signed checkpoints first: what each (chain, seq) must hash to.
    const signed = new Map<string, { hash: string; id: number }>();
    lines.forEach((cp, i) => {
      if (cp.type !== 'checkpoint') return;
      const heads = cp.heads as Heads;
      if (cp.key_id !== keyId) throw new Refused(i + 1, `checkpoint signed by key ${str(cp.key_id)}, not by the given key ${keyId}`);
      if (!heads || typeof heads !== 'object' || merkleRoot(heads) !== cp.merkle_root) throw new Refused(i + 1, 'the checkpoint Merkle root does not match its heads');
      if (!verify(null, checkpointMessage(str(cp.created_at), str(cp.merkle_root)), publicKey, Buffer.from(str(cp.signature), 'base64'))) {
        throw new Refused(i + 1, 'the checkpoint signature does not verify');
      }
      for (const [chain, h] of Object.entries(heads)) {
        const prior = signed.get(`${chain}:${h.seq}`);
        if (prior && prior.hash !== h.hash) throw new Refused(i + 1, `checkpoints ${prior.id} and ${String(cp.id)} sign different hashes for chain ${chain} seq ${h.seq} (a fork)`);
        signed.set(`${chain}:${h.seq}`, { hash: h.hash, id: num(cp.id) });
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
      let digest: string;
      if (l.type === 'row') {
        if (l.account_id !== header.account_id || l.environment !== header.environment) throw new Refused(i + 1, 'the row is not of the header\'s account and environment');
        const content = l.content as { salt?: unknown; client_ip?: unknown; request_body?: unknown; response_body?: unknown } | null;
        if (content === null) {
          if (!l.erased_at) throw new Refused(i + 1, 'the row has no content but is not marked erased');
        } else {
          const given = {
            client_ip: typeof content.client_ip === 'string' ? content.client_ip : null,
            request_body: content.request_body == null ? null : JSON.stringify(content.request_body),
            response_body: content.response_body == null ? null : JSON.stringify(content.response_body),
          };
          if (contentCommitment(str(content.salt), given) !== l.content_hash) throw new Refused(i + 1, 'the content does not match its commitment (it was changed)');
        }
        if (str(l.prev_hash) !== run!.prev) throw new Refused(i + 1, 'prev_hash does not match the line before it');
        digest = rowDigest({
          request_id: str(l.request_id), created_at: str(l.created_at), account_id: l.account_id as string | null, key_id: l.key_id as string | null,
          environment: l.environment as string | null, method: str(l.method), path: str(l.path), operation: l.operation as string | null,
          http_status: num(l.http_status), ok: l.ok === true, statuscode: l.statuscode as string | null, reference_id: l.reference_id as string | null,
          latency_ms: real(l.latency_ms), data_class: str(l.data_class), content_hash: str(l.content_hash),
        });
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
    }
    close();
    for (const k of ['rows', 'links', 'checkpoints'] as const) {
      if (counts[k] !== sealed[k]) throw new Refused(n, `the end line counts ${sealed[k]} ${k}, the export has ${counts[k]}`);
    }
    return { ok: true, account_id: str(header.account_id), environment: str(header.environment), ...counts };
  } catch (err) {
    if (!(err instanceof Refused)) throw err;
    return { ok: false, account_id: str(header.account_id), environment: str(header.environment), ...counts, first_error: { line: err.line, reason: err.message } };
  }
}
