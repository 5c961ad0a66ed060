// Request schema of POST /api/v1/dth/dth-recharge (`mobile` is an alias of `subscriber_id`); its operator
// and subscriber id fields are shared with GET /api/v1/dth/subscriber-info.
import { Type, type Static } from '@sinclair/typebox';
import { codes, DTH_OPERATORS } from '../../catalog/operators.js';
import { Alias, Amount, Code, Consent, IdempotencyKey, ReferenceId } from '../../contract/fields.js';

export const DTH_MAX_INR = 50_000;

export const SubscriberId = Type.String({
  pattern: '^[0-9]{6,16}$',
  description: 'DTH subscriber / customer id, or the registered mobile number: 6 to 16 digits',
  errorMessage: 'subscriber_id must be 6 to 16 digits (the subscriber id or registered mobile number)',
  examples: ['1234567890'],
});

export const DthOperator = Code('operator', codes(DTH_OPERATORS), 'DTH operator code (GET /api/v1/dth/operators)');

export const DthRechargeRequest = Type.Object({
  reference_id: ReferenceId,
  consent: Consent,
  subscriber_id: SubscriberId,
  mobile: Type.Optional(Alias('subscriber_id', SubscriberId)),
  operator: DthOperator,
  amount: Amount(DTH_MAX_INR),
  idempotency_key: Type.Optional(IdempotencyKey),
});
export type DthRechargeRequest = Static<typeof DthRechargeRequest>;
