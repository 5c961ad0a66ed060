// Owns the RazorpayX fund account validation of a VPA (PARTNERS.md §9.1), the payout name check's
// question to this partner: POST /v1/fund_accounts/validations with the VPA fund account inline, then,
// while the answer is `created` (the docs call validation asynchronous: "most … instantaneously", yet
// "always `created`" in the FAQ), GET /v1/fund_accounts/validations/{id} with a growing gap until a
// verdict or the wait runs out (awaitVerdict, which the payee verifications of payee.ts share). The `fund_account.validation.*` webhooks are not needed for that and are
// acknowledged unread (transformers.ts eventsOf).
//
// A validation moves no money, so every way it can go wrong is a PartnerError — nothing was paid, the
// router may ask the next partner, the client may retry: not reached, no full answer (unlike a payout,
// nothing can have been paid), any non-2xx, an unreadable answer, `failed` (a technical failure, not a
// verdict), and no verdict within the wait (kind `timeout`). Never a NoAnswer.
import { setTimeout as sleep } from 'node:timers/promises';
import { PartnerError, type VpaHolder } from '../connector.js';
import type { RazorpayxHttp, RzpAnswer } from './http.js';
import { Unsent } from './http.js';
import { asValidation, errorDescription, refusalOf, MIN_AMOUNT_PAISE, validationBody, validationStateOf, type RzpErrorBody, type RzpValidation } from './transformers.js';

/** The first gap between enquiries, doubling up to the last. */
const POLL_FIRST_MS = 100;
const POLL_MAX_MS = 1000;

export interface ValidationSettings {
  accountNumber: string;
  /** One call's deadline. */
  callTimeoutMs: number;
  /** How long a validation may stay `created` before we give up on it (VALIDATION_WAIT_MS). */
  waitMs: number;
}

const NOTHING_PAID = 'nothing was paid';

/** The VPA's holder as RazorpayX validates it; throws PartnerError (see the module header). */
export async function validateVpa(http: RazorpayxHttp, s: ValidationSettings, vpa: string): Promise<VpaHolder> {
  const pre = refusalOf(vpa, MIN_AMOUNT_PAISE);
  if (pre) throw new PartnerError('unavailable', `${pre}; ${NOTHING_PAID}`);
  const giveUpAt = Date.now() + s.waitMs;
  const created = await call(http, s, 'POST', '/v1/fund_accounts/validations', JSON.stringify(validationBody(vpa, s.accountNumber)));
  const fav = await awaitVerdict(created, giveUpAt, (id) => call(http, s, 'GET', validationPath(id)));
  const state = validationStateOf(fav);
  if (state.kind === 'holder') return state.holder;
  if (state.kind === 'failed') throw new PartnerError('unavailable', `RazorpayX could not validate the VPA (${state.reason}); ${NOTHING_PAID}`);
  throw new PartnerError('timeout', `RazorpayX has not finished validating the VPA (${fav.id}); ${NOTHING_PAID}`);
}

export const validationPath = (id: string) => `/v1/fund_accounts/validations/${encodeURIComponent(id)}`;

/**
 * Asks again, with a growing gap, while a validation is `created` (or of a status we do not know), until
 * it has a verdict, the next gap would pass `giveUpAt`, or `fetch` answers null (stop asking); answers
 * the last state seen. What `fetch` throws, it throws.
 */
export async function awaitVerdict(fav: RzpValidation, giveUpAt: number, fetch: (id: string) => Promise<RzpValidation | null>): Promise<RzpValidation> {
  for (let gap = POLL_FIRST_MS; ; gap = Math.min(gap * 2, POLL_MAX_MS)) {
    if (fav.status === 'completed' || fav.status === 'failed' || Date.now() + gap > giveUpAt) return fav;
    await sleep(gap);
    const next = await fetch(fav.id);
    if (!next) return fav;
    fav = next;
  }
}

/** One validation call, read as a validation entity; any other outcome is a PartnerError. */
async function call(http: RazorpayxHttp, s: ValidationSettings, method: 'GET' | 'POST', path: string, body?: string): Promise<RzpValidation> {
  let a: RzpAnswer;
  try {
    a = await http.call(method, path, s.callTimeoutMs, body);
  } catch (err) {
    throw new PartnerError(err instanceof Unsent && err.timedOut ? 'timeout' : 'unavailable', `RazorpayX did not answer the VPA validation (${(err as Error).message}); ${NOTHING_PAID}`);
  }
  if (a.status < 200 || a.status >= 300) {
    const why = errorDescription(a.json as RzpErrorBody);
    throw new PartnerError('unavailable', `RazorpayX refused the VPA validation (HTTP ${a.status}${why ? `: ${why}` : ''}); ${NOTHING_PAID}`);
  }
  const fav = asValidation(a.json);
  if (!fav) throw new PartnerError('unavailable', `RazorpayX gave an unreadable VPA validation (HTTP ${a.status}); ${NOTHING_PAID}`);
  return fav;
}
