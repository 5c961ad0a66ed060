// Owns the emulator's error answers in Surepass's shapes (PARTNERS.md §6.1): the documented 401
// `{"error": null, "message", "status_code", …}`, Flask-style validation failures
// `{"errors": {field: text}, "message": "Input payload validation failed"}`, and the envelope Surepass's
// other APIs use for everything else, `{"data": null, "status_code", "success": false, "message",
// "message_code"}`. Routes throw SurepassError; the one error handler in index.ts sends it.
export class SurepassError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: Record<string, unknown>,
  ) {
    super(String(body.message));
  }
}

/** [P] the documented 401 text; `success: false` beside it is [G] (the docs' sample ends in "…"). */
export const invalidToken = (): SurepassError =>
  new SurepassError(401, { error: null, message: 'Your token is invalid. Please ensure that correct token is being used.', status_code: 401, success: false });

/** [P] the validation shape of other Surepass APIs; [G] its HTTP status (400, Flask-RESTX's) and the texts. */
export const validationFailed = (errors: Record<string, string>): SurepassError => new SurepassError(400, { errors, message: 'Input payload validation failed' });

/** [P] the shape of other Surepass failures; the status, text and message_code passed in are [G]. */
export const failure = (status: number, message: string, message_code: string): SurepassError =>
  new SurepassError(status, { data: null, status_code: status, success: false, message, message_code });

export const serverError = (status: number): SurepassError => failure(status, 'Internal Server Error', 'internal_server_error');
export const throttled = (): SurepassError => failure(429, 'Too many requests. Please try again later.', 'rate_limit_exceeded');
export const routeNotFound = (): SurepassError => failure(404, 'Not Found', 'not_found');
