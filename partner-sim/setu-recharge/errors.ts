// Owns the Setu prepaid emulator's error answers, in the shapes PARTNERS.md §4.1/§4.4 document:
//   API errors   {"success": false, "error": {"code": "ERRnnn", "failureReason": "<slug>", "message"}, "trace_id"}
//   auth errors  {"status": 401, "type": "", "message", "trace_id"}   (the token endpoint's documented 401)
// Routes throw SetuError; the one error handler in index.ts renders it with the request's trace id (which is
// also the `x-trace-id` response header).
import { randomBytes } from 'node:crypto';

export class SetuError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    readonly failureReason: string,
    message: string,
    /** `auth` renders the token endpoint's 401 shape instead of the API error shape. */
    readonly shape: 'api' | 'auth' = 'api',
  ) {
    super(message);
  }

  body(traceId: string): Record<string, unknown> {
    if (this.shape === 'auth') return { status: this.statusCode, type: '', message: this.message, trace_id: traceId };
    return { success: false, error: { code: this.code, failureReason: this.failureReason, message: this.message }, trace_id: traceId };
  }
}

/** [G] trace ids: the docs show 20–30 lower/mixed-case alphanumerics (`cu7it2r6nmjg00e34e8g`); we issue 20. */
export function newTraceId(): string {
  const alphabet = '0123456789abcdefghijklmnopqrstuv';
  return [...randomBytes(20)].map((b) => alphabet[b % 32]).join('');
}

/** [P] the documented 401 text; [G] the same body for a missing/expired bearer token on the API. */
export const notAuthenticated = (): SetuError =>
  new SetuError(401, '', '', 'You are not authenticated to perform the requested action.', 'auth');

/** [G] a malformed token request (the docs show only the 401). */
export const badTokenRequest = (message: string): SetuError => new SetuError(400, '', '', message, 'auth');

// [P] codes and slugs from §4.4; the HTTP statuses: ERR003/ERR009/ERR011 are documented 422 examples, ERR005 is
// documented under 500 (and ERR009 too, on /recharge/request); ERR007 as 400 and ERR100/ERR999 as 5xx are [G] within the documented 400/422/500.
export const invalidParams = (message: string): SetuError => new SetuError(400, 'ERR007', 'invalid-params', message);
export const paramsMissing = (missing: string[]): SetuError =>
  new SetuError(422, 'ERR011', 'input-params-missing', `Missing required parameters: [${missing.map((m) => `'${m}'`).join(', ')}]`);
export const paramsInvalid = (message: string): SetuError => new SetuError(422, 'ERR011', 'input-params-invalid', message);
/** [P] Setu's OpenAPI: ERR009 is a 422 on every call but `/recharge/request`, whose example shows it under HTTP 500. */
export const invalidInstance = (status: 422 | 500 = 422): SetuError => new SetuError(status, 'ERR009', 'invalid-instance-id', 'Invalid product instance id');
export const invalidTxnRef = (ref: string): SetuError => new SetuError(422, 'ERR003', 'invalid-txn-ref-id', `Invalid Transaction Reference ID : ${ref}`);
export const duplicatePaymentRef = (ref: string): SetuError => new SetuError(500, 'ERR005', 'duplicate-payment-ref-id', `Duplicate Payment Reference ID : ${ref}`);

/** An injected 5xx: 500 is ERR100 internal-server-error, 502/503/504 are ERR999 upstream-connectivity-error [G pairing]. */
export const serverError = (status: number): SetuError =>
  status === 500
    ? new SetuError(500, 'ERR100', 'internal-server-error', 'Internal server error')
    : new SetuError(status, 'ERR999', 'upstream-connectivity-error', 'Unable to connect to the operator. Please check the status after some time.');

/** [G] the gateway's own 404 for a route it does not have (not a Setu answer: no `error` code). */
export const GATEWAY_NOT_FOUND = { status: 404, body: { message: 'no Route matched with those values' } } as const;

/** [G] no 404 is documented; an unknown path answers in the API error shape. */
export const routeNotFound = (): SetuError => new SetuError(404, 'ERR404', 'route-not-found', 'The requested resource was not found');
