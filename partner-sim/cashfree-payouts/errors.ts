// Owns the emulator's error answers in Cashfree's documented V2 shape (PARTNERS.md §3.5):
// `{"type", "code", "message"}`. Routes and the state throw CfError; the one Fastify error handler in
// index.ts turns it into the answer. Codes and texts quoted from the docs are marked [P]; the rest
// follow the documented naming pattern (`<field>_missing` / `<field>_invalid`) and are [G].
export type CfErrorType = 'invalid_request_error' | 'authentication_error' | 'api_error' | 'rate_limit_error';

export interface CfErrorBody {
  type: CfErrorType;
  code: string;
  message: string;
}

export class CfError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: CfErrorBody,
    /** Extra response headers (x-ratelimit-retry on a 429). */
    readonly headers: Record<string, string> = {},
  ) {
    super(body.message);
  }
  toJSON(): CfErrorBody {
    return this.body;
  }
}

/** 400 invalid_request_error, as the documented validation samples [P]. */
export const invalid = (code: string, message: string): CfError => new CfError(400, { type: 'invalid_request_error', code, message });

/** `<field>_missing`: [P] for transfer_id ("transfer_id is missing in the request"); the same pattern elsewhere [G]. */
export const missing = (field: string): CfError => invalid(`${field}_missing`, `${field.split('.').pop()} is missing in the request`);

/** [G] the docs give no 401 body; Cashfree's `authentication_error` type is documented [P §3.5]. */
export const unauthorized = (message: string): CfError => new CfError(401, { type: 'authentication_error', code: 'authentication_failed', message });

/** [P] the documented 403 body; the link target is elided in the docs ("[Support Form](...)"), this one is [G]. */
export const apisNotEnabled = (): CfError =>
  new CfError(403, {
    type: 'invalid_request_error',
    code: 'apis_not_enabled',
    message: 'APIs not enabled. Please fill out the [Support Form](https://merchant.cashfree.com/merchants/landing?env=prod&raise_issue=1) to enable the APIs.',
  });

/** [G] §3.6: reuse is a 409; the v2 code was not captured, `transfer_id_already_exists` follows the v1 `cashgram_id_already_exists`. */
export const transferExists = (transferId: string): CfError =>
  new CfError(409, { type: 'invalid_request_error', code: 'transfer_id_already_exists', message: `Transfer with transfer_id ${transferId} already exists` });

/** [G] the text and code of an unknown transfer on the status API. */
/** [P §9.3] 404 `transfer_id_not_found` "transfer_id does not exist" (or `cf_transfer_id_not_found` when asked by that id). */
export const transferNotFound = (by: 'transfer_id' | 'cf_transfer_id' = 'transfer_id'): CfError =>
  new CfError(404, { type: 'invalid_request_error', code: `${by}_not_found`, message: `${by} does not exist` });

/** [P] `{"type": "api_error", "code": "internal_server_error", "message": "Error at cashfree's server"}`; 502–504 reuse it [G]. */
export const serverError = (status: number): CfError => new CfError(status, { type: 'api_error', code: 'internal_server_error', message: "Error at cashfree's server" });

/** [P] the OpenAPI's 500 `AuthenticationError` example of POST and GET /transfers, word for word. */
export const authenticationServerError = (): CfError =>
  new CfError(500, {
    type: 'authentication_error',
    code: 'internal_server_error',
    message: 'Unable to authenticate the request. Please fill out the [Support Form](https://merchant.cashfree.com/merchants/landing?env=prod&raise_issue=1)',
  });

/** [P] 429 "Too many error requests" and `x-ratelimit-retry` (1–59 s when breached); the body is [G]. */
export const throttled = (retrySeconds: number): CfError =>
  new CfError(429, { type: 'rate_limit_error', code: 'rate_limit_exceeded', message: 'Too many requests. Please retry after some time.' }, { 'x-ratelimit-retry': String(retrySeconds) });

/** [G] an unknown path. */
export const routeNotFound = (): CfError => new CfError(404, { type: 'invalid_request_error', code: 'request_invalid', message: 'The requested URL was not found on the server.' });
