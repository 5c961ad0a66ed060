// Owns the wire format between Sangam and a partner network (what the partner simulator speaks, and
// what a real partner adapter would translate to). Requests carry our transaction id as `client_ref`,
// which the partner treats as its idempotency key; answers carry a partner status string. Both sides
// import it: the server's `sangam` connector (src/providers/sangam/) and the simulator (partner-sim/server.ts).
export const PARTNER_PATHS = {
  signatureMatch: '/v1/ocr/signature-match',
  aadhaarInitialize: '/v1/digilocker/initialize',
  aadhaarDownload: '/v1/digilocker/download',
  mobileToBank: '/v1/bank/mobile-lookup',
  upiPay: '/v1/upi/pay',
  mobileRecharge: '/v1/recharge/mobile',
  dthRecharge: '/v1/recharge/dth',
  accountVerify: '/v1/bank/account-verification',
  vpaVerify: '/v1/upi/vpa-verification',
} as const;

export const partnerStatusPath = (clientRef: string) => `/v1/transactions/${encodeURIComponent(clientRef)}`;

/** Recharge pre-flight: GET with query `mobile`, and with `operator` and `circle` (our codes). */
export const LOOKUP_PATH = '/v1/recharge/operator-lookup';
export const PLANS_PATH = '/v1/recharge/plans';

export interface WireLookup {
  operator: string;
  circle: string;
  ported: boolean;
}

export interface WirePlan {
  amount_paise: number;
  validity: string;
  description: string;
  category: string;
}

/** SUCCESS and FAILURE are final; PENDING is not; anything else is unknown (and treated as pending). */
export type PartnerStatus = 'SUCCESS' | 'FAILURE' | 'PENDING' | (string & {});

export interface PartnerAnswer {
  client_ref: string;
  /** Which request this answers (a PARTNER_PATHS key), so a callback can be read on its own. */
  operation?: keyof typeof PARTNER_PATHS;
  status: PartnerStatus;
  partner_ref: string;
  message: string;
  /** Bank / operator reference when the network gave one. */
  reference?: string | null;
  /** Operation-specific result, in the partner's field names. */
  data?: Record<string, unknown>;
}

/** Body of a partner's signed callback (Standard Webhooks headers). */
export interface PartnerCallback {
  type: 'transaction.update';
  data: PartnerAnswer;
}
