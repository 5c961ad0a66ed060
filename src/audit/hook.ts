// Owns the audit row of every /api/v1 request: who, what, the outcome and the latency, with redacted
// bodies. It is written (group-committed) before the response leaves, so what a client was told is
// always on record: by the onSend hook here (or, for a router error, which no hook sees, by
// http/error-handler.ts through recordAnswer), or, for a sandbox operation's answer, in the same
// database transaction as the operation's record (operations/recorder.ts). What the request path
// learns that the row needs (the validated input; that the row went in with the record) is a
// RequestAudit value the operation route holds and hands to its runner, not flags on the request.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuditRow, AuditWriter } from './writer.js';
import type { DataClass } from './retention.js';
import { redact, redactUrl } from './redact.js';

/** One operation request's audit facts, passed along by value from the route to its runner. */
export class RequestAudit {
  /** The validated, normalised input, once known: the row shows it rather than the raw body. */
  input?: Record<string, unknown>;
  /** True once the row was stored with the operation's record: the onSend hook then writes none. */
  recorded = false;

  constructor(
    private req: FastifyRequest,
    private reply: FastifyReply,
    private dataClass: DataClass,
  ) {}

  /** The row of this request answered with `status` and the JSON text `payload`. */
  row(status: number, payload: unknown): AuditRow {
    return { ...auditRowOf(this.req, status, this.reply.elapsedTime, payload, this.input), data_class: this.dataClass };
  }
}

const operationAudits = new WeakMap<FastifyRequest, RequestAudit>();

/** The audit value of an operation request, known to the hook too (an error's row still shows the input). */
export function auditOperation(req: FastifyRequest, reply: FastifyReply, dataClass: DataClass): RequestAudit {
  const audit = new RequestAudit(req, reply, dataClass);
  operationAudits.set(req, audit);
  return audit;
}

const REFERENCE = /^[A-Za-z0-9._:-]{1,64}$/;
const AUDIT_READS = '/api/v1/audit-logs';

/** The reference an operation call (or a transaction lookup) was about; other routes have none. */
function referenceOf(req: FastifyRequest, input: Record<string, unknown> | undefined): string | null {
  const params = req.params as Record<string, unknown> | undefined;
  const candidates = req.routeOptions.config.operation
    ? [input?.reference_id, (req.body as Record<string, unknown> | undefined)?.reference_id, (req.query as Record<string, unknown>)?.reference_id]
    : [params?.reference_id];
  for (const c of candidates) if (typeof c === 'string' && REFERENCE.test(c)) return c;
  return null;
}

function parsePayload(payload: unknown): Record<string, unknown> | null {
  if (typeof payload !== 'string') return null;
  try {
    return JSON.parse(payload) as Record<string, unknown>;
  } catch {
    return null;
  }
}

/** The audit row of a request answered with `status` and the JSON text `payload`. */
export function auditRowOf(req: FastifyRequest, status: number, latencyMs: number, payload: unknown, input?: Record<string, unknown>): AuditRow {
  const body = parsePayload(payload);
  const reference = referenceOf(req, input);
  return {
    request_id: req.id,
    created_at: new Date(),
    account_id: req.auth?.accountId ?? null,
    key_id: req.auth?.keyId ?? null,
    environment: req.auth?.environment ?? null,
    client_ip: req.ip,
    method: req.method,
    path: redactUrl(req.url.split('?')[0]!, reference),
    operation: req.routeOptions.config.operation ?? null,
    http_status: status,
    // A streamed answer (an export) has no envelope: its status says how it went.
    ok: body ? body.ok === true : status < 400,
    statuscode: typeof body?.statuscode === 'string' ? body.statuscode : null,
    reference_id: reference,
    latency_ms: latencyMs,
    // A router error's request (error-handler.ts) has no parsed query: null, not {}.
    request_body: JSON.stringify(redact(input ?? req.body ?? (Object.keys(req.query ?? {}).length ? req.query : null))),
    // A read of the audit log is on record (who read what, and the outcome) but not its answer: that
    // would copy other rows' content into a row that neither retention by class nor an erasure of their
    // reference would find.
    response_body: req.url.startsWith(AUDIT_READS) && status < 400 ? JSON.stringify(null) : JSON.stringify(redact(body)),
  };
}

/** Writes the row of a request answered with `status` and `payload`, if it is an /api/v1 request. */
export async function recordAnswer(writer: AuditWriter, req: FastifyRequest, reply: FastifyReply, status: number, payload: unknown): Promise<void> {
  if (!req.url.startsWith('/api/v1/')) return;
  const audit = operationAudits.get(req);
  try {
    await writer.write(audit ? audit.row(status, payload) : auditRowOf(req, status, reply.elapsedTime, payload));
  } catch (err) {
    // The operation already happened; failing the response would hide its outcome from the client.
    req.log.error({ err, request_id: req.id }, 'audit write failed');
  }
}

export function registerAuditHook(app: FastifyInstance, writer: AuditWriter): void {
  app.addHook('onSend', async (req, reply, payload) => {
    // Rows recorded with the operation itself (recorder.ts) are not written twice.
    if (!operationAudits.get(req)?.recorded) await recordAnswer(writer, req, reply, reply.statusCode, payload);
    return payload;
  });
}
