// Owns the emulated RazorpayX API under /v1 (PARTNERS.md §2.1–2.6, §9.1): HTTP Basic auth, contacts, VPA fund
// accounts, payouts (plain and composite), fetch, list and cancel, fund account validations (create, fetch,
// list). Handlers stay thin: auth and the
// fault/latency hook run first, validate.ts checks the body, state.ts does the work.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { failAfterAccept, misbehave as misbehaveAs, type CallDeps } from '../common/faults.js';
import { serverError, throttled, unauthorized, badRequest, routeNotFound } from './errors.js';
import type { Faults } from './faults.js';
import { readKey, type IdempotencyBook } from './idempotency.js';
import type { Contact, FundAccount, Payout } from './entities.js';
import type { PayoutRecord, RazorpayxState } from './state.js';
import { validateContact, validateFundAccount, validatePayout, validateValidation } from './validate.js';
import { createView, type ValidationBook } from './validations.js';

export interface ApiDeps extends CallDeps<Faults> {
  state: RazorpayxState;
  validations: ValidationBook;
  idem: IdempotencyBook;
  keyId: string;
  keySecret: string;
  /** The Current Account payouts debit (`account_number`). */
  accountNumber: string;
  /** The RazorpayX Lite customer identifier: the only `source_account_number` fund account validation takes. */
  liteAccountNumber: string;
  /** The payout lookups answered as a route the gateway does not have (POST /_sim/lookup). */
  lookup: { missing: boolean };
}

/** The payout with its fund account nested right after `fund_account_id`, as in the webhook sample and the composite response. */
export function withFundAccount(p: Payout, fa: FundAccount | Record<string, unknown>): Record<string, unknown> {
  const { id, entity, fund_account_id, ...rest } = p;
  return { id, entity, fund_account_id, fund_account: fa, ...rest };
}

/**
 * [P] `Authorization: Basic base64(key_id:key_secret)`; `BASIC`/`basic` or a quoted token is invalid.
 * [G] texts of the 401s.
 */
function authenticate(req: FastifyRequest, d: ApiDeps): void {
  const h = req.headers.authorization;
  if (!h) throw unauthorized('Please provide your api key for authentication purposes.');
  if (!h.startsWith('Basic ')) throw unauthorized('The api key/secret provided is invalid');
  const decoded = Buffer.from(h.slice(6), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const id = colon < 0 ? decoded : decoded.slice(0, colon);
  const secret = colon < 0 ? '' : decoded.slice(colon + 1);
  if (id !== d.keyId) throw unauthorized('The api key provided is invalid');
  if (secret !== d.keySecret) throw unauthorized('The api key/secret provided is invalid');
}

/** Whether a call is in the faults' scope: every call, only payout creates, or only validation calls. */
function inScope(req: FastifyRequest, scope: Faults['scope']): boolean {
  const url = req.routeOptions.url ?? '';
  if (scope === 'create_payout') return req.method === 'POST' && url === '/v1/payouts';
  if (scope === 'validate') return url.startsWith('/v1/fund_accounts/validations');
  return true;
}

async function misbehave(req: FastifyRequest, d: ApiDeps): Promise<void> {
  const f = d.faults();
  await misbehaveAs(f, inScope(req, f.scope), { throttled, failed: serverError, sleep: d.sleep, latencyMs: d.latencyMs });
}

function createPayout(d: ApiDeps, body: unknown, key: string): unknown {
  const replay = d.idem.lookup(key, body);
  if (replay !== undefined) return replay;
  const input = validatePayout(body, d.accountNumber);
  const rec = d.state.createPayout(input, key);
  const fa = d.state.fundAccounts.get(rec.payout.fund_account_id)!;
  // [P] the composite API returns the contact and fund account nested in the payout.
  const view = input.composite ? withFundAccount(rec.payout, { ...fa, contact: d.state.contacts.get(fa.contact_id) }) : rec.payout;
  // [P] "Razorpay saves the response to the first request": a replay answers this snapshot, not today's status.
  const response = structuredClone(view);
  d.idem.save(key, body, rec.payout.id, response);
  if (failAfterAccept(d.faults())) throw serverError(d.faults().error_status);
  return response;
}

/** A listing's integer query parameter (`count`, `skip`, `from`, `to`), or its default. */
function pageInt(q: Record<string, string | undefined>, name: string, dflt: number, max: number): number {
  const v = q[name];
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!/^\d+$/.test(v) || n > max) throw badRequest(`The ${name} must be an integer between 0 and ${max}.`, name);
  return n;
}

