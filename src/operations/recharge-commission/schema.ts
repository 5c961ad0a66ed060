// Request schema of POST /api/v1/mobile-recharge/recharge-commission.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, PresentIn } from '../../http/responses.js';
import { CIRCLES, codes, MOBILE_OPERATORS } from '../../catalog/operators.js';
import { Amount, Code, Consent, IdempotencyKey, Mobile, ReferenceId } from '../../contract/fields.js';

export const RECHARGE_MAX_INR = 10_000;

export const RechargeRequest = Type.Object({
  reference_id: ReferenceId,
  consent: Consent,
  mobile: Mobile,
  operator: Type.Optional(
    Code('operator', codes(MOBILE_OPERATORS), 'Mobile operator code (GET /api/v1/mobile-recharge/operators); left out, Sangam looks it up (and the circle) and data.operator says which it used'),
  ),
  amount: Amount(RECHARGE_MAX_INR),
  circle: Type.Optional(Code('circle', codes(CIRCLES), 'Telecom circle code')),
  type: Type.Optional(
    Type.Union([Type.Literal('prepaid'), Type.Literal('postpaid')], { default: 'prepaid', description: 'prepaid (default) or postpaid', errorMessage: 'type must be prepaid or postpaid' }),
  ),
  idempotency_key: Type.Optional(IdempotencyKey),
});
export type RechargeRequest = Static<typeof RechargeRequest>;

/** Its own result fields, shared with dth-recharge (the standard ones come from http/responses.ts). */
export const RechargeResult = {
  txn_id: PresentIn(['success', 'pending'], Type.String({ description: "Sangam's transaction id" })),
  amount: PresentIn(['success', 'pending'], Type.Number({ description: 'INR' })),
  operator: Type.Optional(Type.String({ description: 'The operator code the recharge went to' })),
  utr: PresentIn(['success'], Nullable(Type.String(), { description: "The operator's reference; null while pending or failed" })),
  commission: PresentIn(['success'], Type.Number({ description: 'What the operator pays on this recharge, INR' })),
};

export const MobileRechargeResult = {
  ...RechargeResult,
  circle: Type.Optional(Nullable(Type.String(), { description: 'The circle code used, when known' })),
};
