// Owns the path every operation request takes up to its runner: pick the input (JSON body, or query
// string for the GET operation), resolve aliases, validate against the operation's one schema, let
// the cited consent be checked and the operation refuse what the caller may not name (before any record), take the idempotency
// key and fill in what may be left out (resolve); then it only chooses the runner for the key's
// environment (sandbox-runner.ts, live-runner.ts), which owns the key until the answer, and sends the
// runner's answer. Its route (the schema the OpenAPI document shows) is registered in src/routes/api/v1/operations.ts.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';
import { newId } from '../ids.js';
import { requestHash } from '../idempotency/store.js';
import { compile, compileText, toFieldErrors } from '../http/validation.js';
import { requestAudit } from '../audit/hook.js';
import type { RequestAudit } from '../audit/row.js';
import type { OperationContext, OperationDeps, OperationDef } from './operation.js';
import type { Call, Input, Runner } from './runner.js';
import type { Environment } from '../db/schema.js';
import type { ConsentGate } from '../consents/gate.js';

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The raw fields of the request and where they came from. */
function rawInput(def: OperationDef, req: FastifyRequest): { source: 'body' | 'query'; value: unknown } {
  const body = req.body;
  const hasBody = body !== undefined && body !== null && !(isPlainObject(body) && Object.keys(body).length === 0);
  if (def.method === 'GET' && !hasBody) return { source: 'query', value: { ...(req.query as object) } };
  return { source: 'body', value: isPlainObject(body) ? { ...body } : body };
}

/** Validates and normalises the input; throws a 422 ApiError naming every bad field. */
export function parseInput(def: OperationDef, req: FastifyRequest): Input {
  const { source, value } = rawInput(def, req);
  const header = req.headers['idempotency-key'];
  return validateInput(def, value, source, typeof header === 'string' ? header : undefined);
}

/**
 * Validates and normalises one operation input: a request's body or query string, or a batch's row.
 * Values from text (`query`: a query string, a CSV row) are coerced to the schema's types. Aliases are
 * resolved first; `header` is an Idempotency-Key header. Throws a 422 ApiError naming every bad field.
 */
export function validateInput(def: OperationDef, value: unknown, source: 'body' | 'query', header?: string): Input {
  if (!isPlainObject(value)) throw ApiError.validation([{ field: 'body', message: 'the request body must be a JSON object' }]);
  // An alias stays until the schema has checked it (it declares the alias's rules too), so a bad alias
  // beside its canonical field is a 422 naming it, as the published document says.
  for (const [alias, canonical] of Object.entries(def.aliases ?? {})) {
    if (value[canonical] === undefined && value[alias] !== undefined) value[canonical] = value[alias];
  }
  if (def.idempotency?.by === 'idempotency_key' && header !== undefined) {
    if (value.idempotency_key === undefined) value.idempotency_key = header;
    else if (value.idempotency_key !== header) {
      throw ApiError.validation([{ field: 'idempotency_key', message: 'idempotency_key and the Idempotency-Key header differ' }]);
    }
  }
  const validate = source === 'query' ? compileText(def.schema) : compile(def.schema);
  if (!validate(value)) throw ApiError.validation(toFieldErrors(validate.errors, source));
  for (const alias of Object.keys(def.aliases ?? {})) delete value[alias];
  return value as Input;
}

function idempotencyKey(def: OperationDef, input: Input, ctx: OperationContext): Call['key'] {
  const field = def.idempotency?.by === 'reference_id' ? 'reference_id' : 'idempotency_key';
  const key = input[field];
  if (key === undefined) return null;
  return { scope: { accountId: ctx.accountId, environment: ctx.environment, operation: def.slug, key, field }, hash: requestHash(omitKey(input)) };
}

const omitKey = ({ idempotency_key: _, ...payload }: Input) => payload;

/** What route.ts needs: the two runners and what a handler may read. */
export interface OperationRoutes {
  sandbox: Runner;
  live: Runner;
  deps: OperationDeps;
  /** The cited consent_id's check, for every operation alike (CONTRACT §13). */
  consents: ConsentGate;
}

/** Who makes a call: the key's account and environment, and the id of this request. */
export interface Caller {
  accountId: string;
  environment: Environment;
  requestId: string;
  lane?: OperationContext['lane'];
  timing?: OperationContext['timing'];
}

/**
 * Everything between a validated input and its runner, for an HTTP request and a batch row alike: the
 * context, the cited consent's check (CONTRACT §13), the operation's refusals (admit, before any
 * record), the idempotency key (hashed before resolve() fills anything in), and resolve. Throws the
 * ApiErrors of the consent gate, admit and resolve.
 */
export async function prepareCall(def: OperationDef, routes: OperationRoutes, caller: Caller, input: Input, audit: RequestAudit): Promise<{ runner: Runner; call: Call }> {
  const runner = caller.environment === 'live' ? routes.live : routes.sandbox;
  const ctx: OperationContext = { ...caller, txnId: newId('txn', 20), connector: runner.connector(def), deps: routes.deps, afterRecord: [], withAnswer: [] };
  await routes.consents.check(def.slug, input, ctx);
  await def.admit?.(input, ctx);
  const key = idempotencyKey(def, input, ctx);
  await def.resolve?.(input, ctx);
  return { runner, call: { def, input, ctx, key, audit } };
}

/**
 * The validated input, and the request's audit value made once it is known, put on `req.audit` for
 * the hook (audit/hook.ts): with the input, or, when it is refused, with the body as sent.
 */
function auditedInput(def: OperationDef, req: FastifyRequest, reply: FastifyReply): { input: Input; audit: RequestAudit } {
  try {
    const input = parseInput(def, req);
    return { input, audit: (req.audit = requestAudit(req, reply, { dataClass: def.dataClass, input })) };
  } catch (err) {
    req.audit = requestAudit(req, reply, { dataClass: def.dataClass });
    throw err;
  }
}

/** The handler of an operation's route (src/routes/api/v1/operations.ts): from the request to the runner's answer, sent. */
export async function handleOperation(def: OperationDef, routes: OperationRoutes, req: FastifyRequest, reply: FastifyReply) {
  const auth = req.auth!;
  const { input, audit } = auditedInput(def, req, reply);
  const { runner, call } = await prepareCall(def, routes, { accountId: auth.accountId, environment: auth.environment, requestId: req.id, timing: req.timing }, input, audit);
  req.timing?.checked();
  const answer = await runner.run(call);
  if (answer.audited) req.audit = null; // its row went in with the record: the hook writes none
  if (answer.replayed) reply.header('idempotent-replayed', 'true');
  return reply.code(answer.status).type('application/json; charset=utf-8').send(answer.body);
}
