// Owns the errors the SDK throws: SangamError for every non-2xx answer (the API's error envelope:
// Errorcode, message, errors[], request_id), SangamConnectionError when no answer arrived, and
// SangamTimeoutError when waitForFinal gives up. A business failure (HTTP 200, data.status "failed") is
// a result, not an error: it is returned.

export interface FieldError {
  field: string;
  message: string;
}

/** A non-2xx answer from the API. */
export class SangamError extends Error {
  override name = 'SangamError';
  constructor(
    /** HTTP status. */
    readonly status: number,
    /** The API's Errorcode (101 unauthenticated, 104 validation, 106 in flight, 108 rate limited, …). */
    readonly errorcode: number | undefined,
    message: string,
    /** One entry per bad field on a 422. */
    readonly errors: FieldError[],
    /** X-Request-Id of the answer: quote it to support. */
    readonly requestId: string | undefined,
    /** Seconds the server asked to wait (Retry-After), if it did. */
    readonly retryAfter: number | undefined,
    /** The answer's body as received. */
    readonly body: unknown,
  ) {
    super(message);
  }

  static from(response: Response, body: unknown): SangamError {
    const env = (typeof body === 'object' && body !== null ? body : {}) as { message?: unknown; data?: Record<string, unknown> };
    const data = env.data ?? {};
    const errors = Array.isArray(data.errors) ? (data.errors as FieldError[]) : [];
    const message = String(data.Message ?? env.message ?? ((typeof body === 'string' && body) || `HTTP ${response.status}`));
    const retryAfter = Number(response.headers.get('retry-after') ?? NaN);
    return new SangamError(
      response.status,
      typeof data.Errorcode === 'number' ? data.Errorcode : undefined,
      message,
      errors,
      (typeof data.request_id === 'string' ? data.request_id : undefined) ?? response.headers.get('x-request-id') ?? undefined,
      Number.isFinite(retryAfter) ? retryAfter : undefined,
      body,
    );
  }
}

/** No answer: the connection failed or the attempt timed out. */
export class SangamConnectionError extends Error {
  override name = 'SangamConnectionError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** waitForFinal: the transaction was still pending when its time limit passed. */
export class SangamTimeoutError extends Error {
  override name = 'SangamTimeoutError';
  constructor(
    readonly referenceId: string,
    readonly last: unknown,
  ) {
    super(`transaction ${referenceId} was still pending when waitForFinal's time limit passed`);
  }
}
