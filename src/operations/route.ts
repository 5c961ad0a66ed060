// Owns the path every operation request takes: pick the input (JSON body, or query string for the
// GET operation), resolve aliases, validate against the operation's one schema, let the operation
// refuse what the caller may not name (admit, before any record), then record and
// execute: in the sandbox, execute and record the transaction with its idempotency key, stored
// response and audit row in one group-committed transaction (recorder.ts); in live, the atomic phases
// of live.ts. A key already taken is settled by IdempotencyStore.claim(). Answers with the envelope.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';
import { newId } from '../ids.js';
import { resultEnvelope } from '../http/envelope.js';
import { responses, ResultEnvelope } from '../http/responses.js';
import { readJsonBody } from '../http/json-body.js';
import { requestHash, type Claim, type IdemScope } from '../http/idempotency.js';
import { compile, compileText, toFieldErrors } from '../http/validation.js';
import type { Services } from '../services.js';
import type { OperationContext, OperationDef } from './operation.js';
import { liveRecording, resumeLive, runLive } from './live.js';
import type { Recorded, Recording } from './recorder.js';
import { headersDoc, OPERATION_ERRORS, requestDoc } from './document.js';
import type { TxRow } from '../transactions/store.js';
import { auditRowOf } from '../audit/hook.js';

