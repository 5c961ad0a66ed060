// Owns DigiLocker's OAuth 2.0 authorization-code flow with PKCE (PARTNERS.md §1.3–1.5): the
// authorization URL of doclocker-initialize, and the callback where the user comes back with a code
// (exchanged at the token endpoint with our code_verifier) or with error=access_denied. The state and
// the verifier never leave the server; the client id, which travels through the browser, proves
// nothing by itself.
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { newId } from '../../ids.js';
import type { PartnerContext, PartnerOutcome, PartnerRoute, PartnerRouteHooks } from '../connector.js';
import type { DigilockerHttp } from './http.js';
import { DECIDED_TTL_S, PENDING_TTL_S, type ClientSession, type ConsentStatus, type DigilockerSessions } from './session.js';
import { describe, errorFrom, grantFrom } from './transformers.js';

export interface OAuthDeps {
  ctx: PartnerContext;
  /** The API base, without a trailing slash. */
  url: string;
  http: DigilockerHttp;
  sessions: DigilockerSessions;
  clientId: string;
  clientSecret: string;
}

/** doclocker-initialize: a pending session and the URL where the user consents. */
export async function initialize(d: OAuthDeps, r: { txnId: string; redirectUrl?: string }): Promise<PartnerOutcome> {
  const clientId = newId('doclocker', 24);
  const state = randomBytes(32).toString('base64url');
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const expiresAt = new Date(Date.now() + PENDING_TTL_S * 1000);
  await d.sessions.open(clientId, state, { status: 'pending', txnId: r.txnId, verifier, redirectUrl: r.redirectUrl });
  const q = new URLSearchParams({
    response_type: 'code',
    client_id: d.clientId,
    redirect_uri: d.ctx.oauthCallbackUrl,
    state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  return {
    status: 'pending',
    message: 'Awaiting the user’s consent at authorization_url',
    session: { clientId, authorizationUrl: `${d.url}/oauth2/1/authorize?${q}`, expiresAt },
    // The callback reports the decision as soon as the user makes it; this is the end of a user who never does.
    settle: { after_ms: PENDING_TTL_S * 1000, final: { status: 'failed', message: 'The user did not authorize the request before it expired', session: {} } },
  };
}

type Decision = { status: Exclude<ConsentStatus, 'pending' | 'used'>; accessToken?: string; ttlS: number; reason?: string };

/** Exchanges the code (§1.4: form body with the client credentials and the PKCE verifier). */
async function exchange(d: OAuthDeps, code: string, verifier: string): Promise<Decision> {
  try {
    const res = await d.http.call({
      method: 'POST',
      url: `${d.url}/oauth2/1/token`,
      form: {
        grant_type: 'authorization_code',
        code,
        redirect_uri: d.ctx.oauthCallbackUrl,
        client_id: d.clientId,
        client_secret: d.clientSecret,
        code_verifier: verifier,
      },
      headers: { accept: 'application/json' },
      timeoutMs: d.ctx.timeoutFor('doclocker-initialize'),
    });
    if (res.status !== 200) return { status: 'failed', ttlS: DECIDED_TTL_S, reason: describe(errorFrom(res.status, res.body)) };
    const grant = grantFrom(res.body);
    if (!grant) return { status: 'failed', ttlS: DECIDED_TTL_S, reason: 'the token endpoint answered without a Bearer access token' };
    // The token is of no use once DigiLocker ends it; the session ends with it.
    return { status: 'authorized', accessToken: grant.accessToken, ttlS: Math.min(grant.expiresInS, DECIDED_TTL_S) };
  } catch (err) {
    return { status: 'failed', ttlS: DECIDED_TTL_S, reason: (err as Error).message };
  }
}

const esc = (s: string) => s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(reply: FastifyReply, code: number, title: string, text: string) {
  return reply
    .code(code)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .send(`<!doctype html><html><head><meta charset="utf-8"><title>${esc(title)}</title></head><body><h1>${esc(title)}</h1><p>${esc(text)}</p></body></html>`);
}

const PAGES: Record<Decision['status'], [string, string]> = {
  authorized: ['Authorized', 'DigiLocker has shared your document. You may close this window and return to the application.'],
  denied: ['Consent denied', 'You declined to share your document. You may close this window.'],
  failed: ['Authorization failed', 'DigiLocker did not complete the authorization'],
};

const REPORTS: Record<Decision['status'], string> = {
  authorized: 'The user authorized the document-locker request',
  denied: 'The user denied the document-locker request',
  failed: 'DigiLocker did not complete the authorization',
};

/** GET /partners/<name>/oauth/callback. */
export function callbackRoute(hooks: PartnerRouteHooks, d: OAuthDeps): PartnerRoute {
  return { method: 'GET', path: '/oauth/callback', handler: async (req: FastifyRequest<{ Querystring: Record<string, string | undefined> }>, reply) => {
    const { code, state, error } = req.query;
    const clientId = typeof state === 'string' && state ? await d.sessions.takeState(state) : undefined;
    const session = clientId ? await d.sessions.client(clientId) : undefined;
    if (!clientId || !session || session.status !== 'pending') {
      return page(reply, 400, 'Link expired', 'This authorization link is unknown, already used or expired. Start again from the application.');
    }
    let decision: Decision;
    if (typeof code === 'string' && code) decision = await exchange(d, code, session.verifier);
    else if (error === 'access_denied') decision = { status: 'denied', ttlS: DECIDED_TTL_S };
    else decision = { status: 'failed', ttlS: DECIDED_TTL_S, reason: typeof error === 'string' && error ? error.slice(0, 80) : 'the callback carried neither a code nor an error' };

    const next: ClientSession = { status: decision.status, txnId: session.txnId, verifier: '', redirectUrl: session.redirectUrl };
    if (decision.accessToken) next.accessToken = decision.accessToken;
    if (decision.reason) next.reason = decision.reason;
    await d.sessions.putClient(clientId, next, decision.ttlS);
    // Settles the initialize transaction now, as the sandbox's consent page does; the pending answer's
    // own expiry settles it otherwise. The user's redirect does not wait on a failure here.
    const message = decision.reason ? `${REPORTS[decision.status]}: ${decision.reason}` : REPORTS[decision.status];
    await hooks
      .report({ txnId: session.txnId, partnerRef: null, outcome: { status: decision.status === 'authorized' ? 'success' : 'failed', message, session: {} } })
      .catch(() => undefined);

    const target = session.redirectUrl ? safeUrl(session.redirectUrl) : null;
    if (target) {
      target.searchParams.set('doclocker__client__id', clientId);
      target.searchParams.set('status', decision.status);
      return reply.code(302).header('cache-control', 'no-store').redirect(target.toString());
    }
    const [title, text] = PAGES[decision.status];
    return page(reply, decision.status === 'failed' ? 502 : 200, title, decision.reason ? `${text}: ${decision.reason}.` : text);
  } };
}

function safeUrl(s: string): URL | null {
  try {
    const u = new URL(s);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u : null;
  } catch {
    return null;
  }
}
