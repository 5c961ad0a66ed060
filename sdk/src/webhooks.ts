// Owns webhook verification on the receiving side. Sangam signs deliveries the Standard Webhooks way
// (webhook-id, webhook-timestamp, webhook-signature "v1,<base64 HMAC-SHA256 of id.timestamp.body>",
// secrets "whsec_<base64>"); during a secret rotation the signature header carries one signature per
// secret, and any one of them verifying is enough. Verify the raw body, before any JSON parsing.
import { Webhook, WebhookVerificationError } from 'standardwebhooks';

export { WebhookVerificationError };

/** The headers of a delivery, as Node's IncomingHttpHeaders, a fetch Headers, or a plain record. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

/** An event Sangam delivers: `type` is transaction.success or transaction.failed. */
export interface WebhookEvent {
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

function plain(headers: WebhookHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  if (headers instanceof Headers) headers.forEach((v, k) => (out[k] = v));
  else for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(' ') : v;
  return out;
}

/**
 * Checks the signature and timestamp (at most 5 minutes old) of a delivery and returns its event.
 * Throws WebhookVerificationError when the delivery was not signed with `secret` or was altered.
 */
export function verify(payload: string | Buffer, headers: WebhookHeaders, secret: string): WebhookEvent {
  return new Webhook(secret).verify(payload, plain(headers)) as WebhookEvent;
}
