// Owns how JSON bodies are read. One parser for every route: secure-json-parse (no __proto__ or
// constructor.prototype keys), and an empty body is "no body" where a route has none to require — a
// DELETE, or a POST whose fields are all optional (`bodyOptional` in its route config) — because
// many HTTP wrappers send `Content-Type: application/json` on every request. Elsewhere an empty body
// is a 400. Fastify does not parse a GET body, but the seed's GET operation (upi-payment-status) may
// carry its fields in one, so readJsonBody reads it with the same limits and protections.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import sjson from 'secure-json-parse';
import { ApiError } from '../errors.js';

const LIMIT = 64 * 1024;

const parseJson = (text: string): unknown => {
  try {
    return sjson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (err) {
    throw new ApiError(
      'invalid_json',
      /prototype|constructor/i.test((err as Error).message) ? 'Request body contains a forbidden key (__proto__ or constructor.prototype)' : 'Request body is not valid JSON',
    );
  }
};

const bodyOptional = (req: FastifyRequest) => req.method === 'DELETE' || req.routeOptions.config.bodyOptional === true;

export function registerJsonParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, text, done) => {
    try {
      const body = text as string;
      if (body.trim() === '') {
        if (bodyOptional(req)) return done(null, undefined);
        return done(new ApiError('invalid_json', 'Request body is empty; send a JSON object'), undefined);
      }
      done(null, parseJson(body));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
  // A bodyless POST to a route whose fields are all optional validates as an empty object.
  app.addHook('preValidation', async (req) => {
    if (req.body === undefined && req.routeOptions.config.bodyOptional) req.body = {};
  });
}

export async function readJsonBody(req: FastifyRequest): Promise<void> {
  const length = Number(req.headers['content-length'] ?? 0);
  if (!(length > 0) && req.headers['transfer-encoding'] === undefined) return;
  const type = String(req.headers['content-type'] ?? '');
  if (!/^application\/json\s*(;|$)/i.test(type)) throw new ApiError('unsupported_media_type', 'Content-Type must be application/json');
  if (length > LIMIT) throw new ApiError('body_too_large', 'Request body is larger than this endpoint accepts');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req.raw as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > LIMIT) throw new ApiError('body_too_large', 'Request body is larger than this endpoint accepts');
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return;
  req.body = parseJson(text);
}
