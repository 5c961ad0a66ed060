// Owns the span of every HTTP request, registered only when traces are on (app.ts): started as the
// request arrives, a child of the caller's W3C `traceparent` when it sent one, named `<METHOD> <route
// pattern>` once routed, and ended with the answer's status, the operation, the key's environment and
// the request id. Nothing of what the request carries (a body, a query string, a header, a key) is on
// it. The request runs in the span's context (from the first hook, and again once the body is read,
// which happens on the socket's own context), so the store statements, group commits and partner calls
// it causes are its children; its logger binds trace_id and span_id beside reqId.
import type { FastifyInstance } from 'fastify';
import { runIn, SpanStatusCode, startRequestSpan, traceLogFields, type Context, type Span } from '../tracing/index.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's span and the context it runs in (traces on). */
    trace?: { span: Span; ctx: Context };
  }
}

export function registerTracing(app: FastifyInstance): void {
  app.decorateRequest('trace', undefined);
  app.addHook('onRequest', (req, reply, done) => {
    req.trace = startRequestSpan(req.method, req.headers);
    req.log = reply.log = req.log.child(traceLogFields(req.trace.span));
    runIn(req.trace.ctx, done);
  });
  app.addHook('preValidation', (req, _reply, done) => {
    if (req.trace) runIn(req.trace.ctx, done);
    else done();
  });
  app.addHook('onResponse', async (req, reply) => {
    if (!req.trace) return;
    const { span } = req.trace;
    const route = req.routeOptions.url;
    if (route) span.updateName(`${req.method} ${route}`);
    const { operation } = req.routeOptions.config;
    span.setAttributes({
      'http.response.status_code': reply.statusCode,
      'sangam.request_id': req.id,
      ...(route && { 'http.route': route }),
      ...(operation && { 'sangam.operation': operation }),
      ...(req.auth && { 'sangam.environment': req.auth.environment }),
    });
    if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  });
}
