// Owns the audit row of every /api/v1 request: who, what, the outcome and the latency, with redacted
// bodies. It is written (group-committed) before the response leaves, so what a client was told is
// always on record.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuditWriter } from './writer.js';
import { redact } from './redact.js';

const REFERENCE = /^[A-Za-z0-9._:-]{1,64}$/;

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

export function registerAuditHook(app: FastifyInstance, writer: AuditWriter): void {
  app.addHook('onSend', async (req, reply, payload) => {
    if (!req.url.startsWith('/api/v1/')) return payload;
    const body = parsePayload(payload);
    const path = req.url.split('?')[0]!;
    try {
      await writer.write({
        request_id: req.id,
        created_at: new Date(),
        account_id: req.auth?.accountId ?? null,
        key_id: req.auth?.keyId ?? null,
        environment: req.auth?.environment ?? null,
        client_ip: req.ip,
        method: req.method,
        path,
        operation: (req.routeOptions.config as { operation?: string }).operation ?? null,
        http_status: reply.statusCode,
        ok: body?.ok === true,
        statuscode: typeof body?.statuscode === 'string' ? body.statuscode : null,
        reference_id: referenceOf(req),
        latency_ms: reply.elapsedTime,
        request_body: JSON.stringify(redact(req.auditInput ?? req.body ?? (Object.keys(req.query as object).length ? req.query : null))),
        response_body: JSON.stringify(redact(body)),
      });
    } catch (err) {
      // The operation already happened; failing the response would hide its outcome from the client.
      req.log.error({ err, request_id: req.id }, 'audit write failed');
    }
    return payload;
  });
}
