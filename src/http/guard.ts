// Owns the access checks every authenticated route passes, in this order: API key (401, or 429 once
// this IP has used up its failed attempts), IP allow-list of the key's account and environment (403), live compliance
// approval of the operation (403), then the key's rate limit (429). Runs in onRequest, before the
// body is read.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';
import type { Authenticator } from './auth.js';
import type { AllowlistGuard } from '../access/allowlist.js';
import type { ApprovalGuard } from '../access/approvals.js';
import type { AuthFailureThrottle, KeyRateLimiter } from '../access/rate-limit.js';

/** What the guard checks a request against. */
export interface GuardDeps {
  auth: Authenticator;
  authThrottle: AuthFailureThrottle;
  allowlist: AllowlistGuard;
  approvals: ApprovalGuard;
  rateLimiter: KeyRateLimiter;
}

export function accessGuard(services: GuardDeps) {
  return async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
    try {
      req.auth = await services.auth.authenticate(req.headers.authorization);
    } catch (err) {
      // Only failed attempts count and only they are refused: a valid key behind the same NAT as a
      // worker retrying an expired key keeps working.
      if (err instanceof ApiError && err.code === 'unauthenticated') await services.authThrottle.fail(req.ip);
      throw err;
    }
    const { accountId, keyId, environment } = req.auth;
    if (!(await services.allowlist.allows(accountId, environment, req.ip))) {
      throw new ApiError(
        'forbidden',
        environment === 'live'
          ? `Client IP ${req.ip} is not on this account's live allow-list (an empty live list allows no address)`
          : `Client IP ${req.ip} is not on this account's sandbox allow-list`,
      );
    }
    const operation = req.routeOptions.config.operation;
    if (environment === 'live' && operation && !(await services.approvals.approved(accountId, operation))) {
      throw new ApiError('forbidden', `Live use of ${operation} is not approved for this account yet (compliance review)`);
    }
    reply.headers(await services.rateLimiter.take(accountId, keyId));
  };
}
