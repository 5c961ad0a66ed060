// Owns the emulator's error answers, in RazorpayX's documented shape (PARTNERS.md §2.8):
// `{"error": {"code", "description", "source", "step", "reason", "metadata", "field"?}}`. Routes and the
// state throw RzpError; the one Fastify error handler in index.ts turns it into the answer.
export interface RzpErrorBody {
  code: 'BAD_REQUEST_ERROR' | 'SERVER_ERROR' | 'GATEWAY_ERROR';
  description: string;
  source: string;
  step: string | null;
  reason: string;
  metadata: Record<string, unknown>;
  field?: string;
}

export class RzpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: RzpErrorBody,
  ) {
    super(body.description);
  }
  toJSON(): { error: RzpErrorBody } {
    return { error: this.body };
  }
}

/** 400 input_validation_failed, the shape of the documented contact-type failure sample [P]. */
export const badRequest = (description: string, field?: string): RzpError =>
  new RzpError(400, {
    code: 'BAD_REQUEST_ERROR',
    description,
    source: 'business',
    step: null,
    reason: 'input_validation_failed',
    metadata: {},
    ...(field === undefined ? {} : { field }),
  });

/** The documented missing-header answer, byte for byte, including `"reason": "null"` as a string [P §2.5]. */
export const idempotencyMissing = (): RzpError =>
  new RzpError(400, {
    code: 'BAD_REQUEST_ERROR',
    description: 'Idempotency key is missing. Include idempotency header and key in the request.',
    source: 'business',
    step: null,
    reason: 'null',
    metadata: {},
    field: 'X-Payout-Idempotency',
  });

/** [G] the docs give HTTP 401 but no body; Razorpay answers auth failures as BAD_REQUEST_ERROR with "NA" fields. */
export const unauthorized = (description: string): RzpError =>
  new RzpError(401, { code: 'BAD_REQUEST_ERROR', description, source: 'NA', step: 'NA', reason: 'NA', metadata: {} });

/** [G] the text of an unknown id; Razorpay answers 400 (not 404) for an id it does not know. */
export const unknownId = (field?: string): RzpError => badRequest('The id provided does not exist', field);

/** [P] reason `insufficient_funds` is a documented error reason (§2.8); the text is [G]. */
export const insufficientFunds = (): RzpError =>
  new RzpError(400, {
    code: 'BAD_REQUEST_ERROR',
    description: 'Your account does not have enough balance to carry out the payout operation.',
    source: 'business',
    step: null,
    reason: 'insufficient_funds',
    metadata: {},
  });

/** [P] HTTP 500/502/503/504 are documented; codes SERVER_ERROR / GATEWAY_ERROR and reason server_error are [P §2.8]. */
export const serverError = (status: number): RzpError =>
  new RzpError(status, {
    code: status === 502 || status === 504 ? 'GATEWAY_ERROR' : 'SERVER_ERROR',
    description: 'The server encountered an error. The incident has been reported to admins.',
    source: 'internal',
    step: null,
    reason: 'server_error',
    metadata: {},
  });

/** [P] 429 "Throttling Error" is documented; the body is [G]. */
export const throttled = (): RzpError =>
  new RzpError(429, {
    code: 'BAD_REQUEST_ERROR',
    description: 'Too many requests',
    source: 'internal',
    step: null,
    reason: 'rate_limit_exceeded',
    metadata: {},
  });

export const routeNotFound = (): RzpError =>
  new RzpError(404, { code: 'BAD_REQUEST_ERROR', description: 'The requested URL was not found on the server.', source: 'NA', step: 'NA', reason: 'NA', metadata: {} });
