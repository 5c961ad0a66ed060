// Owns registering every HTTP route; the folders below mirror the URL space (docs/ARCHITECTURE.md):
// api/v1/ what a key can call, console/ the console's API and pages, partners/ what partners call,
// consents.ts the hosted consent page, sandbox/ and files/ the pages an operation links to, and the
// operator's /docs, /openapi.json, /health, /metrics, /.well-known. app.ts calls registerRoutes once;
// no other module registers a route (test/layers.test.ts). The order is the document's and the scopes'.
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import type { Store } from '../db/client.js';
import type { Services } from '../services.js';
import type { Batches } from '../batches/index.js';
import { ConsentLinks } from '../consents/page.js';
import { registerDocs } from './docs.js';
import { registerHealth } from './health.js';
import { registerMetrics } from './metrics.js';
import { registerConsentPublicKey } from './api/v1/consents.js';
import { registerWellKnown } from './well-known.js';
import { registerApi } from './api/v1/index.js';
import { registerSandboxConsentPage } from './sandbox/doclocker/authorize.js';
import { registerAadhaarXml } from './files/aadhaar-xml.js';
import { registerPartnerRoutes } from './partners/index.js';
import { registerConsentPage } from './consents.js';
import { registerConsoleApi } from './console/api/index.js';
import { registerConsolePages } from './console/pages.js';

export async function registerRoutes(app: FastifyInstance, config: Config, store: Store, services: Services, batches: Batches): Promise<void> {
  // The OpenAPI document first (it gathers the routes registered after it), then the operator's routes.
  await registerDocs(app, config.publicUrl);
  registerHealth(app, { store, partners: services.partners });
  registerMetrics(app, services.metrics);
  // The receipt key is public (CONTRACT §13): outside the key guard, limited per client IP.
  const receiptKey = { receiptKey: services.consents.records.receiptKey, limit: services.publicKeyReads };
  registerConsentPublicKey(app, receiptKey);
  registerWellKnown(app, receiptKey);
  await registerApi(app, services, batches);
  // The pages operations link to, each in its own plugin scope: the sandbox consent page (it reads
  // form bodies) and the signed Aadhaar XML behind Xml_Url.
  await app.register(async (scope) => registerSandboxConsentPage(scope, services.operations.deps));
  await app.register(async (scope) => registerAadhaarXml(scope, services.operations.deps));
  registerPartnerRoutes(app, services);
  await app.register(async (scope) => registerConsentPage(scope, { links: new ConsentLinks(services.db, services.config.publicUrl), end: services.consents.end }));
  registerConsoleApi(app, services, batches);
  await registerConsolePages(app);
}
