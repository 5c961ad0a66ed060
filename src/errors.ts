// Owns the closed list of API error codes, their HTTP statuses and Errorcodes (CONTRACT §1), and the
// ApiError that services throw. The HTTP layer (http/error-handler.ts) is the one place that turns
// them into envelopes.

export const ERRORS = {
  invalid_json: { http: 400, errorcode: 103 },
  unauthenticated: { http: 401, errorcode: 101 },
  insufficient_funds: { http: 402, errorcode: 105 },
  forbidden: { http: 403, errorcode: 102 },
  not_found: { http: 404, errorcode: 109 },
  method_not_allowed: { http: 405, errorcode: 110 },
  idempotency_in_flight: { http: 409, errorcode: 106 },
  // A reference_id that already names another transaction of the account (CONTRACT §5).
  reference_taken: { http: 409, errorcode: 114 },
  body_too_large: { http: 413, errorcode: 111 },
  unsupported_media_type: { http: 415, errorcode: 112 },
  // An Expect header other than 100-continue (http/expectation.ts): a request that cannot be processed
  // as sent, like the malformed requests answered 400 / 103.
  expectation_failed: { http: 417, errorcode: 103 },
  validation: { http: 422, errorcode: 104 },
  idempotency_mismatch: { http: 422, errorcode: 107 },
  rate_limited: { http: 429, errorcode: 108 },
  internal: { http: 500, errorcode: 199 },
  partner_failed: { http: 502, errorcode: 113 },
  partner_timeout: { http: 504, errorcode: 113 },
} as const satisfies Record<string, { http: number; errorcode: number }>;

export type ErrorCode = keyof typeof ERRORS;

/** Errorcode of a successful or pending answer, and of a business failure (HTTP 200, ok: false). */
export const ERRORCODE_SUCCESS = 100;
export const ERRORCODE_BUSINESS_FAILURE = 120;

export interface FieldError {
  field: string;
  message: string;
  /** The row of a batch upload the field is in (src/batches/). */
  row?: number;
}

/** The message CONTRACT §1 fixes for validation failures. */
export const VALIDATION_MESSAGE = 'Invalid request: please check the required parameters and try again';

export class ApiError extends Error {
  readonly http: number;
  readonly errorcode: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: { errors?: FieldError[]; headers?: Record<string, string>; data?: Record<string, unknown> } = {},
  ) {
    super(message);
    this.http = ERRORS[code].http;
    this.errorcode = ERRORS[code].errorcode;
  }

  static validation(errors: FieldError[]): ApiError {
    return new ApiError('validation', VALIDATION_MESSAGE, { errors });
  }

  /** 409 / 114: `referenceId` already names the transaction `txnId` (CONTRACT §5); nothing was executed. */
  static referenceTaken(referenceId: string, txnId: string): ApiError {
    const message = `reference_id ${referenceId} already names transaction ${txnId}; nothing was executed or debited. Use a new reference_id for a new transaction`;
    return new ApiError('reference_taken', message, { errors: [{ field: 'reference_id', message }], data: { txn_id: txnId } });
  }
}
