// Owns the consent records API (CONTRACT §13): record a consent and get its signed receipt, read one
// with its uses, list a subject's by mobile number, withdraw one; and the receipt key as a JWK Set,
// which is public (registerConsentPublicKey, and /.well-known/jwks.json in routes/well-known.ts: no API
// key, per-IP limit, cacheable), because the person, an auditor or a regulator checks a receipt without
// being a client. Consents are per account and environment: another's is a 404.
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { okEnvelope } from '../../../http/envelope.js';
import { Envelope, Nullable, responses } from '../../../http/responses.js';
import { Mobile } from '../../../contract/fields.js';
import { OPERATION_SLUGS } from '../../../operations/registry.js';
import type { Services } from '../../../services.js';
import type { ActionLimit } from '../../../access/rate-limit.js';
import { CONSENT_ID_PATTERN } from '../../../consents/gate.js';
import { jwks, type ReceiptKey } from '../../../consents/receipt.js';
import { createConsent, getConsent, listBySubjectMobile } from '../../../consents/store.js';
import { withdraw } from '../../../consents/withdrawal.js';
import { ConsentLinks } from '../../../consents/page.js';

export const TAGS = ['Consents'];
const text = (name: string, max: number, description: string) =>
  Type.String({ minLength: 1, maxLength: max, description, errorMessage: `${name} must be text of 1 to ${max} characters` });
const DateTime = (name: string, description: string) => Type.String({ format: 'date-time', description, errorMessage: `${name} must be an RFC 3339 date-time` });

const CreateBody = Type.Object({
  subject: Type.Object(
    {
      mobile: Type.Optional(Type.String({ pattern: '^(\\+?91)?[6-9][0-9]{9}$', description: 'The person\'s mobile number (10 digits, optionally +91)', errorMessage: 'subject.mobile must be a 10-digit Indian mobile number' })),
      email: Type.Optional(Type.String({ format: 'email', maxLength: 254, description: 'The person\'s e-mail address', errorMessage: 'subject.email must be an e-mail address' })),
      reference: Type.Optional(text('subject.reference', 128, 'Your own identifier of the person')),
    },
    { additionalProperties: false, description: 'Who consented: at least one of mobile, email, reference. Kept only as a keyed hash and the last 4 characters.' },
  ),
  purpose: Type.Object({ code: Type.String({ pattern: '^[A-Za-z0-9._-]{1,64}$', description: 'Your code for the purpose', errorMessage: 'purpose.code must be 1 to 64 letters, digits, dots, dashes or underscores' }), text: text('purpose.text', 2000, 'The purpose as the person was told it') }),
  operations: Type.Array(Type.String({ enum: [...OPERATION_SLUGS] }), {
    minItems: 1,
    uniqueItems: true,
    description: 'The operations the consent covers',
    errorMessage: `operations must be a non-empty list of distinct operations: ${OPERATION_SLUGS.join(', ')}`,
  }),
  notice: Type.Object({
    version: text('notice.version', 64, 'The notice\'s version'),
    language: Type.String({ pattern: '^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$', description: 'Its language (BCP 47, e.g. en, hi, ta-IN)', errorMessage: 'notice.language must be a BCP 47 language tag such as en or hi' }),
    text: text('notice.text', 20_000, 'The notice exactly as shown to the person (stored with its SHA-256)'),
  }),
  channel: Type.Optional(Type.String({ pattern: '^[a-z0-9_-]{1,32}$', description: 'Where it was collected: web, app, assisted, ivr…', errorMessage: 'channel must be 1 to 32 lower-case letters, digits, dashes or underscores' })),
  collected_at: Type.Optional(DateTime('collected_at', 'When the person consented (default: now)')),
  expires_at: Type.Optional(DateTime('expires_at', 'When it lapses (default: never; a withdrawal ends it sooner)')),
});

const IdParams = Type.Object({ id: Type.String({ pattern: CONSENT_ID_PATTERN, description: 'A consent id: cns_ and 24 letters or digits', errorMessage: 'id must be a consent id (cns_…)' }) });
const Masked = Type.Object({ mobile: Type.Optional(Type.String()), email: Type.Optional(Type.String()), reference: Type.Optional(Type.String()) }, { description: 'The last 4 characters of each' });
const ConsentFields = {
  id: Type.String({ pattern: CONSENT_ID_PATTERN }),
  status: Type.Union([Type.Literal('active'), Type.Literal('withdrawn'), Type.Literal('expired')]),
  environment: Type.Union([Type.Literal('sandbox'), Type.Literal('live')]),
  subject: Masked,
  purpose: Type.Object({ code: Type.String(), text: Type.String() }),
  operations: Type.Array(Type.String()),
  notice: Type.Object({ version: Type.String(), language: Type.String(), text: Type.String(), sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }) }),
  channel: Nullable(Type.String()),
  collected_at: Type.String({ format: 'date-time' }),
  expires_at: Nullable(Type.String({ format: 'date-time' })),
  created_at: Type.String({ format: 'date-time' }),
  ended_at: Nullable(Type.String({ format: 'date-time', description: 'When it was withdrawn or expired' })),
  receipt: Type.String({ description: 'Compact JWS (EdDSA) signed by Sangam over the record: docs/CONSENT.md' }),
  withdraw_url: Type.String({ description: 'A signed link to hand the person: a page showing this consent, with a button that withdraws it (no key needed; docs/CONSENT.md, "The hosted page")' }),
};
const Uses = Type.Object({
  count: Type.Integer({ description: 'Calls made under it' }),
  last_used_at: Nullable(Type.String({ format: 'date-time' })),
  request_ids: Type.Array(Type.String(), { description: 'The request ids of the calls (the latest 100)' }),
});
const Effect = Type.Object({
  sessions_failed: Type.Integer({ description: 'Sandbox document-locker sessions still waiting for the user, now failed' }),
  grants_revoked: Type.Integer({ description: 'Live document-locker access tokens revoked at the partner' }),
  references_erased: Type.Array(Type.String(), { description: 'References whose content was erased, as POST /api/v1/erasures does' }),
  references_pending: Type.Array(Type.String(), { description: 'References still pending: erased once final' }),
});
const Jwk = Type.Object({ kty: Type.Literal('OKP'), crv: Type.Literal('Ed25519'), x: Type.String(), kid: Type.String(), alg: Type.Literal('EdDSA'), use: Type.Literal('sig') });
const NOT_FOUND = { errors: [404] };

