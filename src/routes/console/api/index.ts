// Owns the console's management API under /console/api (the web dashboard's backend), one file per
// area. Every route but sign-in needs a session (session.ts); client pages act on the signed-in user's
// account, admin pages need an admin. Changes go through the shared admin actions (admin/actions/),
// the same the CLI calls. Answers use the API envelope.
import type { FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import type { Services } from '../../../services.js';
import type { Batches } from '../../../batches/index.js';
import { registerSession } from './session.js';
import { registerOverview } from './overview.js';
import { registerKeys } from './keys.js';
import { registerAllowlist } from './allowlist.js';
import { registerNameMatch } from './name-match.js';
import { registerLogs } from './logs.js';
import { registerWebhooks } from './webhooks.js';
import { registerWallet } from './wallet.js';
import { registerAdmin } from './admin.js';
import { registerAttention } from './attention.js';
import { registerFloat } from './float.js';
import { registerGoLive, registerGoLiveReview } from './go-live.js';
import { registerBatches } from './batches.js';

export function registerConsoleApi(app: FastifyInstance, services: Services, batches: Batches): void {
  const { db } = services;
  app.register(async (api) => {
    await api.register(cookie);
    registerSession(api, services);
    registerOverview(api, db);
    registerKeys(api, db);
    registerAllowlist(api, db);
    registerNameMatch(api, db);
    registerLogs(api, db);
    registerWebhooks(api, services);
    registerWallet(api, db);
    registerGoLive(api, db);
    await api.register(async (scope) => registerBatches(scope, db, batches)); // its own scope: it reads CSV and NDJSON
    // Its own scope, so its admin check runs on its routes only (after the session check above).
    await api.register(async (adminApi) => registerAdmin(adminApi, services));
    await api.register(async (adminApi) => registerAttention(adminApi, services));
    await api.register(async (adminApi) => registerFloat(adminApi, services));
    await api.register(async (adminApi) => registerGoLiveReview(adminApi, db));
  });
}
