// Owns JSON bodies on GET requests. Fastify does not parse a GET body, but the seed's GET operation
// (upi-payment-status) may carry its fields in one, so this hook reads and parses it with the same
// limits and protections as any other body.
import type { FastifyRequest } from 'fastify';
import sjson from 'secure-json-parse';
import { ApiError } from '../errors.js';

const LIMIT = 64 * 1024;

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
  try {
    req.body = sjson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (err) {
    throw new ApiError(
      'invalid_json',
      /prototype|constructor/i.test((err as Error).message) ? 'Request body contains a forbidden key (__proto__ or constructor.prototype)' : 'Request body is not valid JSON',
    );
  }
}