export function registerConsentRoutes(app: FastifyInstance, services: Services): void {
  const scope = (req: { auth?: { accountId: string; environment: 'sandbox' | 'live' } }) => ({ accountId: req.auth!.accountId, environment: req.auth!.environment });
  const deps = services.consents;
  const links = new ConsentLinks(services.db, services.config.publicUrl);

  app.post<{ Body: Static<typeof CreateBody> }>(
    '/api/v1/consents',
    {
      schema: {
        operationId: 'createConsent',
        summary: 'Record a consent; answers it with its signed receipt',
        tags: TAGS,
        body: CreateBody,
        response: responses(Envelope(Type.Object({ ...ConsentFields, uses: Uses })), { errors: [413, 415] }),
      },
    },
    async (req) => okEnvelope('Consent recorded', await links.linked(await createConsent(deps.records, scope(req), req.auth!.keyId, req.body))),
  );

  app.get<{ Querystring: { subject_mobile: string } }>(
    '/api/v1/consents',
    {
      schema: {
        operationId: 'listConsents',
        summary: 'A subject\'s consents (by mobile number), newest first',
        tags: TAGS,
        querystring: Type.Object({ subject_mobile: { ...Mobile, description: 'The person\'s mobile number (looked up by its keyed hash)' } }),
        response: responses(Envelope(Type.Object({ items: Type.Array(Type.Object(ConsentFields)) }))),
      },
    },
    async (req) => okEnvelope('Consents', { items: await Promise.all((await listBySubjectMobile(deps.records, scope(req), req.query.subject_mobile)).map((c) => links.linked(c))) }),
  );

  app.get<{ Params: Static<typeof IdParams> }>(
    '/api/v1/consents/:id',
    {
      schema: { operationId: 'getConsent', summary: 'A consent with its uses', tags: TAGS, params: IdParams, response: responses(Envelope(Type.Object({ ...ConsentFields, uses: Uses })), NOT_FOUND) },
    },
    async (req) => okEnvelope('Consent', await links.linked(await getConsent(services.db, scope(req), req.params.id))),
  );

  app.post<{ Params: Static<typeof IdParams> }>(
    '/api/v1/consents/:id/withdraw',
    {
      config: { bodyOptional: true },
      schema: {
        operationId: 'withdrawConsent',
        summary: 'Withdraw a consent: no call may cite it; what it holds is revoked and what was done under it erased',
        tags: TAGS,
        params: IdParams,
        response: responses(Envelope(Type.Object({ ...ConsentFields, uses: Uses, effect: Nullable(Effect) })), { errors: [404, 413, 415] }),
      },
    },
    async (req) => okEnvelope('Consent withdrawn', await links.linked(await withdraw(deps.end, scope(req), req.params.id, `key:${req.auth!.keyId}`))),
  );
}

/** How long a verifier may cache the key set: a rotated key is published beside the old one first. */
const JWKS_MAX_AGE_S = 3600;
export const JWKS_CACHE_CONTROL = `public, max-age=${JWKS_MAX_AGE_S}`;
export const JwkSet = Type.Object({ keys: Type.Array(Jwk) }, { description: 'JWK Set (RFC 7517): the Ed25519 keys that sign consent receipts' });
/** Public: no API key (an empty security requirement in the OpenAPI document). */
export const PUBLIC = { security: [] as Array<Record<string, string[]>> };

/** What the receipt key's public routes need: the key, and the per-client-IP limit on reading it. */
export interface ReceiptKeyRouteDeps {
  receiptKey: ReceiptKey;
  limit: ActionLimit;
}

/**
 * The receipt key without an API key, in two forms: `GET /api/v1/consents/public-key` in the API's
 * envelope (here), and `GET /.well-known/jwks.json`, the bare JWK Set standard JOSE tools fetch (jose's
 * createRemoteJWKSet, a JWKS URL in any JWT library; routes/well-known.ts). Registered outside the API key guard. Each read
 * costs one token of the client IP's bucket (`limit`; a 429 with Retry-After past it): the answer is
 * static and cacheable (Cache-Control public), so a verifier reads it rarely, and an /api/v1 read also
 * writes an audit row, which an anonymous client must not be able to multiply at will.
 */
export function registerConsentPublicKey(app: FastifyInstance, deps: ReceiptKeyRouteDeps): void {
  const body = jwks(deps.receiptKey);
  app.get(
    '/api/v1/consents/public-key',
    {
      schema: {
        operationId: 'consentReceiptKeys',
        summary: 'The key that signs consent receipts, as a JWK Set (RFC 7517); no API key needed',
        description: 'Public: anyone may verify a receipt. The same set, without the envelope, is at /.well-known/jwks.json. Cacheable (Cache-Control); limited per client IP.',
        tags: TAGS,
        ...PUBLIC,
        response: responses(Envelope(JwkSet), { authenticated: false, errors: [429] }),
      },
    },
    async (req, reply) => {
      await deps.limit.take(req.ip);
      reply.header('cache-control', JWKS_CACHE_CONTROL);
      return okEnvelope('Consent receipt keys', body);
    },
  );
}
