// Owns the emulated Payouts V2 API under /payout (PARTNERS.md §3.1–3.3): `x-client-id` /
// `x-client-secret` auth, `x-api-version`, `x-request-id` echoed, the rate-limit headers, Standard
// Transfer V2 (`POST /payout/transfers`) and Get Transfer Status V2 (`GET /payout/transfers?transfer_id=`
// or `?cf_transfer_id=`), and Validate Payout V2 (`POST /payout/validatePayout`, validations.ts). Handlers stay thin: auth, limits and faults run as hooks, validate.ts checks
// the body, transfers.ts does the work.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { failAfterAccept, misbehave as misbehaveAs, type CallDeps } from '../common/faults.js';
import { apisNotEnabled, authenticationServerError, invalid, routeNotFound, serverError, throttled, unauthorized } from './errors.js';
import type { Faults } from './faults.js';
import type { TransferBook } from './transfers.js';
import { validateTransfer } from './validate.js';
import { validatePayout, type ValidationRecord } from './validations.js';

export interface ApiDeps extends CallDeps<Faults> {
  book: TransferBook;
  validations: ValidationRecord[];
  clientId: string;
  clientSecret: string;
  fundsourceId: string;
  rateLimitPerMinute: number;
  /** GET /transfers answered as a route the gateway does not have (POST /_sim/lookup). */
  lookup: { missing: boolean };
}

const API_VERSION = /^\d{4}-\d{2}-\d{2}$/;
const header = (req: FastifyRequest, name: string): string | undefined => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/** [P] `x-request-id` is echoed: "blank or null if no `x-request-id` is sent" (Cashfree's OpenAPI headers), so blank. */
function echoRequestId(req: FastifyRequest, reply: FastifyReply): void {
  reply.header('x-request-id', header(req, 'x-request-id') ?? '');
}

/** [P] the header names; [G] the 401 texts, and that a malformed `x-api-version` is a 400 (a missing one means 2024-01-01). */
function authenticate(req: FastifyRequest, d: ApiDeps): void {
  const id = header(req, 'x-client-id');
  const secret = header(req, 'x-client-secret');
  if (!id || !secret) throw unauthorized('x-client-id and x-client-secret headers are required');
  if (id !== d.clientId || secret !== d.clientSecret) throw unauthorized('authentication Failed');
  const version = header(req, 'x-api-version');
  if (version !== undefined && !API_VERSION.test(version)) throw invalid('x-api-version_invalid', 'x-api-version should be a date in the format YYYY-MM-DD');
}

/**
 * [P] `x-ratelimit-limit` (per minute), `x-ratelimit-remaining` (sliding window), `x-ratelimit-retry`
 * (0 within the limit, 1–59 s when breached). [G] the window is per endpoint (method + path).
 */
class RateLimiter {
  private readonly hits = new Map<string, number[]>();
  constructor(private readonly limit: number) {}

  take(key: string, reply: FastifyReply): void {
    if (this.limit <= 0) return;
    const now = Date.now();
    const recent = (this.hits.get(key) ?? []).filter((t) => t > now - 60_000);
    this.hits.set(key, recent);
    reply.header('x-ratelimit-limit', String(this.limit));
    if (recent.length >= this.limit) {
      reply.header('x-ratelimit-remaining', '0');
      throw throttled(Math.min(59, Math.max(1, Math.ceil((recent[0]! + 60_000 - now) / 1000))));
    }
    recent.push(now);
    reply.header('x-ratelimit-remaining', String(this.limit - recent.length));
    reply.header('x-ratelimit-retry', '0');
  }
}

async function misbehave(req: FastifyRequest, reply: FastifyReply, d: ApiDeps): Promise<void> {
  const f = d.faults();
  if (f.apis_not_enabled) throw apisNotEnabled();
  const throttledNow = () => {
    reply.header('x-ratelimit-remaining', '0');
    return throttled(1);
  };
  const url = req.routeOptions.url ?? '';
  const inScope = f.scope === 'create_transfer' ? req.method === 'POST' && url.endsWith('/transfers') : f.scope === 'validate' ? url.endsWith('/validatePayout') : true;
  if (f.authentication_error && inScope) throw authenticationServerError();
  await misbehaveAs(f, inScope, { throttled: throttledNow, failed: serverError, sleep: d.sleep, latencyMs: d.latencyMs });
}

function createTransfer(d: ApiDeps, body: unknown, apiVersion: string | undefined): unknown {
  const input = validateTransfer(body, d.fundsourceId);
  const f = d.faults();
  const { record, replay } = d.book.create(input, body, f.conflict_on_replay);
  if (!replay) record.apiVersion = apiVersion ?? null;
  const response = structuredClone(record.transfer);
  if (!replay && failAfterAccept(f)) throw serverError(f.error_status);
  return response;
}

export async function registerApi(api: FastifyInstance, d: ApiDeps): Promise<void> {
  const limiter = new RateLimiter(d.rateLimitPerMinute);
  api.addHook('onRequest', async (req, reply) => {
    echoRequestId(req, reply);
    authenticate(req, d);
  });
  api.addHook('preHandler', async (req, reply) => {
    limiter.take(`${req.method} ${req.routeOptions.url}`, reply);
    await misbehave(req, reply, d);
  });

  // [G] 200 for a new transfer and for a replay alike (the docs show the body, not the status).
  api.post('/transfers', async (req) => createTransfer(d, req.body, header(req, 'x-api-version')));

  // [P] "Always returns HTTP 200 when the request is accepted", VALID or INVALID alike.
  api.post('/validatePayout', async (req) => validatePayout(d.validations, req.body));

  api.get<{ Querystring: Record<string, unknown> }>('/transfers', async (req) => {
    if (d.lookup.missing) throw routeNotFound();
    const one = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
    const transferId = one(req.query.transfer_id);
    const cfTransferId = one(req.query.cf_transfer_id);
    // [G] code and text when neither id is given
    if (!transferId && !cfTransferId) throw invalid('transfer_id_missing', 'transfer_id or cf_transfer_id is missing in the request');
    return d.book.find({ transferId, cfTransferId }).transfer;
  });
}
