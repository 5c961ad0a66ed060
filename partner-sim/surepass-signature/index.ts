// Owns the Surepass Signature Comparator emulator (`sangam partner-sim --kind surepass-signature`): a
// Fastify server speaking the comparator as PARTNERS.md §6.1 documents it — Bearer token, a
// multipart/form-data body with one pair of images (files, base64 or links) and `use_pdf`, the
// `{data{client_id, threshold, score, matched}, status_code, success, message, message_code}` answer and
// Surepass's error shapes — with deterministic scores and misbehaviour on demand (/_sim/faults).
// Synchronous; no webhooks or idempotency (none documented). It keeps no books (a comparison is a read).
import { createHmac } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { type EmulatorHandle, installErrorShapes, keepRequests, startEmulator, withDefaults, type ReceivedRequest } from '../common/server.js';
import { NO_SYNC_FAULTS, type SyncFaults } from '../sync-faults.js';
import { registerAdmin } from './admin.js';
import { registerApi, type ComparisonRecord } from './api.js';
import { failure, routeNotFound, serverError, SurepassError } from './errors.js';

/**
 * [G] the endpoint path was not captured; Surepass paths look like `/api/v1/<product>/<api>`
 * (`/api/v1/face/face-match`). Configurable (`--path`), so a connector can be pointed at either guess.
 */
export const SUREPASS_SIGNATURE_PATH = '/api/v1/signature/signature-comparator';

export interface SurepassSignatureEmulatorOptions {
  port?: number;
  host?: string;
  /** The one Bearer token accepted (default: a JWT made here, stable across runs). */
  token?: string;
  /** Where the comparator answers. */
  path?: string;
  /** `data.threshold`: 40–100 (the docs' sample: 90). */
  threshold?: number;
  /** Added to every API call. */
  latencyMs?: number;
  /** The largest body accepted [G]; also the largest file downloaded from a loopback link. */
  maxBytes?: number;
}

/** A flask-jwt-extended style access token (what Surepass issues), signed HS256 with a fixed key so it never changes. */
function emulatorToken(): string {
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const claims = { fresh: false, iat: 1735689600, jti: 'sangam-emulator', type: 'access', sub: 'dev.sangam_emulator@surepass.io', nbf: 1735689600, exp: 4102444800, user_claims: { scopes: ['user'] } };
  const unsigned = `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}`;
  return `${unsigned}.${createHmac('sha256', 'sangam-surepass-emulator').update(unsigned).digest('base64url')}`;
}

export const SUREPASS_SIGNATURE_DEFAULTS = {
  port: 0,
  host: '127.0.0.1',
  token: emulatorToken(),
  path: SUREPASS_SIGNATURE_PATH,
  threshold: 90,
  latencyMs: 300,
  maxBytes: 10 * 1024 * 1024,
};

export type SurepassSignatureSettings = typeof SUREPASS_SIGNATURE_DEFAULTS;

export interface SurepassSignatureEmulator extends EmulatorHandle<SurepassSignatureSettings, SyncFaults> {
  /** The API base, like `https://sandbox.surepass.io`: the comparator is `${url}${settings.path}`. */
  url: string;
  comparisons(): ComparisonRecord[];
  /** Every call to the comparator as it arrived (the raw multipart body) with its answer, for schema tests. */
  received: ReceivedRequest[];
}

export function startSurepassSignatureEmulator(opts: SurepassSignatureEmulatorOptions = {}): Promise<SurepassSignatureEmulator> {
  const settings = withDefaults(SUREPASS_SIGNATURE_DEFAULTS, opts);
  if (!Number.isInteger(settings.threshold) || settings.threshold < 40 || settings.threshold > 100) throw new Error('threshold must be a whole number from 40 to 100');
  if (!settings.path.startsWith('/') || settings.path.startsWith('/_sim')) throw new Error('path must start with / and not be under /_sim');
  return startEmulator({
    defaults: settings,
    opts: {},
    noFaults: NO_SYNC_FAULTS,
    appOptions: (s) => ({ bodyLimit: s.maxBytes }),
    errors: installErrorHandling,
    build: async ({ app, settings: s, timers, faults, replaceFaults }) => {
      const comparisons: ComparisonRecord[] = [];
      const received = keepRequests(app, s.path);
      await registerApi(app, {
        path: s.path,
        token: s.token,
        threshold: s.threshold,
        maxBytes: s.maxBytes,
        latencyMs: s.latencyMs,
        faults,
        sleep: timers.sleep,
        record: (r) => comparisons.push(r),
      });
      await registerAdmin(app, { comparisons, getFaults: faults, setFaults: replaceFaults });
      return { handle: { comparisons: () => comparisons, received } };
    },
  });
}

/** Forms arrive raw (form.ts parses them); every error leaves in a Surepass shape. */
function installErrorHandling(app: FastifyInstance): void {
  for (const type of ['multipart/form-data', 'application/x-www-form-urlencoded']) {
    app.addContentTypeParser(type, { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  }
  installErrorShapes(app, {
    known: (err) => (err instanceof SurepassError ? { status: err.statusCode, body: err.body } : undefined),
    // [G] texts and codes: the docs give no body for these.
    client: (err) =>
      err.statusCode === 413 ? failure(413, 'File size too large', 'payload_too_large').body
      : err.statusCode === 415 ? failure(415, 'Content-Type must be multipart/form-data', 'unsupported_media_type').body
      : failure(err.statusCode, 'Bad Request', 'bad_request').body,
    server: () => serverError(500).body,
    notFound: () => routeNotFound().body,
  });
}
