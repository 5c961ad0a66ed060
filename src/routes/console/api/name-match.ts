// Owns the client's name-match settings in the console: the account's thresholds, what a payout
// whose beneficiary name is only a review does, and how long a vpa-verification stands in for a
// payout's name check (the reuse window, CONTRACT §14), through the shared admin actions (audited as
// console:<email>). Admins reach any account through the admin area's account routes.
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import type { Db } from '../../../db/client.js';
import { okEnvelope } from '../../../http/envelope.js';
import { accounts } from '../../../admin/actions/index.js';
import { accountOf, actorOf } from './context.js';
import { MAX_REUSE_WINDOW_S } from '../../../accounts/verification-reuse.js';

const Score = Type.Union([Type.Integer({ minimum: 0, maximum: 100 }), Type.Null()]);
const Change = Type.Object(
  {
    approve_at: Type.Optional(Score),
    review_at: Type.Optional(Score),
    on_review: Type.Optional(Type.Union([Type.Literal('pay'), Type.Literal('hold'), Type.Null()])),
  },
  { additionalProperties: false },
);

const Reuse = Type.Object({ reuse_window_s: Type.Union([Type.Integer({ minimum: 0, maximum: MAX_REUSE_WINDOW_S }), Type.Null()]) }, { additionalProperties: false });

export function registerNameMatch(api: FastifyInstance, db: Db): void {
  api.get('/console/api/name-match', { schema: { hide: true } }, async (req) => okEnvelope('Name match settings', { ...(await accounts.nameMatchSettings(db, accountOf(req))) }));

  api.put<{ Body: Static<typeof Change> }>('/console/api/name-match', { schema: { hide: true, body: Change } }, async (req) => {
    const { account: _, ...settings } = await accounts.setNameMatch(db, actorOf(req), { accountId: accountOf(req), ...req.body });
    return okEnvelope('Name match settings updated', settings);
  });

  api.get('/console/api/verification-reuse', { schema: { hide: true } }, async (req) =>
    okEnvelope('Payee verification reuse window', { ...(await accounts.verificationReuse(db, accountOf(req))) }),
  );

  api.put<{ Body: Static<typeof Reuse> }>('/console/api/verification-reuse', { schema: { hide: true, body: Reuse } }, async (req) => {
    const { account: _, ...setting } = await accounts.setVerificationReuse(db, actorOf(req), { accountId: accountOf(req), windowS: req.body.reuse_window_s });
    return okEnvelope('Payee verification reuse window updated', setting);
  });
}
