// Owns the emulator's OAuth 2.0 endpoints (PARTNERS.md §1.3–§1.5): the authorize redirect and its consent
// form, the token endpoint (authorization_code with PKCE S256, and refresh_token; a form body, as the
// spec's description says), and revoke (a JSON body, as the spec's requestBody says). Errors use
// the API's one documented shape `{"error", "error_description"}`; where the doc gives no code, standard
// OAuth codes (RFC 6749 §5.2) are used and marked [G].
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { gate, type Ctx } from './context.js';
import type { ConsentRequest, Grant } from './grants.js';
import { consentPage, errorPage } from './pages.js';
import { RESIDENTS, residentByKey, type Resident } from './residents.js';

type Body = Record<string, unknown>;
const formDecode = (s: string): string | undefined => {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
};
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const oauthError = (error: string, error_description: string) => ({ error, error_description });

function redirectTo(reply: FastifyReply, uri: string, params: Record<string, string>) {
  const u = new URL(uri);
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
  return reply.code(302).header('location', u.toString()).send();
}

function badAuthorize(reply: FastifyReply, error: string, description: string) {
  return reply.code(400).type('text/html; charset=utf-8').send(errorPage(error, description));
}

/** Checks the authorize query in the documented order; returns the consent request or an error pair. */
function validateAuthorize(ctx: Ctx, q: Body): ConsentRequest | [string, string] {
  const clientId = str(q.client_id);
  // Documented body for a bad client_id (§1.4, seen on /oauth2/1/code).
  if (clientId !== ctx.clientId) return ['invalid_client_id', 'The client_id parameter is invalid'];
  const redirectUri = str(q.redirect_uri);
  let parsed: URL | undefined;
  try {
    parsed = redirectUri ? new URL(redirectUri) : undefined;
  } catch {
    parsed = undefined;
  }
  const registered = ctx.redirectUris ? ctx.redirectUris.includes(redirectUri ?? '') : parsed?.protocol === 'http:' || parsed?.protocol === 'https:';
  // [G] code and wording: the doc only says the redirect_uri "must equal a registered redirect URI".
  if (!redirectUri || !parsed || !registered) return ['invalid_redirect_uri', 'The redirect_uri parameter is invalid or not registered'];
  // §1.3 allows "token or code"; this emulator (like Sangam) only does the code flow. [G] wording.
  if (str(q.response_type) !== 'code') return ['unsupported_response_type', 'The response_type parameter must be code'];
  const state = str(q.state);
  if (!state) return ['invalid_request', 'The state parameter is required'];
  // RFC 7636 spells these in lower case (as Sangam and every observed client send them); the partner's
  // spec capitalises them (`Code_challenge`, `Code_challenge_method`). Either spelling is accepted
  // [unconfirmed reading: which one DigiLocker's server reads is not documented].
  const challenge = str(q.code_challenge) ?? str(q.Code_challenge);
  const method = str(q.code_challenge_method) ?? str(q.Code_challenge_method);
  // The error text an integrator saw on the MeriPehchaan gateway (§1.3).
  if (!challenge || !method) return ['invalid_request', 'The code_challenge and code_challenge_method parameter is required'];
  if (method !== 'S256') return ['invalid_request', 'The only supported values for this parameter is S256'];
  // "Base64URL (with no padding) encoded SHA256 hash": always 43 characters.
  if (!/^[A-Za-z0-9_-]{43}$/.test(challenge)) return ['invalid_request', 'The code_challenge parameter is not a Base64URL (no padding) SHA256 hash'];
  const till = Number(str(q.consent_valid_till));
  return { clientId, redirectUri, state, codeChallenge: challenge, scope: str(q.scope) ?? '', consentValidTill: Number.isInteger(till) && till > 0 ? till : null, expiresAt: 0 };
}

async function authorize(ctx: Ctx, req: FastifyRequest, reply: FastifyReply) {
  ctx.calls.authorize++;
  const r = validateAuthorize(ctx, req.query as Body);
  if (Array.isArray(r)) return badAuthorize(reply, r[0], r[1]);
  if (ctx.faults.deny_consent) return redirectTo(reply, r.redirectUri, { error: 'access_denied', state: r.state });
  const auto = ctx.faults.auto_allow !== null ? residentByKey(ctx.faults.auto_allow) : undefined;
  if (auto) return redirectTo(reply, r.redirectUri, { code: ctx.grants.issueCode(r, auto), state: r.state });
  const requestId = ctx.grants.openRequest(r);
  return reply.type('text/html; charset=utf-8').send(consentPage({ action: `${ctx.prefix}/oauth2/1/authorize/consent`, requestId, clientId: r.clientId, residents: RESIDENTS }));
}

async function decide(ctx: Ctx, req: FastifyRequest, reply: FastifyReply) {
  ctx.calls.consent++;
  const b = (req.body ?? {}) as Body;
  const request = ctx.grants.takeRequest(str(b.request_id) ?? '');
  if (!request) return badAuthorize(reply, 'invalid_request', 'This consent request is unknown, expired or already answered');
  if (str(b.decision) !== 'allow') return redirectTo(reply, request.redirectUri, { error: 'access_denied', state: request.state });
  const resident: Resident | undefined = residentByKey(str(b.resident) ?? RESIDENTS[0]?.key);
  if (!resident) return badAuthorize(reply, 'invalid_request', 'Unknown resident');
  return redirectTo(reply, request.redirectUri, { code: ctx.grants.issueCode(request, resident), state: request.state });
}