type Input = Record<string, unknown> & { reference_id: string; idempotency_key?: string };

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
  if (!isPlainObject(value)) throw ApiError.validation([{ field: 'body', message: 'the request body must be a JSON object' }]);
  // An alias stays until the schema has checked it (it declares the alias's rules too), so a bad alias
  // beside its canonical field is a 422 naming it, as the published document says.
  for (const [alias, canonical] of Object.entries(def.aliases ?? {})) {
    if (value[canonical] === undefined && value[alias] !== undefined) value[canonical] = value[alias];
  }
  const header = req.headers['idempotency-key'];
  if (def.idempotency?.by === 'idempotency_key' && typeof header === 'string') {
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

function idempotencyScope(def: OperationDef, input: Input, ctx: { accountId: string; environment: OperationContext['environment'] }): IdemScope | null {
  const field = def.idempotency?.by === 'reference_id' ? 'reference_id' : 'idempotency_key';
  const key = input[field];
  return key === undefined ? null : { accountId: ctx.accountId, environment: ctx.environment, operation: def.slug, key, field };
}

const send = (reply: FastifyReply, status: number, body: string) =>
  reply.code(status).type('application/json; charset=utf-8').send(body);

async function handle(def: OperationDef, services: Services, req: FastifyRequest, reply: FastifyReply) {
  const auth = req.auth!;
  const input = parseInput(def, req);
  req.auditInput = input;
  const ctx: OperationContext = {
    accountId: auth.accountId,
    environment: auth.environment,
    requestId: req.id,
    txnId: newId('txn', 20),
    services,
    afterRecord: [],
  };
  await def.admit?.(input, ctx);
  const hydrate = (data: Record<string, unknown>) => (def.unstored ? def.unstored.hydrate(data, ctx.environment) : data);

  const scope = idempotencyScope(def, input, ctx);
  const hash = scope ? requestHash(omitKey(input)) : '';
  await def.resolve?.(input, ctx);
  const replay = (claim: Extract<Claim, { kind: 'replay' }>) => {
    reply.header('idempotent-replayed', 'true');
    if (!def.unstored) return send(reply, claim.status, claim.body);
    const env = JSON.parse(claim.body) as { data: Record<string, unknown> };
    return send(reply, claim.status, JSON.stringify({ ...env, data: hydrate(env.data) }));
  };

  /**
   * Records through the group commit. A key already taken is settled by claim(): a replay, a 422/107
   * or 409/106 (thrown), or the take-over of a crashed holder's claim (with the live transaction it
   * had started, if any).
   */
  const record = async (recording: Recording): Promise<Extract<Recorded, { kind: 'recorded' }> | Claim> => {
    const first = await services.recorder.record(recording);
    if (first.kind === 'recorded') return first;
    if (!scope) throw new Error('only a keyed recording can find its key taken');
    const claim = await services.idempotency.claim(scope, hash);
    if (claim.kind === 'replay' || claim.txnId) return claim;
    await services.idempotency.release(scope); // a crashed holder's claim with nothing started: record afresh
    const again = await services.recorder.record(recording);
    if (again.kind === 'recorded') return again;
    throw inFlight();
  };
  const key = scope && { scope, hash };

  if (ctx.environment === 'live') {
    const recorded = await record(await liveRecording(def, input, ctx, key));
    if (recorded.kind === 'replay') return replay(recorded);
    if (recorded.kind === 'claimed') {
      ctx.txnId = recorded.txnId!; // a crashed attempt's transaction: answer it, never start a second one
      return send(reply, 200, (await resumeLive(ctx, scope!)).body);
    }
    try {
      const { body } = await runLive(def, input, ctx, scope, (answer) => auditRowOf(req, 200, reply.elapsedTime, answer));
      req.audited = true;
      return send(reply, 200, body);
    } catch (err) {
      // Known failures happened before any effect: free the key for a retry. After an unknown failure
      // the transaction may be under way: the claim stays, and a retry after its lock answers it.
      if (scope && err instanceof ApiError) {
        await services.idempotency.release(scope).catch((e: unknown) => req.log.error({ err: e }, 'idempotency release failed'));
      }
      throw err;
    }
  }

  // Sandbox: no partner call sits between the claim and the effect, so the key is recorded as done,
  // with its response, together with the transaction row. A concurrent duplicate finds the key taken
  // and replays the first answer.
  const outcome = await def.execute(input, ctx);
  const strip = def.unstored?.strip;
  const answer = (r: TxRow) => JSON.stringify(resultEnvelope(r.status, outcome.message, r.result, req.id));
  const recorded = await record({
    tx: {
      id: ctx.txnId,
      accountId: ctx.accountId,
      environment: ctx.environment,
      operation: def.slug,
      referenceId: input.reference_id,
      amountPaise: def.amountPaise?.(input) ?? null,
      outcome,
      strip,
    },
    key: key && { ...key, response: (r) => JSON.stringify(resultEnvelope(r.status, outcome.message, strip ? strip(r.result) : r.result, req.id)) },
    // The answer is decided here, so its audit row is stored with the record, in the same transaction.
    audit: (r) => auditRowOf(req, 200, reply.elapsedTime, answer(r)),
    afterRecord: ctx.afterRecord,
  });
  if (recorded.kind === 'replay') return replay(recorded);
  if (recorded.kind === 'claimed') throw inFlight(); // sandbox keys are never left in flight
  const row = recorded.row;
  req.audited = true;
  if (outcome.settle) services.finalizer.wake(row.created_at.getTime() + outcome.settle.after_ms);
  return send(reply, 200, answer(row));
}

const inFlight = () => new ApiError('idempotency_in_flight', 'A request with this idempotency key is still being processed; retry shortly');

const omitKey = ({ idempotency_key: _, ...payload }: Input) => payload;

export function registerOperation(app: FastifyInstance, def: OperationDef, services: Services): void {
  const methods = def.method === 'GET' ? (['GET', 'POST'] as const) : (['POST'] as const);
  const request = requestDoc(def);
  const headers = headersDoc(def);
  const response = responses(
    ResultEnvelope(def.result, 'The result: TXN success, TUP pending, or ERR business failure (HTTP 200, Errorcode 120)'),
    { replayable: true, errors: OPERATION_ERRORS },
  );
  for (const method of methods) {
    app.route({
      method,
      url: def.path,
      bodyLimit: def.bodyLimit,
      config: { operation: def.slug },
      schema: {
        operationId: method === def.method ? def.operationId : `${def.operationId}Post`,
        summary: method === def.method ? def.summary : `${def.summary} (POST alias)`,
        description: def.description,
        tags: [def.tag],
        ...(method === 'GET' ? { querystring: request } : { body: request }),
        ...(headers && { headers }),
        response,
      },
      // The schema above documents the operation; parseInput validates it (aliases and query/body choice
      // need the raw input), so Fastify's own validation is switched off for these routes, and answers
      // are never filtered through the documented response.
      validatorCompiler: () => () => true,
      serializerCompiler: () => (data) => JSON.stringify(data),
      preValidation: method === 'GET' ? readJsonBody : undefined,
      handler: (req, reply) => handle(def, services, req, reply),
    });
  }
}
