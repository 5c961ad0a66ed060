// Owns the response envelope of CONTRACT §1: { statuscode, ok, message, data }.
import { ApiError, ERRORCODE_BUSINESS_FAILURE } from '../errors.js';
import type { TxStatus } from '../db/schema.js';

export type Statuscode = 'TXN' | 'TUP' | 'ERR';
export interface Envelope {
  statuscode: Statuscode;
  ok: boolean;
  message: string;
  data: Record<string, unknown>;
}

export function errorEnvelope(err: ApiError, requestId: string): Envelope {
  const data: Record<string, unknown> = { Errorcode: err.errorcode, Status: 'Failed', Message: err.message, request_id: requestId, ...err.extra.data };
  if (err.extra.errors) {
    data.errors = err.extra.errors;
    data.Message = err.extra.errors.map((e) => e.message).join('; ');
  }
  return { statuscode: 'ERR', ok: false, message: err.message, data };
}

/** The envelope of an operation result: success → TXN, pending → TUP, failed → ERR (HTTP 200, Errorcode 120). */
export function resultEnvelope(status: TxStatus, message: string, data: Record<string, unknown>, requestId: string): Envelope {
  if (status === 'failed') {
    return {
      statuscode: 'ERR',
      ok: false,
      message,
      data: { ...data, Errorcode: ERRORCODE_BUSINESS_FAILURE, Status: 'Failed', Message: String(data.message ?? message), request_id: requestId },
    };
  }
  return { statuscode: status === 'pending' ? 'TUP' : 'TXN', ok: true, message, data };
}

export const okEnvelope = (message: string, data: Record<string, unknown>): Envelope => ({ statuscode: 'TXN', ok: true, message, data });
