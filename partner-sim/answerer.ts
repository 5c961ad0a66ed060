// Owns what the reference simulator (server.ts) asks of whoever starts it: the outcome of one call in
// our terms (CONTRACT §7's table), where a mobile number lives, and an operator's plans. The simulator
// imports nothing of the server's: `sangam partner-sim` hands it the sandbox's answers
// (src/admin/partner-sim.ts), so the simulator answers exactly as the sandbox does.
import type { WireLookup } from '../shared/protocol.js';

/** What the simulator asks for, after its consent screen: one operation, keyed by the caller's client_ref. */
export type AnswerRequest = { txnId: string } & (
  | { operation: 'signature-match'; input: string; name?: string }
  | { operation: 'doclocker-download-aadhaar'; clientId: string; aadhaarNumber?: string }
  | { operation: 'mobile-to-bank-account'; mobile: string; accountNumber?: string; ifsc?: string }
  | { operation: 'upi-payment-status'; vpa: string; amountPaise: number }
  | { operation: 'recharge-commission'; mobile: string; operator: string; type: 'prepaid'; amountPaise: number; commissionPaise: number }
  | { operation: 'dth-recharge'; subscriberId: string; operator: string; amountPaise: number; commissionPaise: number }
  | { operation: 'account-verification'; accountNumber: string; ifsc: string; name?: string }
  | { operation: 'vpa-verification'; vpa: string; name?: string }
);

export interface FinalAnswer {
  status: 'success' | 'failed';
  message: string;
  fields: Record<string, unknown>;
}

export interface Answer {
  status: 'success' | 'failed' | 'pending';
  message: string;
  fields: Record<string, unknown>;
  /** A pending answer whose end is already known: what it becomes, and when. */
  settle?: { after_ms: number; final: FinalAnswer };
}

/** A prepaid plan, in paise. */
export interface Plan {
  amountPaise: number;
  validity: string;
  description: string;
  category: string;
}

export interface Answerer {
  execute(req: AnswerRequest): Promise<Answer>;
  lookup(mobile: string): WireLookup;
  plans(operator: string): Plan[];
}

/** Makes the simulator's answerer; a pending answer settles after `pendingMs` (--pending-ms). */
export type AnswererFactory = (pendingMs: number) => Answerer;
