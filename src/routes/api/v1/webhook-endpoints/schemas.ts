// Owns what the webhook endpoint routes share: the endpoint id parameter, the endpoint and delivery
// shapes of the OpenAPI document, and the scope a key acts in (its account and environment).
import type { FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { Nullable } from '../../../../http/responses.js';
import { EVENT_TYPES } from '../../../../webhooks/store.js';

export const TAGS = ['Webhooks'];

export const IdParams = Type.Object({ id: Type.String({ pattern: '^we_[0-9A-Za-z]{20}$', description: 'A webhook endpoint id: we_ and 20 letters or digits', errorMessage: 'id must be a webhook endpoint id (we_…)' }) });

export const DateTime = Type.String({ format: 'date-time' });

export const Endpoint = {
  id: Type.String({ pattern: '^we_[0-9A-Za-z]{20}$' }),
  url: Type.String(),
  environment: Type.Union([Type.Literal('sandbox'), Type.Literal('live')]),
  event_types: Nullable(Type.Array(Type.String({ enum: [...EVENT_TYPES] }), { description: 'null: every event' })),
  created_at: DateTime,
  disabled_at: Nullable(Type.String({ format: 'date-time', description: 'Set when failing deliveries disabled it; a replay enables it again' })),
  disabled_reason: Nullable(Type.String()),
};

export const Secret = Type.String({ pattern: '^whsec_', description: 'The signing secret (Standard Webhooks, whsec_ and base64); shown only here' });

/** The errors of a route on one endpoint: another account's (or no) endpoint, and body limits. */
export const ENDPOINT_ERRORS = { errors: [404, 413, 415] };

/** The account and environment of the calling key: endpoints are theirs alone. */
export const scope = (req: FastifyRequest) => ({ accountId: req.auth!.accountId, environment: req.auth!.environment });
