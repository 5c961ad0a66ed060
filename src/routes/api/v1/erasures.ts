// Owns the erasures resource: a tenant asks, for a data principal, that one reference's personal
// content be erased everywhere (admin/actions/erasure.ts); the proofs and the money facts stay.
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import type { Db } from '../../../db/client.js';
import { okEnvelope } from '../../../http/envelope.js';
import { Envelope, responses } from '../../../http/responses.js';
import { eraseReference } from '../../../transactions/erasure.js';
import { TAGS } from './audit-logs/schemas.js';

const ErasureBody = Type.Object(
  { reference_id: Type.String({ pattern: '^[A-Za-z0-9._:-]{1,64}$', description: 'The reference whose personal content is erased', errorMessage: 'reference_id must be 1-64 letters, digits, . _ : -' }) },
  { additionalProperties: false },
);
const Erasure = Type.Object({
  reference_id: Type.String(),
  erased_at: Type.String({ format: 'date-time' }),
  audit_rows_erased: Type.Integer({ description: 'Audit rows whose content was erased now' }),
  audit_rows_kept_legacy: Type.Integer({ description: 'Rows from before content commitments: kept until metadata retention' }),
  transactions_scrubbed: Type.Integer(),
  webhook_events_scrubbed: Type.Integer(),
});

const erasureSchema = {
  operationId: 'createErasure',
  summary: "Erase one reference's personal content (audit bodies, stored results, webhook events); proofs and money facts stay",
  description:
    'Empties the client IP and redacted bodies of every audit row with this reference (their hash commitments stay, so the trail still verifies), ' +
    'scrubs the stored transaction result, idempotent answer and webhook events down to status, amounts, UTR and reversal, and records who asked. ' +
    'A transaction still pending is a 422: erase it once final. Rows written before content commitments are counted, not erased.',
  tags: TAGS,
  body: ErasureBody,
  response: responses(Envelope(Erasure), { errors: [413, 415] }),
};

export function registerErasures(app: FastifyInstance, deps: { db: Db }): void {
  app.post<{ Body: Static<typeof ErasureBody> }>('/api/v1/erasures', { schema: erasureSchema }, async (req) => {
    const { accountId, environment, keyId } = req.auth!;
    const erasure = await eraseReference(deps.db, { accountId, environment, referenceId: req.body.reference_id }, `key:${keyId}`);
    return okEnvelope('Erased', { ...erasure });
  });
}
