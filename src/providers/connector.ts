// Owns the contract between the core and a partner network: one method per operation, each answering
// an Outcome in our terms. Connectors are stateless translators; the core persists what they answer.
// A partner status we do not recognise must map to pending, never to success.
import type { TxStatus } from '../db/schema.js';

export interface FinalOutcome {
  status: 'success' | 'failed';
  message: string;
  fields: Record<string, unknown>;
}

export interface Outcome {
  status: TxStatus;
  message: string;
  /** Operation-specific result fields, merged into `data` after the standard ones. */
  fields: Record<string, unknown>;
  /** For a pending outcome whose end is already known (the sandbox): what it becomes, and when. */
  settle?: { after_ms: number; final: FinalOutcome };
}

export interface Connector {
  signatureMatch(r: { txnId: string; input: string; name?: string }): Promise<Outcome>;
  /** Only partners that run their own consent screen; the sandbox keeps its sessions itself. */
  aadhaarInitialize?(r: { txnId: string; redirectUrl?: string }): Promise<Outcome>;
  aadhaarDownload(r: { txnId: string; clientId: string; aadhaarNumber?: string }): Promise<Outcome>;
  mobileToBank(r: { txnId: string; mobile: string; accountNumber?: string; ifsc?: string }): Promise<Outcome>;
  upiPay(r: { txnId: string; vpa: string; amountPaise: number }): Promise<Outcome>;
  mobileRecharge(r: { txnId: string; mobile: string; operator: string; circle?: string; type: 'prepaid' | 'postpaid'; amountPaise: number }): Promise<Outcome>;
  dthRecharge(r: { txnId: string; subscriberId: string; operator: string; amountPaise: number }): Promise<Outcome>;
}
