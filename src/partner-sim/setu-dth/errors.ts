// Owns the BBPS emulator's error answers. PARTNERS.md §4.7 documents no error body for BBPS BillPay v2;
// [G] the emulator answers `{"success": false, "error": {"code": "<slug>", "message"}, "traceId"}`, in the
// camelCase `traceId` of the documented webhook envelope and with slugs in the style of the prepaid API's
// failureReason values. Routes throw BbpsError; the error handler in index.ts renders it.
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
export const notFound = (what: string, id: string): BbpsError => new BbpsError(404, `${what}-not-found`, `No ${what.replace('-', ' ')} found for ${id}`);
export const conflict = (code: string, message: string): BbpsError => new BbpsError(409, code, message);
export const serverError = (status: number): BbpsError =>
  status === 500 ? new BbpsError(500, 'internal-server-error', 'Internal server error') : new BbpsError(status, 'upstream-connectivity-error', 'Biller or BBPS central unit unreachable');
export const routeNotFound = (): BbpsError => new BbpsError(404, 'route-not-found', 'The requested resource was not found');
