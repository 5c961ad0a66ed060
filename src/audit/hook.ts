// Owns the audit row of every /api/v1 request: who, what, the outcome and the latency, with redacted
// bodies. It is written (group-committed) before the response leaves, so what a client was told is
// always on record: by the onSend hook here (or, for a router error, which no hook sees, by
// http/error-handler.ts through recordAnswer), or, for a sandbox operation's answer, in the same
// database transaction as the operation's record (operations/recorder.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuditRow, AuditWriter } from './writer.js';
import { redact, redactUrl } from './redact.js';

const REFERENCE = /^[A-Za-z0-9._:-]{1,64}$/;
const AUDIT_READS = '/api/v1/audit-logs';

/** The reference an operation call (or a transaction lookup) was about; other routes have none. */
function referenceOf(req: FastifyRequest): string | null {
  const params = req.params as Record<string, unknown> | undefined;
  const candidates = req.routeOptions.config.operation
    ? [req.auditInput?.reference_id, (req.body as Record<string, unknown> | undefined)?.reference_id, (req.query as Record<string, unknown>)?.reference_id]
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
export function auditRowOf(req: FastifyRequest, status: number, latencyMs: number, payload: unknown): AuditRow {
  const body = parsePayload(payload);
  return {
    request_id: req.id,
    created_at: new Date(),
    account_id: req.auth?.accountId ?? null,
    key_id: req.auth?.keyId ?? null,
    environment: req.auth?.environment ?? null,
    client_ip: req.ip,
    method: req.method,
    path: redactUrl(req.url.split('?')[0]!),
    operation: req.routeOptions.config.operation ?? null,
    http_status: status,
    // A streamed answer (an export) has no envelope: its status says how it went.
    ok: body ? body.ok === true : status < 400,
    statuscode: typeof body?.statuscode === 'string' ? body.statuscode : null,
    reference_id: referenceOf(req),
    latency_ms: latencyMs,
    // A router error's request (error-handler.ts) has no parsed query: null, not {}.
    request_body: JSON.stringify(redact(req.auditInput ?? req.body ?? (Object.keys(req.query ?? {}).length ? req.query : null))),
    // A read of the audit log is on record (who read what, and the outcome) but not its answer: that
    // would copy other rows' content into a row that neither retention by class nor an erasure of their
    // reference would find.
    response_body: req.url.startsWith(AUDIT_READS) && status < 400 ? JSON.stringify(null) : JSON.stringify(redact(body)),
  };
}

/** Writes the row of a request answered with `status` and `payload`, if it is an /api/v1 request. */
export async function recordAnswer(writer: AuditWriter, req: FastifyRequest, reply: FastifyReply, status: number, payload: unknown): Promise<void> {
  if (!req.url.startsWith('/api/v1/')) return;
  try {
    await writer.write(auditRowOf(req, status, reply.elapsedTime, payload));
  } catch (err) {
    // The operation already happened; failing the response would hide its outcome from the client.
    req.log.error({ err, request_id: req.id }, 'audit write failed');
  }
}

export function registerAuditHook(app: FastifyInstance, writer: AuditWriter): void {
  app.addHook('onSend', async (req, reply, payload) => {
    // Rows recorded with the operation itself (recorder.ts) are not written twice.
    if (!req.audited) await recordAnswer(writer, req, reply, reply.statusCode, payload);
    return payload;
  });
}
