// Owns the emulated Surepass Signature Comparator endpoint (PARTNERS.md §6.1): Bearer auth, the form
// with one pair of inputs, and the documented 200 envelope. Handlers stay thin: auth and the
// fault/latency hook run first, form.ts reads the body, compare.ts scores.
import { randomInt } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { failAfterAccept, misbehave as misbehaveAs, type CallDeps } from '../common/faults.js';
import type { SyncFaults } from '../sync-faults.js';
import { compare, type Compared } from './compare.js';
import { failure, invalidToken, serverError, throttled } from './errors.js';
import { readForm, type InputKind } from './form.js';

export interface ComparisonRecord {
  client_id: string;
  input: InputKind;
  content_type: string;
  use_pdf: boolean;
  filenames: [string | null, string | null];
  threshold: number;
  score: number;
  matched: boolean;
  sha256: [string, string];
  bytes: [number, number];
  fetched: boolean;
  /** `answered`, or `error_after_accept` when the fault made the caller see a 5xx for a done comparison. */
  outcome: 'answered' | 'error_after_accept';
  at: string;
}

export interface ApiDeps extends CallDeps<SyncFaults> {
  path: string;
  token: string;
  threshold: number;
  maxBytes: number;
  record: (r: ComparisonRecord) => void;
}

/** [P] `Authorization: Bearer <JWT>`; [G] only the emulator's one token is valid, and a missing header gets the same 401. */
function authenticate(req: FastifyRequest, d: ApiDeps): void {
  if (req.headers.authorization !== `Bearer ${d.token}`) throw invalidToken();
}

async function misbehave(d: ApiDeps): Promise<void> {
  await misbehaveAs(d.faults(), true, { throttled, failed: serverError, sleep: d.sleep, latencyMs: d.latencyMs });
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
/** [P] `signature_comparator_` + 20 letters, as in the sample; unique per call. */
const clientId = () => `signature_comparator_${Array.from({ length: 20 }, () => LETTERS[randomInt(LETTERS.length)]).join('')}`;

export async function registerApi(app: FastifyInstance, d: ApiDeps): Promise<void> {
  app.post(d.path, { onRequest: async (req) => authenticate(req, d), preHandler: async () => misbehave(d) }, async (req) => {
    const contentType = req.headers['content-type'] ?? '';
    if (!Buffer.isBuffer(req.body)) throw failure(415, 'Content-Type must be multipart/form-data', 'unsupported_media_type');
    const input = await readForm(req.body, contentType);
    const c: Compared = await compare(input, { threshold: d.threshold, maxBytes: d.maxBytes });
    const data = { client_id: clientId(), threshold: d.threshold, score: c.score, matched: c.matched };
    const failNow = failAfterAccept(d.faults());
    d.record({
      client_id: data.client_id,
      input: input.kind,
      content_type: contentType.split(';')[0]!.trim(),
      use_pdf: input.usePdf,
      filenames: input.items.map((i) => ('filename' in i ? (i.filename ?? null) : null)) as [string | null, string | null],
      threshold: d.threshold,
      score: c.score,
      matched: c.matched,
      sha256: c.digests,
      bytes: c.sizes,
      fetched: c.fetched,
      outcome: failNow ? 'error_after_accept' : 'answered',
      at: new Date().toISOString(),
    });
    if (failNow) throw serverError(d.faults().error_status);
    return { data, status_code: 200, success: true, message: 'success', message_code: 'success' };
  });
}
