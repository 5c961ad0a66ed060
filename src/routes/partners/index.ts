// Owns every route under /partners/: each partner's own routes, declared by its connector (an OAuth
// callback at /partners/<name>/oauth/callback, Setu's webhooks at /partners/<name>/webhooks/<secret>/…;
// providers/connector.ts `routes`), with the hooks their handlers call into the core, then the signed
// callbacks every partner posts to /partners/<name>/webhooks (webhooks.ts). None without partners.
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.js';
import type { PartnerRoute } from '../../providers/connector.js';
import type { PartnerRouter } from '../../providers/router.js';
import type { Settlement } from '../../settlement/settlement.js';
import type { TransactionStore } from '../../transactions/store.js';
import * as partnerHistory from '../../transactions/partner-events.js';
import { registerPartnerWebhooks } from './webhooks.js';

/** What the partners' routes reach: the router's connectors, settlement and the transactions. */
export interface PartnerRouteDeps {
  db: Db;
  partners: PartnerRouter | null;
  settlement: Settlement;
  transactions: TransactionStore;
}

/** One route a partner's connector declares, at /partners/<partner><path>, hidden from the OpenAPI document. */
export function registerPartnerRoute(app: FastifyInstance, partner: string, route: PartnerRoute): void {
  app.route({ method: route.method, url: `/partners/${partner}${route.path}`, schema: { hide: true }, handler: route.handler });
}

export function registerPartnerRoutes(app: FastifyInstance, services: PartnerRouteDeps): void {
  const { partners, settlement } = services;
  if (!partners) return;
  const own = partners.ownRoutes(app.log, (partner) => ({
    report: async (r) => void (await partnerHistory.record(services.db, [partnerHistory.callback(r, partner, null, await settlement.apply(r, partner, null))])), // recorded in the partner history (transactions/partner-events.ts)
    recheck: (txnId) => services.transactions.recheck(services.db, txnId),
    flag: (txnId, why) => services.db.transaction().execute((trx) => services.transactions.flag(trx, txnId, why)),
  }));
  for (const { partner, route } of own) registerPartnerRoute(app, partner, route);
  registerPartnerWebhooks(app, partners, settlement);
}
