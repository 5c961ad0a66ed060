// Owns the emulator's error answers in Cashfree's V2 shape `{"type","code","message"}` (PARTNERS.md §3.5;
// §5.1 says the Verification API presumably uses it too [G]): the CfError of the Payouts emulator, the
// same vendor's shape. Routes throw it; the one error handler in index.ts sends it. Codes follow
// Cashfree's documented pattern `<field>_missing` / `<field>_invalid`, nested fields dotted
// (`beneficiary_details.beneficiary_id_invalid` → `user_consent.obtained_invalid`).
import { CfError } from '../cashfree-payouts/errors.js';

export const invalid = (code: string, message: string): CfError => new CfError(400, { type: 'invalid_request_error', code, message });
export const missing = (field: string): CfError => invalid(`${field}_missing`, `${field} is missing in the request`);

/** [G] the docs give the type `authentication_error` (§3.5) but no 401 body; the code and text are ours. */
export const unauthenticated = (): CfError =>
  new CfError(401, { type: 'authentication_error', code: 'authentication_failed', message: 'Invalid clientId and clientSecret combination' });

/** [P §3.5] the documented 500 body; 502–504 reuse it [G]. */
export const serverError = (status: number): CfError => new CfError(status, { type: 'api_error', code: 'internal_server_error', message: "Error at cashfree's server" });

/** [P] 429 "Too many error requests" is a documented sub-code meaning; the body is [G]. */
export const throttled = (): CfError => new CfError(429, { type: 'rate_limit_error', code: 'rate_limit_exceeded', message: 'Too many requests. Please try again after some time.' });

/** [P] 409 "Resource conflict. Resource might already exist"; the code follows §3.6's `transfer_id_already_exists` guess [G]. */
export const duplicateVerification = (id: string): CfError =>
  new CfError(409, { type: 'invalid_request_error', code: 'verification_id_already_exists', message: `verification_id ${id} already exists` });

/** [G] the gateway's answer to a route it does not have (a GET on the penny-drop path included). */
export const routeNotFound = (): CfError => new CfError(404, { type: 'invalid_request_error', code: 'request_url_not_found', message: 'The requested URL was not found on the server.' });

/** The Verification Suite's documented error body (ErrorResponseSchema): `validation_error`, and a bank-side 422's `error.reference_id`. */
export interface VrsErrorBody {
  type: 'validation_error';
  code: string;
  message: string;
  error?: { reference_id: number };
}

/** [P] a refusal of a BAV V2 or UPI V2 call, in the document's own codes and words; the error handler sends it like any CfError. */
export class VrsError extends CfError {
  constructor(
    statusCode: number,
    readonly vrsBody: VrsErrorBody,
  ) {
    // CfError's body type is the Payouts' (no `validation_error`); toJSON below answers the Verification Suite's own.
    super(statusCode, vrsBody as unknown as CfError['body']);
  }
  override toJSON(): CfError['body'] {
    return this.vrsBody as unknown as CfError['body'];
  }
}
