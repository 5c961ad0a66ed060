// Owns GET /api/v1/transactions/{reference_id}: the latest state of the calling account's operation
// with that reference, in the same envelope the operation itself would now answer.
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { ApiError } from '../../../errors.js';
import { resultEnvelope } from '../../../http/envelope.js';
import { OPERATIONS, operationBySlug } from '../../../operations/registry.js';
import { ReferenceId } from '../../../contract/fields.js';
import { ErasedResultEnvelope, responses, ResultEnvelope } from '../../../http/responses.js';
import { KEPT } from '../../../transactions/erasure.js';
import type { TransactionStore } from '../../../transactions/store.js';

export function registerTransactionRoutes(app: FastifyInstance, services: { transactions: TransactionStore }): void {
  app.get<{ Params: { reference_id: string } }>(
    '/api/v1/transactions/:reference_id',
    {
      schema: {
        operationId: 'getTransaction',
        summary: 'Latest state of an operation, by reference_id (for polling)',
        description: "The same envelope and data as the operation's own answer would now give, plus operation and environment; statuscode follows data.status.",
        tags: ['Transactions'],
        params: Type.Object({ reference_id: ReferenceId }),
        response: responses(
          // One answer per operation (its own result fields, `operation` the discriminator), each in its
          // three statuses, and as it reads once erased (erased_at; the money facts stay required): a
          // typed client narrows on data.operation and data.status and reads utr, amount, score… with
          // their types (the SDK's waitForFinal), not as unknown.
          Type.Union(
            OPERATIONS.flatMap((def) => {
              const fields = {
                ...def.result,
                operation: Type.Literal(def.slug, { description: 'The operation slug, such as upi-payment-status' }),
                environment: Type.Union([Type.Literal('sandbox'), Type.Literal('live')]),
              };
              return [ResultEnvelope(fields, `A ${def.slug} transaction`), ErasedResultEnvelope(fields, KEPT, `A ${def.slug} transaction whose content was erased`)];
            }),
            { description: "The operation's latest state: the envelope and data the operation's own answer would now give, plus operation and environment" },
          ),
          { errors: [404] },
        ),
      },
    },
    async (req, reply) => {
      const { accountId, environment } = req.auth!;
      const tx = await services.transactions.latest(accountId, environment, req.params.reference_id);
      if (!tx) throw new ApiError('not_found', `No transaction with reference_id ${req.params.reference_id}`);
      const def = operationBySlug.get(tx.operation);
      // jsonb does not keep key order: put the standard result fields first again.
      const { status, reference_id, verified_at, message, ...rest } = def?.unstored ? def.unstored.hydrate(tx.result, tx.environment) : tx.result;
      const data = { status, reference_id, verified_at, message, ...rest, operation: tx.operation, environment: tx.environment };
      const body = resultEnvelope(tx.status, String(message ?? ''), data, req.id);
      return reply.type('application/json; charset=utf-8').send(JSON.stringify(body));
    },
  );
}
