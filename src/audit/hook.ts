// Owns the audit row of every /api/v1 request: who, what, the outcome and the latency, with redacted
// bodies. It is written (group-committed) before the response leaves, so what a client was told is
// always on record: by the onSend hook here (or, for a router error, which no hook sees, by
// http/error-handler.ts through recordAnswer), or, for an operation's answer, with the operation's
// record (operations/recorder.ts, live-runner.ts). The row is a value (audit/row.ts RequestAudit)
// made once per request by requestAudit: an operation route makes it as soon as the input is
// validated (or refused), with the operation's data class, and hands it to its runner and, on
// `req.audit`, to this hook; any other request's is made here from the request as it is answered.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuditWriter } from './writer.js';
import type { DataClass } from './retention.js';
import { redactUrl } from './redact.js';
import { answeredRow, type RequestAudit } from './row.js';
import { activeTraceId } from '../tracing/index.js';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * An operation call's audit value (operations/route.ts), from which the hook completes its row;
     * null once the row went in with the operation's record (nothing more is written). Absent for
     * other requests.
     */
    audit?: RequestAudit | null;
  }
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

/**
 * The audit value of a request, from what it said so far; an operation's with its declared class and,
 * once validated, its input (the row shows it rather than the raw body).
 */
export function requestAudit(req: FastifyRequest, reply: FastifyReply, operation?: { dataClass: DataClass; input?: Record<string, unknown> }): RequestAudit {
  const input = operation?.input;
  const traceId = activeTraceId();
  const reference = referenceOf(req, input);
  return {
    request_id: req.id,
    account_id: req.auth?.accountId ?? null,
    key_id: req.auth?.keyId ?? null,
    environment: req.auth?.environment ?? null,
    client_ip: req.ip,
    method: req.method,
    path: redactUrl(req.url.split('?')[0]!, reference),
    operation: req.routeOptions.config.operation ?? null,
    reference_id: reference,
    // A router error's request (error-handler.ts) has no parsed query: null, not {}.
    request: input ?? req.body ?? (Object.keys(req.query ?? {}).length ? req.query : null),
    keepsAnswer: !req.url.startsWith(AUDIT_READS),
    ...(operation && { data_class: operation.dataClass }),
    startedAt: performance.now() - reply.elapsedTime,
    ...(traceId && { trace_id: traceId }),
  };
}

function parsePayload(payload: unknown): Record<string, unknown> | null {
  if (typeof payload !== 'string') return null;
  try {
    return JSON.parse(payload) as Record<string, unknown>;
  } catch {
    return null;
  }
}

/**
 * Writes the row of a request answered with `status` and `payload` (its operation's value completed,
 * or one made now), if it is an /api/v1 request whose row is not on record already.
 */
export async function recordAnswer(writer: AuditWriter, req: FastifyRequest, reply: FastifyReply, status: number, payload: unknown): Promise<void> {
  if (!req.url.startsWith('/api/v1/') || req.audit === null) return;
  try {
    await writer.write(answeredRow(req.audit ?? requestAudit(req, reply), status, parsePayload(payload)));
  } catch (err) {
    // The operation already happened; failing the response would hide its outcome from the client.
    req.log.error({ err, request_id: req.id }, 'audit write failed');
  }
}

export function registerAuditHook(app: FastifyInstance, writer: AuditWriter): void {
  app.decorateRequest('audit', undefined);
  app.addHook('onSend', async (req, reply, payload) => {
    await recordAnswer(writer, req, reply, reply.statusCode, payload);
    return payload;
  });
}