const LIST_FILTERS = ['contact_id', 'fund_account_id', 'mode', 'reference_id', 'status'] as const;

/** [P] `GET /v1/payouts?account_number=…` with `count` ≤ 100 (default 10), `skip`, `from`, `to`; newest first. */
function listPayouts(d: ApiDeps, q: Record<string, string | undefined>): { entity: 'collection'; count: number; items: Payout[] } {
  if (q.account_number !== d.accountNumber) throw badRequest(q.account_number ? 'The account number is invalid.' : 'The account number field is required.', 'account_number');
  const int = (name: string, dflt: number, max: number) => pageInt(q, name, dflt, max);
  const count = int('count', 10, 100);
  const skip = int('skip', 0, Number.MAX_SAFE_INTEGER);
  const from = int('from', 0, Number.MAX_SAFE_INTEGER);
  const to = int('to', Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
  const contactOf = (r: PayoutRecord) => d.state.fundAccounts.get(r.payout.fund_account_id)?.contact_id;
  const items = [...d.state.payouts.values()]
    .filter((r) => r.payout.created_at >= from && r.payout.created_at <= to)
    .filter((r) => LIST_FILTERS.every((k) => q[k] === undefined || (k === 'contact_id' ? contactOf(r) : String(r.payout[k as keyof Payout])) === q[k]))
    .reverse()
    .slice(skip, skip + count)
    .map((r) => r.payout);
  return { entity: 'collection', count: items.length, items };
}

export async function registerApi(api: FastifyInstance, d: ApiDeps): Promise<void> {
  api.addHook('onRequest', async (req) => authenticate(req, d));
  api.addHook('preHandler', async (req) => misbehave(req, d));

  // [G] 201 for a new contact / fund account, 200 when the dedup rule returns an existing one.
  api.post('/contacts', async (req, reply) => {
    const { contact, created } = d.state.createContact(validateContact(req.body));
    return reply.code(created ? 201 : 200).send(contact);
  });
  api.get<{ Params: { id: string } }>('/contacts/:id', async (req) => found<Contact>(d.state.contacts.get(req.params.id)));
  api.post('/fund_accounts', async (req, reply) => {
    const { contactId, address } = validateFundAccount(req.body);
    const { fundAccount, created } = d.state.createFundAccount(contactId, address);
    return reply.code(created ? 201 : 200).send(fundAccount);
  });
  api.get<{ Params: { id: string } }>('/fund_accounts/:id', async (req) => found<FundAccount>(d.state.fundAccounts.get(req.params.id)));

  // [P §9.1] a validation answers 200 [G: the status code is not shown] whatever its verdict.
  // error_after_accept_next (scope validate) makes the validation, then answers a 5xx.
  api.post('/fund_accounts/validations', async (req) => {
    const input = validateValidation(req.body, { lite: d.liteAccountNumber, current: d.accountNumber });
    const view = createView(d.validations.create({ fundAccount: d.state.resolveValidationAccount(input), reference_id: input.reference_id, notes: input.notes }));
    if (failAfterAccept(d.faults())) throw serverError(d.faults().error_status);
    return view;
  });
  api.get<{ Querystring: Record<string, string | undefined> }>('/fund_accounts/validations', async (req) => {
    const q = req.query;
    if (q.account_number !== d.liteAccountNumber) throw badRequest(q.account_number ? 'The account number is invalid.' : 'The account number field is required.', 'account_number');
    return d.validations.list(pageInt(q, 'count', 10, 100), pageInt(q, 'skip', 0, Number.MAX_SAFE_INTEGER));
  });
  api.get<{ Params: { id: string } }>('/fund_accounts/validations/:id', async (req) => d.validations.get(req.params.id));

  api.post('/payouts', async (req) => createPayout(d, req.body, readKey(req.headers['x-payout-idempotency'])));
  api.get<{ Querystring: Record<string, string | undefined> }>('/payouts', async (req) => listPayouts(d, lookedUp(d, req.query)));
  api.get<{ Params: { id: string } }>('/payouts/:id', async (req) => d.state.get(lookedUp(d, req.params).id).payout);
  api.post<{ Params: { id: string } }>('/payouts/:id/cancel', async (req) => d.state.cancel(req.params.id).payout);
}

/** A payout lookup's input, unless the switch makes the lookup the gateway's 404 for a route. */
function lookedUp<T>(d: ApiDeps, v: T): T {
  if (d.lookup.missing) throw routeNotFound();
  return v;
}

function found<T>(v: T | undefined): T {
  if (v === undefined) throw badRequest('The id provided does not exist', 'id');
  return v;
}
