// Owns the audit log API (CONTRACT §8), one file per resource: the logs (search and one row, logs.ts),
// their export (export.ts) and erasures (POST /api/v1/erasures, ../erasures.ts) — always the calling account's rows, and only
// those of the key's own environment (what one environment creates is invisible from the other).
// Registered in this order so that the OpenAPI document (and the SDK types generated from it) lists
// them as before.
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../../../config.js';
import type { Db } from '../../../../db/client.js';
import { registerErasures } from '../erasures.js';
import { registerAuditExport } from './export.js';
import { registerAuditRow, registerAuditSearch } from './logs.js';

export interface AuditRouteDeps {
  db: Db;
  config: { auditCheckpoint: Pick<Config['auditCheckpoint'], 'signingKey'> };
}

export function registerAuditRoutes(app: FastifyInstance, deps: AuditRouteDeps): void {
  const { db } = deps;
  registerAuditSearch(app, { db });
  registerAuditExport(app, { db, signingKey: deps.config.auditCheckpoint.signingKey });
  registerErasures(app, { db });
  registerAuditRow(app, { db });
}
