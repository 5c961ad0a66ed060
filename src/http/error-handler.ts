// Owns the one place where errors become HTTP answers: ApiError as it is, Fastify's own errors
// (bad JSON, media type, size, validation) mapped to the contract's codes, router errors (a path that
// is not valid percent-encoding, an over-long path parameter), unknown paths to 404 and known paths
// with the wrong method to 405 — all in the envelope, with the request id. What Node's HTTP parser
// refuses before the app runs gets the envelope too, written straight to the socket. Anything else is
// a 500 that says nothing internal.
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { ApiError } from '../errors.js';
import { errorEnvelope } from './envelope.js';
import { toFieldErrors } from './validation.js';
import { randomBase62 } from '../ids.js';

const FASTIFY_CODES: Record<string, (e: FastifyError) => ApiError> = {
  FST_ERR_CTP_BODY_TOO_LARGE: () => new ApiError('body_too_large', 'Request body is larger than this endpoint accepts'),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () => new ApiError('unsupported_media_type', 'Content-Type must be application/json'),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => new ApiError('invalid_json', 'Content-Length does not match the body'),
  FST_ERR_CTP_EMPTY_JSON_BODY: () => new ApiError('invalid_json', 'Request body is empty; send a JSON object'),
  FST_ERR_CTP_INVALID_JSON_BODY: () => new ApiError('invalid_json', 'Request body is not valid JSON'),
};

export function toApiError(err: unknown): ApiError | null {
  if (err instanceof ApiError) return err;
  const e = err as FastifyError;
  if (e?.validation) return ApiError.validation(toFieldErrors(e.validation, e.validationContext ?? 'body'));
  const byCode = e?.code ? FASTIFY_CODES[e.code] : undefined;
  if (byCode) return byCode(e);
  if (e instanceof SyntaxError || (e?.statusCode === 400 && /JSON|prototype|constructor/i.test(e.message ?? ''))) {
    return new ApiError('invalid_json', /prototype|constructor/i.test(e.message) ? 'Request body contains a forbidden key (__proto__ or constructor.prototype)' : 'Request body is not valid JSON');
  }
  if (e?.statusCode === 413) return new ApiError('body_too_large', 'Request body is larger than this endpoint accepts');
  if (e?.statusCode === 415) return new ApiError('unsupported_media_type', 'Content-Type must be application/json');
  return null;
}

export function sendError(req: FastifyRequest, reply: FastifyReply, err: ApiError) {
  if (err.extra.headers) reply.headers(err.extra.headers);
  reply.header('x-request-id', req.id);
  return reply.code(err.http).type('application/json; charset=utf-8').send(errorEnvelope(err, req.id));
}

/** Records an answer that no onSend hook will see (the audit row, audit/hook.ts). */
export type RecordAnswer = (req: FastifyRequest, reply: FastifyReply, status: number, payload: string) => Promise<void>;

/**
 * Fastify's `frameworkErrors`: errors its router raises before any route or hook runs. The request
 * lives on a bare context with no hooks, so its audit row is recorded here, before the answer leaves.
 */
export function frameworkErrors(record: RecordAnswer) {
  return async (err: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
    const apiErr =
      err.code === 'FST_ERR_BAD_URL'
        ? ApiError.validation([{ field: 'path', message: 'the path is not valid percent-encoded UTF-8' }])
        : err.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? new ApiError('not_found', 'No such resource: a path parameter is longer than any identifier we issue')
          : new ApiError('internal', 'Internal error; the request id identifies it to support');
    await record(req, reply, apiErr.http, JSON.stringify(errorEnvelope(apiErr, req.id)));
    return sendError(req, reply, apiErr);
  };
}

/**
 * Node's `clientError`: the request could not be parsed (a NUL in a header, a negative Content-Length,
 * headers over the size limit). No route ran, so the answer is written to the socket directly; a
 * socket already closed or half-written can only be dropped.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed || !socket.writable || (socket as Socket & { _httpMessage?: unknown })._httpMessage) {
    socket.destroy();
    return;
  }
  const id = `req_${randomBase62(20)}`;
  const [status, reason, message] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'Request headers are larger than the server accepts']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'The request was not received in time']
        : [400, 'Bad Request', 'Malformed HTTP request: it could not be parsed'];
  const body = JSON.stringify(errorEnvelope(new ApiError('invalid_json', message), id));
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${id}\r\nConnection: close\r\n\r\n${body}`,
  );
}

export function registerErrorHandling(app: FastifyInstance): void {
  // A second router with every route, to tell "wrong method" (405) from "no such path" (404).
  const routes = FindMyWay({ ignoreTrailingSlash: true });
  const methods = new Map<string, Set<string>>();
  app.addHook('onRoute', (r) => {
    if (r.url.startsWith('/api/v1/')) {
      if (!methods.has(r.url)) {
        methods.set(r.url, new Set());
        routes.all(r.url, () => {}, { url: r.url });
      }
      for (const m of [r.method].flat()) methods.get(r.url)!.add(m);
    }
  });

  const noRoute = (req: FastifyRequest, reply: FastifyReply) => {
    const path = req.url.split('?')[0]!;
    const found = routes.find(req.method as HTTPMethod, path) ?? routes.find('GET', path);
    const allowed = found ? methods.get((found.store as { url: string }).url) : undefined;
    if (allowed && !allowed.has(req.method)) {
      const allow = [...allowed].filter((m) => m !== 'HEAD').join(', ');
      return sendError(req, reply, new ApiError('method_not_allowed', `${req.method} is not allowed here; use ${allow}`, { headers: { allow } }));
    }
    return sendError(req, reply, new ApiError('not_found', `No route for ${req.method} ${path}`));
  };

  app.setErrorHandler((err, req, reply) => {
    // A method Fastify knows but no route serves (QUERY…), sent without a Content-Type, fails while
    // the not-found route reads its body: it is still "no such route" or "wrong method".
    if ((err as FastifyError).code === 'FST_ERR_ROUTE_MISSING_CONTENT_TYPE') return noRoute(req, reply);
    const apiErr = toApiError(err);
    const takes = req.routeOptions.config?.mediaTypes;
    // The shared message names JSON; a route that takes uploads too names all it takes.
    if (apiErr?.code === 'unsupported_media_type' && takes) return sendError(req, reply, new ApiError('unsupported_media_type', `Content-Type must be one of ${takes.join(', ')}`));
    if (apiErr) return sendError(req, reply, apiErr);
    req.log.error({ err }, 'unhandled error');
    return sendError(req, reply, new ApiError('internal', 'Internal error; the request id identifies it to support'));
  });

  app.setNotFoundHandler(noRoute);
}
