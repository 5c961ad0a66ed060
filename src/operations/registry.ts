// Owns the list of operations the API serves. Adding an operation: one folder, one line here.
import type { OperationDef } from './operation.js';
import { OPERATION_SLUGS } from '../providers/connector.js';
import { signatureMatch } from './signature-match/handler.js';
import { doclockerInitialize } from './doclocker-initialize/handler.js';
import { doclockerDownloadAadhaar } from './doclocker-download-aadhaar/handler.js';
import { mobileToBankAccount } from './mobile-to-bank-account/handler.js';
import { upiPaymentStatus } from './upi-payment-status/handler.js';
import { rechargeCommission } from './recharge-commission/handler.js';
import { dthRecharge } from './dth-recharge/handler.js';

export const OPERATIONS: readonly OperationDef[] = [
  signatureMatch,
  doclockerInitialize,
  doclockerDownloadAadhaar,
  mobileToBankAccount,
  upiPaymentStatus,
  rechargeCommission,
  dthRecharge,
];

// The rooms below name the operations by OPERATION_SLUGS without importing them: it must say the same.
if (OPERATIONS.map((o) => o.slug).join() !== OPERATION_SLUGS.join()) {
  throw new Error(`OPERATION_SLUGS (providers/connector.ts) differs from the registry: ${OPERATIONS.map((o) => o.slug).join(', ')}`);
}

export const operationBySlug = new Map(OPERATIONS.map((o) => [o.slug, o]));
