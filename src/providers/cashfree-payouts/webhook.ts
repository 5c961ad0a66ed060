// Owns the verification of Cashfree Payouts Webhooks V2 (PARTNERS.md §3.7): `x-webhook-signature` is
// the Base64 HMAC-SHA256 of `x-webhook-timestamp` + the raw body under the client secret (Cashfree
// signs Payouts webhooks with it; there is no separate webhook secret), compared in constant time. The
// timestamp is epoch milliseconds; one further than WEBHOOK_TOLERANCE_MS from now is refused [G: no
// window is documented; a signed body replayed later is refused, and the de-duplication key in
// transformers.ts drops a replay inside the window]. Anything that does not verify is a
// CallbackRefused: answered 401, nothing changes.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { CallbackRefused, type PartnerEvent, type PartnerOutcome } from '../connector.js';
import { eventsOf, type CfWebhookEvent } from './transformers.js';

type Headers = Record<string, string | string[] | undefined>;

/** [G] PARTNERS.md §3.7 suggests ±5 minutes on the millisecond timestamp. */
export const WEBHOOK_TOLERANCE_MS = 5 * 60_000;

const BASE64_SHA256 = /^[A-Za-z0-9+/]{43}=$/;
const EPOCH_MS = /^\d{1,16}$/;

/** The one value of a header; a repeated header is not a value we can trust. */
function single(headers: Headers, name: string): string | null {
  const v = headers[name];
  return typeof v === 'string' && v !== '' ? v : null;
}

export function signatureOf(timestamp: string, rawBody: string, secret: string): string {
  return createHmac('sha256', secret).update(timestamp + rawBody, 'utf8').digest('base64');
}

/** True when `signature` is the signature of timestamp + body under `secret` (constant time over the digests). */
export function verifySignature(timestamp: string, rawBody: string, signature: string, secret: string): boolean {
  if (!BASE64_SHA256.test(signature)) return false;
  return timingSafeEqual(Buffer.from(signature, 'utf8'), Buffer.from(signatureOf(timestamp, rawBody, secret), 'utf8'));
}

/** Verifies a webhook over its raw bytes and parses it into events; throws CallbackRefused. */
export function parseWebhook(req: { headers: Headers; rawBody: string }, secret: string, now = Date.now()): PartnerEvent<PartnerOutcome>[] {
  const signature = single(req.headers, 'x-webhook-signature');
  if (!signature) throw new CallbackRefused('Callback refused: x-webhook-signature is missing');
  const timestamp = single(req.headers, 'x-webhook-timestamp');
  if (!timestamp || !EPOCH_MS.test(timestamp)) throw new CallbackRefused('Callback refused: x-webhook-timestamp (epoch milliseconds) is missing');
  if (!verifySignature(timestamp, req.rawBody, signature, secret)) throw new CallbackRefused('Callback refused: x-webhook-signature does not verify');
  if (Math.abs(now - Number(timestamp)) > WEBHOOK_TOLERANCE_MS) throw new CallbackRefused('Callback refused: x-webhook-timestamp is too far from now');
  let ev: CfWebhookEvent;
  try {
    ev = JSON.parse(req.rawBody) as CfWebhookEvent;
  } catch {
    throw new CallbackRefused('Callback refused: the body is not JSON');
  }
  if (!ev || typeof ev !== 'object' || Array.isArray(ev)) throw new CallbackRefused('Callback refused: the body is not an event');
  return eventsOf(ev);
}
