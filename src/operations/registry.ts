// Owns the list of operations the API serves. Adding an operation: one folder, one line here. Every
// list the rest of Sangam keeps of operations (routes, the OpenAPI document and so the SDK, live
// approvals, partner routing, pricing defaults, audit data classes, the sandbox) is derived from it.
// A declaration that leaves out its fee or data class, or repeats a slug or path, stops the boot.
import { presentIn } from '../http/responses.js';
import { SUCCESS_CARRIES_PARTNER_DATA } from '../contract/partner-read.js';
import type { OperationDef } from './operation.js';
import { signatureMatch } from './signature-match/handler.js';
import { doclockerInitialize } from './doclocker-initialize/handler.js';
import { doclockerDownloadAadhaar } from './doclocker-download-aadhaar/handler.js';
import { mobileToBankAccount } from './mobile-to-bank-account/handler.js';
import { upiPaymentStatus } from './upi-payment-status/handler.js';
import { rechargeCommission } from './recharge-commission/handler.js';
import { dthRecharge } from './dth-recharge/handler.js';
import { nameMatch } from './name-match/handler.js';
import { accountVerification } from './account-verification/handler.js';
import { vpaVerification } from './vpa-verification/handler.js';

export const OPERATIONS: readonly OperationDef[] = [
  signatureMatch,
  doclockerInitialize,
  doclockerDownloadAadhaar,
  mobileToBankAccount,
  upiPaymentStatus,
  rechargeCommission,
  dthRecharge,
  nameMatch,
  accountVerification,
  vpaVerification,
];

/** The declaration's own mistakes, found when the registry loads (so at boot, and in every test). */
export function declarationErrors(ops: readonly OperationDef[]): string[] {
  const errors: string[] = [];
  const seen = new Set<string>();
  for (const op of ops) {
    const name = op.slug || '(no slug)';
    if (!/^[a-z][a-z0-9-]*$/.test(op.slug)) errors.push(`${name}: the slug must be lower-case words joined by hyphens`);
    for (const key of [op.slug, `${op.method} ${op.path}`, op.operationId]) {
      if (seen.has(key)) errors.push(`${name}: ${key} is declared twice`);
      seen.add(key);
    }
    if (!Number.isSafeInteger(op.feePaise) || op.feePaise < 0) errors.push(`${name}: feePaise must be a whole number of paise, 0 or more`);
    if (op.dataClass !== 'identity' && op.dataClass !== 'bodies') errors.push(`${name}: dataClass must be identity or bodies`);
    if (!op.execute && !op.request) errors.push(`${name}: declares neither execute nor request`);
    if (op.request && !op.execute && !op.sandbox) errors.push(`${name}: sends a partner request but declares no sandbox answer`);
  }
  return errors;
}

/**
 * contract/partner-read.ts lists operations whose success always carries own fields (PresentIn
 * success): a listed operation without one is a mistake of that list.
 */
export function partnerReadErrors(ops: readonly OperationDef[]): string[] {
  const carrying = new Set(ops.filter((op) => Object.values(op.result).some((s) => presentIn(s, 'success'))).map((op) => op.slug));
  const extra = [...SUCCESS_CARRIES_PARTNER_DATA].filter((s) => !carrying.has(s));
  return extra.length === 0 ? [] : [`contract/partner-read.ts lists ${extra.join(', ')}, whose success carries no field of its own`];
}

const errors = [...declarationErrors(OPERATIONS), ...partnerReadErrors(OPERATIONS)];
if (errors.length) throw new Error(`operations/registry.ts: ${errors.join('; ')}`);

export const operationBySlug = new Map(OPERATIONS.map((o) => [o.slug, o]));
export const OPERATION_SLUGS: readonly string[] = OPERATIONS.map((o) => o.slug);
