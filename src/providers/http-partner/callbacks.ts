// Owns partner callbacks in: POST /partner/v1/callbacks. A callback is verified with the partner's
// Standard Webhooks secret (a stale timestamp, over 5 minutes, fails verification); a repeated
// webhook-id is acknowledged and dropped. A final status moves the pending transaction to its final
// state with its ledger effect, once (settleLive). A callback that disagrees with a final state is
// logged and the transaction flagged for review; the final state never changes.
import type { FastifyInstance } from 'fastify';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { ApiError } from '../../errors.js';
import { settleLive } from '../../operations/live.js';
import { operationBySlug } from '../../operations/registry.js';
import type { Services } from '../../services.js';
import { finalFrom, OP_OF_SLUG } from './index.js';
import type { PartnerAnswer, PartnerCallback } from './protocol.js';

export const CALLBACK_PATH = '/partner/v1/callbacks';

export type CallbackResult = 'settled' | 'duplicate' | 'not_final' | 'already_final' | 'conflict' | 'unknown_transaction';

/** Applies one partner answer (from a callback or a status enquiry) to our transaction. */
export async function applyPartnerAnswer(services: Services, answer: PartnerAnswer, webhookId: string | null): Promise<CallbackResult> {
  const { db, transactions } = services;
  return db.transaction().execute(async (trx) => {
    if (webhookId) {
      const fresh = await trx
        .insertInto('partner_callbacks')
        .values({ webhook_id: webhookId, txn_id: answer.client_ref, status: answer.status, outcome: 'received' })
        .onConflict((oc) => oc.doNothing())
        .returning('webhook_id')
        .executeTakeFirst();
      if (!fresh) return 'duplicate';
    }
    const tx = await transactions.get(trx, answer.client_ref);
    const def = tx && tx.environment === 'live' ? operationBySlug.get(tx.operation) : undefined;
    let result: CallbackResult;
    if (!tx || !def) result = 'unknown_transaction';
    else {
      const h = await trx.selectFrom('holds').select(['principal_paise', 'commission_paise']).where('txn_id', '=', tx.id).executeTakeFirst();
      const final = finalFrom(OP_OF_SLUG[def.slug]!, answer, { txnId: tx.id, amountPaise: h?.principal_paise, commissionPaise: h?.commission_paise });
      if (!final) result = 'not_final';
      else if (await settleLive(trx, services, def, tx.id, final)) result = 'settled';
      else if (tx.status === final.status) result = 'already_final';
      else {
        result = 'conflict';
        await trx
          .updateTable('transactions')
          .set({ flagged: `partner reported ${answer.status} after the transaction was final (${tx.status})` })
          .where('id', '=', tx.id)
          .execute();
      }
    }
    if (webhookId) await trx.updateTable('partner_callbacks').set({ outcome: result }).where('webhook_id', '=', webhookId).execute();
    return result;
  });
}

export function registerPartnerCallbacks(app: FastifyInstance, services: Services): void {
  const secret = services.config.partner.secret;
  if (!secret) return;
  const verifier = new Webhook(secret);
  app.register(async (scope) => {
    // The signature covers the exact bytes sent: keep the body as a string.
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => done(null, body));
    scope.post(CALLBACK_PATH, { schema: { hide: true } }, async (req, reply) => {
      const headers = {
        'webhook-id': String(req.headers['webhook-id'] ?? ''),
        'webhook-timestamp': String(req.headers['webhook-timestamp'] ?? ''),
        'webhook-signature': String(req.headers['webhook-signature'] ?? ''),
      };
      let payload: PartnerCallback;
      try {
        payload = verifier.verify(String(req.body ?? ''), headers) as PartnerCallback;
      } catch (err) {
        if (err instanceof WebhookVerificationError) {
          req.log.warn({ webhook_id: headers['webhook-id'], reason: err.message }, 'partner callback refused');
          throw new ApiError('unauthenticated', `Callback refused: ${err.message}`);
        }
        throw err;
      }
      if (!payload?.data || typeof payload.data.client_ref !== 'string') throw ApiError.validation([{ field: 'data.client_ref', message: 'data.client_ref is required' }]);
      const result = await applyPartnerAnswer(services, payload.data, headers['webhook-id']);
      if (result === 'conflict') req.log.warn({ txn_id: payload.data.client_ref, status: payload.data.status }, 'conflicting partner callback flagged');
      return reply.send({ ok: true, result });
    });
  });
}
