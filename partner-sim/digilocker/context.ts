// Owns what the DigiLocker emulator's routes share: the registered client, the OAuth state, the PKI, the
// fault switches (POST /_sim/faults) and call counters, and the gate every API call passes through
// (latency, injected timeouts and 5xx, counted by common/faults.ts).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { nextMisbehaviour } from '../common/faults.js';
import type { EaadhaarShape } from './eaadhaar.js';
import type { Grants } from './grants.js';
import type { TestPki } from './pki.js';
import { RESIDENTS, residentByKey } from './residents.js';

export interface DigilockerFaults {
  /** The next N API calls (token, revoke, user, eaadhaar) stall for timeout_ms before answering. */
  timeout_next: number;
  timeout_ms: number;
  /** The next N API calls answer error_status (500 or 503) with the documented error body. */
  error_next: number;
  error_status: 500 | 503;
  /** The next N revoke calls answer 500 (after every other fault), revoking nothing. */
  revoke_error_next: number;
  /** The authorize page redirects at once with error=access_denied, as if the user pressed Deny. */
  deny_consent: boolean;
  /** A resident key: the authorize page redirects at once with a code for that resident (no page). */
  auto_allow: string | null;
  /** Every access token is refused as expired (401) on /user and /xml/eaadhaar. */
  expired_token: boolean;
  /** eAadhaar XML variants; when several are set the first in this list wins. */
  signature_wrapping: boolean;
  xml_with_doctype: boolean;
  untrusted_signer: boolean;
  tamper_xml: boolean;
  /** The `hmac` header is computed with the wrong key. */
  bad_hmac: boolean;
  /** The `hmac` header is left out (it is optional upstream). */
  omit_hmac: boolean;
  /**
   * Not a fault: the eAadhaar document in the partner's spec's shape (root KycRes with UIDAI's signature
   * inside, EaadhaarShape 'kycres') instead of the observed `<Certificate>`. Reset with the faults; the
   * emulator's `eaadhaarShape` option sets the default.
   */
  kycres_shape: boolean;
  /** Only this eAadhaar route (2 or 3) is served to the client; the other answers the gateway's 404. */
  eaadhaar_served: 2 | 3 | null;
}

export const NO_FAULTS: DigilockerFaults = {
  timeout_next: 0,
  timeout_ms: 30_000,
  error_next: 0,
  error_status: 500,
  revoke_error_next: 0,
  deny_consent: false,
  auto_allow: null,
  expired_token: false,
  signature_wrapping: false,
  xml_with_doctype: false,
  untrusted_signer: false,
  tamper_xml: false,
  bad_hmac: false,
  omit_hmac: false,
  kycres_shape: false,
  eaadhaar_served: null,
};

/** Faults from a POST /_sim/faults body (unset names reset to off), or a message naming what is wrong. */
export function parseFaults(body: unknown): DigilockerFaults | string {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'the body must be a JSON object of fault names';
  const out: Record<string, unknown> = { ...NO_FAULTS };
  for (const [k, v] of Object.entries(body)) {
    const base = (NO_FAULTS as unknown as Record<string, unknown>)[k];
    if (base === undefined) return `unknown fault ${k}; known: ${Object.keys(NO_FAULTS).join(', ')}`;
    const ok =
      k === 'auto_allow' ? v === null || typeof v === 'string'
      : k === 'error_status' ? v === 500 || v === 503
      : k === 'eaadhaar_served' ? v === null || v === 2 || v === 3
      : typeof base === 'number' ? Number.isInteger(v) && (v as number) >= 0
      : typeof v === 'boolean';
    if (!ok) return `fault ${k} has the wrong type`;
    if (k === 'auto_allow' && v !== null && !residentByKey(v as string)) return `auto_allow: no resident ${String(v)}; known: ${RESIDENTS.map((r) => r.key).join(', ')}`;
    out[k] = v;
  }
  return out as unknown as DigilockerFaults;
}

export type ApiName = 'token' | 'revoke' | 'user' | 'eaadhaar';
export type Counter = ApiName | 'authorize' | 'consent' | 'xxe_dtd';

export interface Ctx {
  clientId: string;
  clientSecret: string;
  /** Registered redirect URIs; null accepts any http(s) URI ([G] the emulator has no Partners Portal). */
  redirectUris: string[] | null;
  /** Path prefix of the API (`/public`, as in every documented base URL). */
  prefix: string;
  grants: Grants;
  pki: TestPki;
  faults: DigilockerFaults;
  calls: Record<Counter, number>;
  latencyMs: number;
  /** Absolute URL of /_sim/xxe.dtd, known once the server listens. */
  xxeUrl: string;
  /** The eAadhaar document's default shape (the kycres_shape switch overrides it per call). */
  eaadhaarShape: EaadhaarShape;
  sleep(ms: number): Promise<void>;
}

/** The documented 5xx bodies: §1.7 for the eAadhaar endpoint, §1.6 for the others. */
function injectedError(api: ApiName, status: 500 | 503): { error: string; error_description: string } {
  if (api === 'eaadhaar') {
    return status === 500
      ? { error: 'repository_service_unresponsive', error_description: 'Internal server error' }
      : { error: 'repository_service_inactive', error_description: 'Gateway timeout' };
  }
  // [G] only /user documents a 500 body; the same body is used for 503 and for the other endpoints.
  return { error: 'unexpected_error', error_description: 'Internal server error' };
}

/** preHandler for an API route: counts the call, then applies injected 5xx, stalls and latency. */
export function gate(ctx: Ctx, api: ApiName) {
  return async (_req: FastifyRequest, reply: FastifyReply) => {
    ctx.calls[api]++;
    const m = nextMisbehaviour(ctx.faults, true);
    if (m.kind === 'error') return reply.code(m.status).send(injectedError(api, m.status as 500 | 503));
    // A stalled call gets no latency on top (unlike the other emulators).
    if (m.kind === 'hang') await ctx.sleep(m.ms);
    else if (ctx.latencyMs > 0) await ctx.sleep(ctx.latencyMs);
  };
}
