// Owns console sign-in: the session check every /console/api call passes (HttpOnly, SameSite=Strict
// cookie; the session's CSRF token in X-CSRF-Token on every change), sign-in throttled per address
// and email, sign-out, and the session's own description for the web app.
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { ApiError } from '../../../errors.js';
import { okEnvelope } from '../../../http/envelope.js';
import type { Services } from '../../../services.js';
import { listApprovals } from '../../../access/approvals.js';
import { OPERATION_SLUGS as SLUGS } from '../../../operations/registry.js';
import { authenticateUser, closeSession, openSession, sessionUser } from '../../../console/users.js';

const COOKIE = 'sangam_session';
const Login = Type.Object({ email: Type.String({ minLength: 3, maxLength: 254 }), password: Type.String({ minLength: 1, maxLength: 1024 }) });

export function registerSession(api: FastifyInstance, services: Services): void {
  const { db } = services;
  const secure = services.config.publicUrl.startsWith('https://');
  const throttle = services.signInThrottle;

  api.addHook('onRequest', async (req) => {
    if (req.routeOptions.url === '/console/api/login') return;
    const token = req.cookies[COOKIE];
    const user = token ? await sessionUser(db, token) : null;
    if (!user) throw new ApiError('unauthenticated', 'Sign in to the console first');
    if (req.method !== 'GET' && req.headers['x-csrf-token'] !== user.csrf) throw new ApiError('forbidden', 'Missing or wrong X-CSRF-Token');
    req.consoleUser = user;
  });

  api.post<{ Body: Static<typeof Login> }>('/console/api/login', { schema: { hide: true, body: Login } }, async (req, reply) => {
    const who = `${req.ip}|${req.body.email.toLowerCase()}`;
    await throttle.check(who);
    const user = await authenticateUser(db, req.body.email, req.body.password);
    if (!user) {
      await throttle.fail(who);
      throw new ApiError('unauthenticated', 'Wrong email or password');
    }
    const s = await openSession(db, user.id);
    reply.setCookie(COOKIE, s.token, { httpOnly: true, sameSite: 'strict', secure, path: '/console', expires: s.expires });
    return okEnvelope('Signed in', { user, csrf_token: s.csrf });
  });

  api.post('/console/api/logout', { schema: { hide: true } }, async (req, reply) => {
    await closeSession(db, req.cookies[COOKIE]!);
    reply.clearCookie(COOKIE, { path: '/console' });
    return okEnvelope('Signed out', {});
  });

  api.get('/console/api/session', { schema: { hide: true } }, async (req) => {
    const { csrf, ...user } = req.consoleUser!;
    const approvals = user.account_id ? await listApprovals(db, user.account_id) : [];
    return okEnvelope('Session', { user, csrf_token: csrf, approvals, operations: SLUGS });
  });
}
