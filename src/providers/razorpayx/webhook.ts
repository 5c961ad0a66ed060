// Owns the verification of RazorpayX webhooks (PARTNERS.md §2.9): `X-Razorpay-Signature` is the
// lower-case hex HMAC-SHA256 of the raw request body under the webhook secret (the one set on the
// webhook in the Dashboard, not the API key secret), compared in constant time; `x-razorpay-event-id`,
// unique per event and kept on redelivery, is the de-duplication key. Anything that does not verify
// is a CallbackRefused: answered 401, nothing changes.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { CallbackRefused, type PartnerEvent, type PartnerOutcome } from '../connector.js';
import { eventsOf, type RzpWebhookEvent } from './transformers.js';

type Headers = Record<string, string | string[] | undefined>;

const HEX_SHA256 = /^[0-9a-f]{64}$/;

/** The one value of a header; a repeated header is not a value we can trust. */
function single(headers: Headers, name: string): string | null {
  const v = headers[name];
  return typeof v === 'string' && v !== '' ? v : null;
}

export function signatureOf(rawBody: string, secret: string): string {
  return createHmac('sha256', secret).update(rawBody, 'utf8').digest('hex');
}

/** True when `signature` is the body's signature under `secret` (constant time over the digests). */
export function verifySignature(rawBody: string, signature: string, secret: string): boolean {
  if (!HEX_SHA256.test(signature)) return false;
  return timingSafeEqual(Buffer.from(signature, 'utf8'), Buffer.from(signatureOf(rawBody, secret), 'utf8'));
}

/** Verifies a webhook over its raw bytes and parses it into events; throws CallbackRefused. */
export function parseWebhook(req: { headers: Headers; rawBody: string }, secret: string): PartnerEvent<PartnerOutcome>[] {
  const signature = single(req.headers, 'x-razorpay-signature');
  if (!signature) throw new CallbackRefused('Callback refused: X-Razorpay-Signature is missing');
  if (!verifySignature(req.rawBody, signature, secret)) throw new CallbackRefused('Callback refused: X-Razorpay-Signature does not verify');
  const eventId = single(req.headers, 'x-razorpay-event-id');
  if (!eventId || eventId.length > 200) throw new CallbackRefused('Callback refused: x-razorpay-event-id is required');
  let ev: RzpWebhookEvent;
  try {
    ev = JSON.parse(req.rawBody) as RzpWebhookEvent;
  } catch {
    throw new CallbackRefused('Callback refused: the body is not JSON');
  }
  if (!ev || typeof ev !== 'object') throw new CallbackRefused('Callback refused: the body is not an event');
  return eventsOf(ev, eventId);
}
