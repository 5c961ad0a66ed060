// Owns the service's traces as the code sees them: the few spans it makes by hand at its chokepoints
// (a request, a store statement, a group commit, a partner call, a webhook delivery, a background
// worker's tick), their names and attributes, and starting and stopping the SDK. Only the OpenTelemetry
// API is loaded here: until startTracing() installs a provider (OTEL_EXPORTER_OTLP_ENDPOINT set), every
// span is the API's no-op and costs next to nothing; the SDK (sdk.ts) is imported only then.
// Attributes are names, kinds, counts and outcomes: never a body, a parameter, a key, a mobile or an
// identity number.
import { context, isSpanContextValid, propagation, trace, ROOT_CONTEXT, SpanKind, SpanStatusCode, type Attributes, type Context, type Link, type Span } from '@opentelemetry/api';
import type { Config } from '../config.js';

export { SpanKind, SpanStatusCode };
export type { Context, Span };

const tracer = () => trace.getTracer('sangam');

export interface SpanOptions {
  /** A new trace rather than a child of the active span (a background worker's tick). */
  root?: boolean;
  kind?: SpanKind;
  /** The span to make this one a child of (default: the active one). */
  parent?: Context;
  links?: Link[];
}

/**
 * Runs `fn` inside a new span, active while it runs, ended when it settles. A failure marks the span as
 * an error by the error's class name only: an error's message may quote what a caller sent.
 */
export async function inSpan<T>(name: string, attributes: Attributes, fn: (span: Span) => Promise<T>, opts: SpanOptions = {}): Promise<T> {
  const { parent = context.active(), ...options } = opts;
  return tracer().startActiveSpan(name, { attributes, ...options }, parent, async (span) => {
    try {
      return await fn(span);
    } catch (err) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error)?.name ?? 'Error' });
      throw err;
    } finally {
      span.end();
    }
  });
}

/**
 * Starts the span of an HTTP request (named by its method until its route is known), a child of the
 * caller's W3C `traceparent` when it sent one; answers the span and the context to run the request in.
 */
export function startRequestSpan(method: string, headers: Record<string, unknown>): { span: Span; ctx: Context } {
  const parent = propagation.extract(ROOT_CONTEXT, headers);
  const span = tracer().startSpan(method, { kind: SpanKind.SERVER, attributes: { 'http.request.method': method } }, parent);
  return { span, ctx: trace.setSpan(parent, span) };
}

/** Runs `fn` (and whatever it starts) in `ctx`. */
export const runIn = <T>(ctx: Context, fn: () => T): T => context.with(ctx, fn);

/** The context a span started now would be a child of (kept by whoever runs the work later: a group commit). */
export const activeContext = (): Context => context.active();

/** The active span's trace id, or null outside any trace (tracing off, or no span). */
export function activeTraceId(): string | null {
  const ids = trace.getActiveSpan()?.spanContext();
  return ids && isSpanContextValid(ids) ? ids.traceId : null;
}

/** A request logger's trace_id and span_id, bound beside its reqId (http/tracing.ts). */
export function traceLogFields(span: Span): { trace_id: string; span_id: string } {
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

/** The statement kind and first table of a SQL text, for a store statement's span: never its parameters or literals. */
export function statementOf(sqlText: string): { kind: string; table: string | null } {
  const kind = /^\s*\(?\s*([a-z]+)/i.exec(sqlText)?.[1]?.toUpperCase() ?? 'SQL';
  const ident = (re: RegExp) => re.exec(sqlText)?.[1] ?? null;
  const table = ident(/\b(?:into|update)\s+"?([a-z_][a-z0-9_]*)/i) ?? ident(/\bfrom\s+"?(?!rows\b)([a-z_][a-z0-9_]*)/i);
  return { kind, table };
}

/** A store statement that took `ms` and just finished (Kysely's log hook): a span ending now, child of the active one. */
export function statementSpan(sqlText: string, ms: number, failed: boolean): void {
  const parent = trace.getActiveSpan();
  if (!parent?.isRecording()) return; // no trace to add to: not even the name is worked out
  const { kind, table } = statementOf(sqlText);
  const end = Date.now();
  const span = tracer().startSpan(table ? `${kind} ${table}` : kind, {
    startTime: end - ms,
    attributes: { 'db.system': 'postgresql', 'db.system.name': 'postgresql', 'db.operation.name': kind, ...(table && { 'db.collection.name': table }) },
  });
  if (failed) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end(end);
}

/** The link of one item of a group commit to the request that submitted it. */
export function linkTo(ctx: Context): Link[] {
  const span = trace.getSpan(ctx);
  return span?.isRecording() ? [{ context: span.spanContext() }] : [];
}

/** Stops tracing: flushes the spans not yet sent. */
export type StopTracing = () => Promise<void>;

/** Starts the SDK when traces are configured (lazily imported, so a server without them never loads it). */
export async function startTracing(traces: Config['traces']): Promise<StopTracing> {
  if (!traces) return async () => {};
  const { startSdk } = await import('./sdk.js');
  return startSdk(traces);
}
