// Owns the Expect request header (RFC 9110 §10.1.1). Node answers `Expect: 100-continue` itself; any
// other expectation it refuses with a bare 417 before the app runs: no envelope, no X-Request-Id, no
// audit row. Here the server hands such a request to the app instead (Node's `checkExpectation`
// event), and a hook refuses it like any other client error: 417 in the envelope (Errorcode 103, the
// code of a request that cannot be processed as sent), before the key is checked or the body read.
// The same hook judges injected requests, which never pass through the HTTP server.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';

/** Node's own test for the continue expectation (lib/_http_server.js). */
const CONTINUE = /(?:^|\W)100-continue(?:$|\W)/i;

/** Node judges Expect on HTTP/1.1 only (an HTTP/1.0 server must ignore it); so do we. */
const unmet = (req: FastifyRequest) => {
  const expect = req.headers.expect;
  return expect !== undefined && req.raw.httpVersion === '1.1' && !CONTINUE.test(expect);
};

export function registerExpectation(app: FastifyInstance): void {
  app.server.on('checkExpectation', (req, res) => app.server.emit('request', req, res));
  app.addHook('onRequest', async (req) => {
    if (unmet(req)) throw new ApiError('expectation_failed', 'Expectation not supported: send no Expect header, or Expect: 100-continue');
  });
}