/**
 * §1.2: the client authenticates with form parameters or HTTP Basic (key as user name, secret as
 * password). Returns its id, or an error with its status.
 */
function authenticateClient(ctx: Ctx, req: FastifyRequest, b: Body): { clientId: string } | { status: number; body: ReturnType<typeof oauthError> } {
  let id = str(b.client_id);
  let secret = str(b.client_secret);
  const basic = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '');
  if (basic?.[1]) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    // RFC 6749 §2.3.1: both halves are form-encoded before base64.
    const [bid, bsecret] = (colon < 0 ? [decoded, ''] : [decoded.slice(0, colon), decoded.slice(colon + 1)]).map(formDecode);
    // [G] RFC 6749 §2.3: one method only; a different client_id in the body is refused.
    if (id !== undefined && id !== bid) return { status: 401, body: oauthError('invalid_client', 'Two different client identities were presented') };
    id = bid;
    secret = bsecret;
  }
  if (id !== ctx.clientId) return { status: 401, body: oauthError('invalid_client_id', 'The client_id parameter is invalid') };
  // [G] code and wording for a wrong or missing secret.
  if (secret !== ctx.clientSecret) return { status: 401, body: oauthError('invalid_client', 'Client authentication failed') };
  return { clientId: id };
}

/**
 * §1.4's response in the real-world spellings (`digilockerid`, `eaadhaar`) a production client parses,
 * and the partner's spec's (`digilocker_id`, `eaadhar`: AccessResponse) beside them.
 */
function tokenResponse(grant: Grant, t: { accessToken: string; refreshToken: string; expiresIn: number }, referenceKey: string) {
  const r = grant.resident;
  return {
    access_token: t.accessToken,
    token_type: 'Bearer',
    expires_in: t.expiresIn,
    scope: grant.scope,
    consent_valid_till: grant.consentValidTill,
    digilockerid: r.digilockerid,
    digilocker_id: r.digilockerid,
    name: r.name,
    dob: r.dob,
    gender: r.gender,
    eaadhaar: r.behaviour === 'aadhaar_not_linked' ? 'N' : 'Y',
    eaadhar: r.behaviour === 'aadhaar_not_linked' ? 'N' : 'Y',
    reference_key: referenceKey,
    mobile: r.mobile,
    refresh_token: t.refreshToken,
    new_account: 'N', // [G] type and meaning undocumented; a returning user
  };
}

async function token(ctx: Ctx, req: FastifyRequest, reply: FastifyReply) {
  const b = (req.body ?? {}) as Body;
  const client = authenticateClient(ctx, req, b);
  if ('status' in client) return reply.code(client.status).send(client.body);
  const grantType = str(b.grant_type);
  if (grantType === 'refresh_token') {
    const grant = ctx.grants.lookup(str(b.refresh_token) ?? '', 'refresh');
    if (!grant || grant.clientId !== client.clientId) return reply.code(400).send(oauthError('invalid_grant', 'The refresh token is invalid'));
    return tokenResponse(grant, ctx.grants.issueTokens(grant, str(b.refresh_token)), referenceKey());
  }
  if (grantType !== 'authorization_code') return reply.code(400).send(oauthError('unsupported_grant_type', 'The grant_type must be authorization_code or refresh_token'));
  const code = str(b.code);
  if (!code) return reply.code(400).send(oauthError('invalid_request', 'The code parameter is required'));
  const r = ctx.grants.redeem(code, client.clientId, str(b.redirect_uri), str(b.code_verifier));
  if (!r.ok) return reply.code(400).send(oauthError(r.error, r.description));
  return tokenResponse(r.grant, ctx.grants.issueTokens(r.grant), referenceKey());
}

const referenceKey = () => randomBytes(16).toString('hex');

/**
 * The partner's spec (POST /oauth2/1/revoke): an application/json body `{token, token_type_hint}`, the
 * client authenticated by its credentials (HTTP Basic, or client_id/client_secret in the body). The
 * spec documents no other media type, so a form body (RFC 7009's) is refused with 415, as a server
 * built from the spec would; its only documented error is 400 "The token is invalid".
 */
async function revoke(ctx: Ctx, req: FastifyRequest, reply: FastifyReply) {
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) {
    return reply.code(415).send(oauthError('invalid_request', 'The revoke body must be application/json'));
  }
  if (ctx.faults.revoke_error_next > 0) {
    ctx.faults.revoke_error_next--;
    return reply.code(500).send(oauthError('unexpected_error', 'Internal server error'));
  }
  const b = (req.body ?? {}) as Body;
  const client = authenticateClient(ctx, req, b);
  if ('status' in client) return reply.code(client.status).send(client.body);
  // §1.5: 400 "The token is invalid"; [G] the error code.
  if (!ctx.grants.revoke(str(b.token) ?? '', client.clientId)) return reply.code(400).send(oauthError('invalid_token', 'The token is invalid'));
  return reply.code(200).send(); // no body documented
}

export function registerOAuthRoutes(api: FastifyInstance, ctx: Ctx): void {
  api.get('/oauth2/1/authorize', (req, reply) => authorize(ctx, req, reply));
  api.post('/oauth2/1/authorize/consent', (req, reply) => decide(ctx, req, reply));
  api.post('/oauth2/1/token', { preHandler: gate(ctx, 'token') }, (req, reply) => token(ctx, req, reply));
  api.post('/oauth2/1/revoke', { preHandler: gate(ctx, 'revoke') }, (req, reply) => revoke(ctx, req, reply));
}
