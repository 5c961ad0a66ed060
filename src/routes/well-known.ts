// Owns GET /.well-known/jwks.json: the consent receipt key as the bare JWK Set standard JOSE tools fetch,
// public and limited per client IP like GET /api/v1/consents/public-key (routes/api/v1/consents.ts).
import type { FastifyInstance } from 'fastify';
import { responses } from '../http/responses.js';
import { jwks } from '../consents/receipt.js';
import { JWKS_CACHE_CONTROL, JwkSet, PUBLIC, TAGS, type ReceiptKeyRouteDeps } from './api/v1/consents.js';

export function registerWellKnown(app: FastifyInstance, deps: ReceiptKeyRouteDeps): void {
  const text = JSON.stringify(jwks(deps.receiptKey));
  app.get(
    '/.well-known/jwks.json',
    {
      schema: {
        operationId: 'wellKnownJwks',
        summary: 'The consent receipt key as a bare JWK Set, for JOSE tools (no envelope, no API key)',
        tags: TAGS,
        ...PUBLIC,
        response: responses({ content: { 'application/jwk-set+json': { schema: JwkSet } }, description: 'The JWK Set' }, { authenticated: false, errors: [429] }),
      },
    },
    async (req, reply) => {
      await deps.limit.take(req.ip);
      return reply.header('cache-control', JWKS_CACHE_CONTROL).type('application/jwk-set+json').send(text);
    },
  );
}
