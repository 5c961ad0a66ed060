// Request schema of POST /api/v1/mobile-recharge/recharge-commission.
import { Type, type Static } from '@sinclair/typebox';
import { CIRCLES, codes, MOBILE_OPERATORS } from '../../catalog/operators.js';
import { Amount, Code, Consent, IdempotencyKey, Mobile, ReferenceId } from '../fields.js';

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
