// Owns one request's audit row as a value: a RequestAudit, made once per request from what the request
// said (an HTTP request's by audit/hook.ts requestAudit, a batch row's by batches/engine.ts), handed to
// whatever writes the row (the onSend hook, the recorder with an operation's record, a batch), and
// completed there with the answer by answeredRow. Its bodies are redacted as the row is completed
// (redact.ts): full identity numbers and photos never reach the audit store.
import type { AuditRow } from './chain.js';
import type { DataClass } from './retention.js';
import type { Environment } from '../db/schema.js';
import { redact } from './redact.js';

/** What an audit row says of its request before the answer: plain data, nothing to look up later. */
export interface RequestAudit {
  request_id: string;
  account_id: string | null;
  key_id: string | null;
  environment: Environment | null;
  client_ip: string | null;
  method: string;
  /** The path, identity numbers masked. */
  path: string;
  operation: string | null;
  reference_id: string | null;
  /**
   * What the row shows as the request, redacted when the row is completed: an operation's validated
   * input (the object itself, so what resolve() fills in is shown too), else the body, else a
   * non-empty query string, else null.
   */
  request: unknown;
  /**
   * False for a read of the audit log: it is on record (who read what, and the outcome) but not its
   * answer, which would copy other rows' content into a row that neither retention by class nor an
   * erasure of their reference would find.
   */
  keepsAnswer: boolean;
  /** The operation's declared class; absent, it is derived from the row (retention.ts). */
  data_class?: DataClass;
  /** When the request began (performance.now()): the row's latency runs from here to its answer. */
  startedAt: number;
  /** The request's trace (tracing/), when traces are on; outside the row's hash. */
  trace_id?: string | null;
}

/** The row of a request answered with `status` and `body`, the answer's JSON (null when it has none: a stream). */
export function answeredRow(audit: RequestAudit, status: number, body: Record<string, unknown> | null): AuditRow {
  const { request, keepsAnswer, startedAt, ...facts } = audit;
  return {
    ...facts,
    created_at: new Date(),
    http_status: status,
    // A streamed answer (an export) has no envelope: its status says how it went.
    ok: body ? body.ok === true : status < 400,
    statuscode: typeof body?.statuscode === 'string' ? body.statuscode : null,
    latency_ms: performance.now() - startedAt,
    request_body: JSON.stringify(redact(request)),
    response_body: !keepsAnswer && status < 400 ? JSON.stringify(null) : JSON.stringify(redact(body)),
  };
}
