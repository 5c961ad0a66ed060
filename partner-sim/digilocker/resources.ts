// Owns the emulator's Bearer-token resources: the user's details (§1.6) and the signed eAadhaar XML (§1.7),
// with its optional `hmac` header: base64(HMAC-SHA256(key = UTF-8 client_secret, message = the exact
// response body bytes)). The header is computed over the bytes actually sent, so a tampered-XML fault
// still carries a valid hmac and only the XML signature can catch it.
import { createHmac } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { gate, type Ctx } from './context.js';
import { eaadhaarXml, type XmlVariant } from './eaadhaar.js';
import type { Grant } from './grants.js';

/** The live grant behind `Authorization: Bearer <token>`, or undefined (unknown, revoked, expired, or the expired_token fault). */
function bearer(ctx: Ctx, req: FastifyRequest): Grant | undefined {
  const m = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  if (!m?.[1] || ctx.faults.expired_token) return undefined;
  return ctx.grants.lookup(m[1], 'access');
}

export function hmacOf(body: Buffer, key: string): string {
  return createHmac('sha256', Buffer.from(key, 'utf8')).update(body).digest('base64');
}

function variant(ctx: Ctx): XmlVariant {
  const f = ctx.faults;
  if (f.signature_wrapping) return 'signature_wrapping';
  if (f.xml_with_doctype) return 'with_doctype';
  if (f.untrusted_signer) return 'untrusted_signer';
  if (f.tamper_xml) return 'tampered';
  return 'genuine';
}

async function user(ctx: Ctx, req: FastifyRequest, reply: FastifyReply) {
  const grant = bearer(ctx, req);
  if (!grant) return reply.code(401).send({ error: 'invalid_token', error_description: 'The access token is invalid' });
  const r = grant.resident;
  // Flat, as real responses are (§1.6: the OpenAPI's `details` wrapper is a conversion artefact).
  return { digilockerid: r.digilockerid, name: r.name, dob: r.dob, gender: r.gender, eaadhaar: r.behaviour === 'aadhaar_not_linked' ? 'N' : 'Y' };
}

async function eaadhaar(ctx: Ctx, req: FastifyRequest, reply: FastifyReply) {
  const grant = bearer(ctx, req);
  // §1.7 spells this code with a space ("invalid token"), unlike /user.
  if (!grant) return reply.code(401).send({ error: 'invalid token', error_description: 'The access token is invalid' });
  const r = grant.resident;
  if (r.behaviour === 'aadhaar_not_linked') return reply.code(404).send({ error: 'aadhaar_not_linked', error_description: 'Aadhaar is not linked to the account' });
  if (r.behaviour === 'aadhaar_not_available') {
    return reply.code(404).send({ error: 'aadhaar_not_available', error_description: 'Aadhaar data is not available for this user. Please perform Aadhaar eKYC again.' });
  }
  const shape = ctx.faults.kycres_shape || ctx.eaadhaarShape === 'kycres' ? 'kycres' : 'certificate';
  const body = Buffer.from(eaadhaarXml(r, variant(ctx), ctx.pki, ctx.xxeUrl, new Date(), shape), 'utf8');
  reply.code(200).header('content-type', 'application/xml');
  if (!ctx.faults.omit_hmac) reply.header('hmac', hmacOf(body, ctx.faults.bad_hmac ? `${ctx.clientSecret}-wrong` : ctx.clientSecret));
  return reply.send(body);
}

export function registerResourceRoutes(api: FastifyInstance, ctx: Ctx): void {
  // /oauth2/1/user is documented; /2/ and /3/ exist on newer deployments (§1.6 [S]).
  for (const v of [1, 2, 3]) api.get(`/oauth2/${v}/user`, { preHandler: gate(ctx, 'user') }, (req, reply) => user(ctx, req, reply));
  // /2/ is the partner's spec's path (the connector's default), /3/ what some current clients call (§1.7);
  // both serve the same document.
  for (const v of [2, 3]) {
    api.get(`/oauth2/${v}/xml/eaadhaar`, { preHandler: gate(ctx, 'eaadhaar') }, (req, reply) => {
      const served = ctx.faults.eaadhaar_served;
      if (served !== null && served !== v) return reply.code(404).type('text/html').send('<html><body><h1>404 Not Found</h1></body></html>');
      return eaadhaar(ctx, req, reply);
    });
  }
}
