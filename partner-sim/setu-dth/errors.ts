// Owns the BBPS emulator's error answers. [P] Setu's OpenAPI documents `{"success": false, "error":
// {"code", "message"}, "traceId"}` under HTTP 400 and 500 only (no 404 on any call Sangam makes), so an
// unknown biller, refId or payment is a 400 here; the codes (slugs) are [G]. The 401/403 of the token and
// partner-id checks are [G] too. A route BBPS does not have is the gateway's 404, whose body is not
// Setu's envelope [G: the gateway's own text is not documented]. Routes throw BbpsError; index.ts renders it.
export class BbpsError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }

  body(traceId: string): Record<string, unknown> {
    return { success: false, error: { code: this.code, message: this.message }, traceId };
  }
}

export const unauthorized = (): BbpsError => new BbpsError(401, 'unauthorized', 'Invalid or expired token');
export const badCredentials = (): BbpsError => new BbpsError(401, 'invalid-credentials', 'Invalid clientID or secret');
export const badPartnerId = (): BbpsError => new BbpsError(400, 'invalid-partner-id', 'X-PARTNER-ID header must be an integer');
export const wrongPartnerId = (): BbpsError => new BbpsError(403, 'partner-id-mismatch', 'X-PARTNER-ID does not match the token');
export const invalidParams = (message: string): BbpsError => new BbpsError(400, 'invalid-params', message);
export const notFound = (what: string, id: string): BbpsError => new BbpsError(400, `${what}-not-found`, `No ${what.replace('-', ' ')} found for ${id}`);
export const conflict = (code: string, message: string): BbpsError => new BbpsError(409, code, message);
export const serverError = (status: number): BbpsError =>
  status === 500 ? new BbpsError(500, 'internal-server-error', 'Internal server error') : new BbpsError(status, 'upstream-connectivity-error', 'Biller or BBPS central unit unreachable');
/** The gateway's answer to a route it does not have: a 404 that is not one of Setu's documented answers. */
export const GATEWAY_NOT_FOUND = { status: 404, body: { message: 'no Route matched with those values' } } as const;
