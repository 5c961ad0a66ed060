// Owns the `digilocker` connector (DigiLocker Authorized Partner API, PARTNERS.md §1; CONTRACT §9):
// doclocker-initialize (an OAuth authorization URL with PKCE) and doclocker-download-aadhaar (the
// signed eAadhaar XML, verified before a field is read), its OAuth callback route, and document(),
// the XML behind Xml_Url. Variables: CLIENT_ID, CLIENT_SECRET, TRUST_ANCHORS (a PEM file of the CA
// certificates trusted to sign eAadhaar XML), optional EAADHAAR_PATH (by default the spec's
// /oauth2/2/xml/eaadhaar, then CONTRACT §9's /oauth2/3/ if the first is not served) and REVOKE_RETRY_S (revoke.ts, default 30); `url` is the API base
// (…/public). A missing or unusable variable stops the boot with a message naming it.
import { readFileSync } from 'node:fs';
import { partnerVars, type Connector, type ConnectorFactory, type OperationRequest, type PartnerContext, type PartnerOutcome } from '../connector.js';
import { document, download, revokeGrant, type DownloadDeps } from './download.js';
import { DigilockerHttp } from './http.js';
import { callbackRoute, initialize } from './oauth.js';
import { Retrier } from './revoke.js';
import { DigilockerSessions, PENDING_TTL_S } from './session.js';
import { parseAnchors } from './xml-verify.js';

/**
 * Where the eAadhaar is fetched, in order. The partner's own spec (Authorized Partner API,
 * docs/partners/digilocker/) says GET /oauth2/2/xml/eaadhaar; CONTRACT §9 names /oauth2/3/ as the
 * default (what some current clients call). Without EAADHAAR_PATH both are tried, the spec's first: a
 * gateway 404 for the first route (it is not served to this account) tries the second. A read, so
 * asking twice costs nothing (docs/DECISIONS.md). EAADHAAR_PATH names the one path to use.
 */
const DEFAULT_EAADHAAR_PATHS = ['/oauth2/2/xml/eaadhaar', '/oauth2/3/xml/eaadhaar'];

function settings(ctx: PartnerContext) {
  const { name, need } = partnerVars(ctx, 'digilocker');
  let base: URL;
  try {
    base = new URL(ctx.url);
    if (base.protocol !== 'https:' && base.protocol !== 'http:') throw new Error();
  } catch {
    throw new Error(`${name('URL')} must be the DigiLocker API base, such as https://digilocker.meripehchaan.gov.in/public`);
  }
  const clientId = need('CLIENT_ID');
  const clientSecret = need('CLIENT_SECRET');
  const anchorsPath = need('TRUST_ANCHORS');
  let anchors;
  try {
    anchors = parseAnchors(readFileSync(anchorsPath, 'utf8'));
  } catch (err) {
    throw new Error(`${name('TRUST_ANCHORS')} (${anchorsPath}) must be a readable PEM file of CA certificates: ${(err as Error).message}`);
  }
  const configured = ctx.vars.EAADHAAR_PATH?.trim();
  if (configured && !configured.startsWith('/')) throw new Error(`${name('EAADHAAR_PATH')} must be a path starting with /, such as ${DEFAULT_EAADHAAR_PATHS[0]}`);
  const eaadhaarPaths = configured ? [configured] : DEFAULT_EAADHAAR_PATHS;
  const retryS = Number(ctx.vars.REVOKE_RETRY_S?.trim() || 30);
  if (!Number.isFinite(retryS) || retryS <= 0) throw new Error(`${name('REVOKE_RETRY_S')} must be a number of seconds > 0`);
  return { url: base.toString().replace(/\/+$/, ''), clientId, clientSecret, anchors, eaadhaarPaths, retryMs: Math.round(retryS * 1000) };
}

export const createDigilocker: ConnectorFactory = (ctx) => {
  const s = settings(ctx);
  const http = new DigilockerHttp(Math.min(5000, ctx.timeoutFor('doclocker-download-aadhaar')));
  const base = { ctx, http, sessions: new DigilockerSessions(ctx.sessions), hooks: {}, ...s };
  const retrier = new Retrier(base);
  const deps: DownloadDeps = Object.assign(base, { retrier });
  // What an earlier process left to revoke is retried once this one is up.
  retrier.soon();

  const connector: Connector = {
    serves: ['doclocker-initialize', 'doclocker-download-aadhaar'],
    // Initialize waits for the user; an undecided session fails when it expires (PENDING_TTL_S), give or take the finalizer's scan.
    expectedFinalS: PENDING_TTL_S + 60,
    async execute(req: OperationRequest): Promise<PartnerOutcome> {
      switch (req.operation) {
        case 'doclocker-initialize':
          return initialize(deps, req);
        case 'doclocker-download-aadhaar':
          return download(deps, req);
        default:
          throw new Error(`the digilocker connector does not serve ${req.operation}`);
      }
    },
    document: (txnId) => document(deps, txnId),
    revokeGrant: (clientId) => revokeGrant(deps, clientId),
    routes: (hooks) => {
      deps.hooks = hooks;
      return [callbackRoute(hooks, deps)];
    },
    close: async () => {
      await retrier.close();
      await http.close();
    },
  };
  return connector;
};
