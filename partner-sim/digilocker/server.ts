// Owns the DigiLocker emulator (`sangam partner-sim --kind digilocker`): a stand-alone HTTP server that
// behaves like the DigiLocker Authorized Partner API as /work/shared/PARTNERS.md §1 documents it, under the
// same `/public` base path, so a `digilocker` connector can be pointed at it instead of the real host.
// It runs the OAuth code + PKCE flow with a consent page of synthetic residents, serves eAadhaar XML
// signed by its own test PKI (the trust anchor is written to a file), and misbehaves on demand through
// POST /_sim/faults. Its grants are in memory (an hour-long token: no books survive a restart); nothing
// is contacted but the client that calls it.
import type { FastifyInstance } from 'fastify';
import { registerFaultRoutes } from '../common/faults.js';
import { closeEmulator, emulatorApp, keepRequests, listen, Timers, type ReceivedRequest } from '../common/server.js';
import { NO_FAULTS, parseFaults, type Counter, type Ctx, type DigilockerFaults } from './context.js';
import type { EaadhaarShape } from './eaadhaar.js';
import { Grants } from './grants.js';
import { registerOAuthRoutes } from './oauth.js';
import { loadOrCreatePki } from './pki.js';
import { RESIDENTS, type Resident } from './residents.js';
import { registerResourceRoutes } from './resources.js';

export interface DigilockerEmulatorOptions {
  /** Default 0 (any free port). */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** The one registered partner app. Defaults: SANGAMEMU1 / digilocker-emulator-secret. */
  clientId?: string;
  clientSecret?: string;
  /** Registered redirect URIs; when unset any http(s) redirect_uri is accepted. */
  redirectUris?: string[];
  /** Keep the test PKI here (created on first start) so the trust anchor survives restarts. */
  pkiDir?: string;
  /** Added to every API call (token, revoke, user, eaadhaar). Default 0. */
  latencyMs?: number;
  /** Authorization-code lifetime. [G] undocumented upstream ("assume minutes"); default 10 minutes. */
  codeTtlMs?: number;
  /** Access-token lifetime (`expires_in`); default 3600, the spec's example. */
  tokenTtlSeconds?: number;
  /** The eAadhaar document: `certificate` (observed payloads, the default) or `kycres` (the partner's spec). */
  eaadhaarShape?: EaadhaarShape;
}

export interface DigilockerEmulator {
  app: FastifyInstance;
  /** The API base to configure as SANGAM_PARTNER_DIGILOCKER_URL, e.g. http://127.0.0.1:4010/public. */
  url: string;
  /** Scheme, host and port; the admin endpoints live at `${origin}/_sim/…`. */
  origin: string;
  clientId: string;
  clientSecret: string;
  /** PEM file of the trusted test root: SANGAM_PARTNER_DIGILOCKER_TRUST_ANCHORS. */
  anchorsPath: string;
  anchorsPem: string;
  /** Root of the untrusted CA behind the untrusted_signer fault (never in anchorsPath). */
  untrustedAnchorPem: string;
  residents: readonly Resident[];
  /** Every API request under /public with its answer (the XML as a Buffer), for schema tests. */
  received: ReceivedRequest[];
  /** Same as POST /_sim/faults: replaces every fault (unnamed ones reset to off). */
  setFaults(f: Partial<DigilockerFaults>): DigilockerFaults;
  close(): Promise<void>;
}

const PREFIX = '/public';

function formParser(app: FastifyInstance): void {
  // Browsers post the consent form, and real clients the token/revoke calls, as urlencoded forms (§1.4).
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
}

/** Parser failures and unknown paths answer in the API's one error shape ([G] codes), never Fastify's own. */
function errorShapes(app: FastifyInstance): void {
  app.setErrorHandler((err: { statusCode?: number; message: string }, _req, reply) => {
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    return reply
      .code(status)
      .send(status === 500 ? { error: 'unexpected_error', error_description: 'Internal server error' } : { error: 'invalid_request', error_description: err.message });
  });
  app.setNotFoundHandler((req, reply) => reply.code(404).send({ error: 'not_found', error_description: `No such endpoint: ${req.method} ${req.url.split('?')[0]}` }));
}

function registerAdmin(app: FastifyInstance, ctx: Ctx): void {
  registerFaultRoutes(app, () => ctx.faults, (f) => void (ctx.faults = f), parseFaults);
  app.get('/_sim/calls', async () => ctx.calls);
  app.get('/_sim/residents', async () =>
    RESIDENTS.map((r) => ({ key: r.key, digilockerid: r.digilockerid, name: r.name, dob: r.dob, gender: r.gender, behaviour: r.behaviour, uid: `xxxxxxxx${r.aadhaarLast4}` })),
  );
  app.get('/_sim/pki', async () => ({ trust_anchors: ctx.pki.anchorsPath, trust_anchors_pem: ctx.pki.anchorsPem, untrusted_anchor_pem: ctx.pki.untrustedAnchorPem }));
  // Target of the xml_with_doctype sample's external parameter entity: a fetch here means the client's
  // XML parser resolved external entities.
  app.get('/_sim/xxe.dtd', async (_req, reply) => {
    ctx.calls.xxe_dtd++;
    return reply.type('application/xml-dtd').send('<!ENTITY exfiltrated "the parser fetched an external DTD">');
  });
}

export async function startDigilockerEmulator(opts: DigilockerEmulatorOptions = {}): Promise<DigilockerEmulator> {
  const pki = await loadOrCreatePki(opts.pkiDir);
  const timers = new Timers();
  const calls: Record<Counter, number> = { authorize: 0, consent: 0, token: 0, revoke: 0, user: 0, eaadhaar: 0, xxe_dtd: 0 };
  const ctx: Ctx = {
    clientId: opts.clientId ?? 'SANGAMEMU1',
    clientSecret: opts.clientSecret ?? 'digilocker-emulator-secret',
    redirectUris: opts.redirectUris?.length ? opts.redirectUris : null,
    prefix: PREFIX,
    grants: new Grants(opts.codeTtlMs ?? 600_000, opts.tokenTtlSeconds ?? 3600),
    pki,
    faults: { ...NO_FAULTS },
    calls,
    latencyMs: opts.latencyMs ?? 0,
    xxeUrl: '',
    eaadhaarShape: opts.eaadhaarShape ?? 'certificate',
    sleep: timers.sleep,
  };

  const app = emulatorApp();
  const received = keepRequests(app, PREFIX);
  formParser(app);
  errorShapes(app);
  await app.register(
    async (api) => {
      registerOAuthRoutes(api, ctx);
      registerResourceRoutes(api, ctx);
    },
    { prefix: PREFIX },
  );
  registerAdmin(app, ctx);

  const { origin } = await listen(app, { port: opts.port ?? 0, host: opts.host ?? '127.0.0.1' });
  ctx.xxeUrl = `${origin}/_sim/xxe.dtd`;
  return {
    app,
    url: `${origin}${PREFIX}`,
    origin,
    clientId: ctx.clientId,
    clientSecret: ctx.clientSecret,
    anchorsPath: pki.anchorsPath,
    anchorsPem: pki.anchorsPem,
    untrustedAnchorPem: pki.untrustedAnchorPem,
    residents: RESIDENTS,
    received,
    setFaults(f) {
      const parsed = parseFaults(f);
      if (typeof parsed === 'string') throw new Error(parsed);
      return (ctx.faults = parsed);
    },
    async close() {
      await closeEmulator(app, timers);
      await pki.dispose();
    },
  };
}
