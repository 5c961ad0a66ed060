// Owns an endpoint's signing secret: rotating it, with an overlap during which the old secret also
// signs, so that a receiver can switch without dropping a delivery.
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import type { Db } from '../../../../db/client.js';
import { okEnvelope } from '../../../../http/envelope.js';
import { Envelope, responses } from '../../../../http/responses.js';
import { rotateSecret } from '../../../../webhooks/store.js';
import { ENDPOINT_ERRORS, IdParams, scope, Secret, TAGS } from './schemas.js';

export const DEFAULT_OVERLAP_S = 86_400;

const RotateBody = Type.Object({
  overlap_seconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 7 * 86_400, default: DEFAULT_OVERLAP_S, description: 'How long the old secret also signs', errorMessage: 'overlap_seconds must be 0 to 604800' })),
});

const rotateSchema = {
  operationId: 'rotateWebhookSecret',
  summary: 'New signing secret; both sign during the overlap',
  tags: TAGS,
  params: IdParams,
  body: RotateBody,
  response: responses(
    Envelope(Type.Object({ id: Type.String(), secret: Secret, previous_secret_until: Type.String({ format: 'date-time', description: 'The old secret also signs until then' }) })),
    ENDPOINT_ERRORS,
  ),
};

export function registerSecretRotation(app: FastifyInstance, deps: { db: Db }): void {
  app.post<{ Params: Static<typeof IdParams>; Body: Static<typeof RotateBody> }>(
    '/api/v1/webhook-endpoints/:id/rotate-secret',
    { config: { bodyOptional: true }, schema: rotateSchema },
    async (req) => okEnvelope('Secret rotated', await rotateSecret(deps.db, scope(req), req.params.id, req.body?.overlap_seconds ?? DEFAULT_OVERLAP_S)),
  );
}
