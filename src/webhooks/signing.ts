// Owns webhook signatures (Standard Webhooks): "v1,<base64 HMAC-SHA256 of id.timestamp.body>" with a
// whsec_ secret. During a secret rotation the header carries a signature with each secret, so a
// receiver verifies with whichever it has.
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

export const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

export function signatureHeader(secrets: string[], id: string, at: Date, body: string): string {
  return secrets.map((s) => new Webhook(s).sign(id, at, body)).join(' ');
}
