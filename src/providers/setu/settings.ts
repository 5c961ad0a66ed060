// Owns the variables both Setu products take alike: CLIENT_ID and CLIENT_SECRET (the login), WEBHOOK_SECRET
// (the secret path segment of the webhook URL, webhook.ts) and PAYMENT_MODE (optional, default Wallet; one
// of the product's documented modes). A missing or malformed one stops the boot naming it.
import { partnerVars, type PartnerContext } from '../connector.js';

export interface SetuCommonSettings {
  clientId: string;
  clientSecret: string;
  webhookSecret: string;
  mode: string;
}

export function setuSettings(ctx: PartnerContext, kind: string, modes: readonly string[]): SetuCommonSettings & { need(v: string): string; full(v: string): string } {
  const { name: full, need } = partnerVars(ctx, kind);
  const s = { clientId: need('CLIENT_ID'), clientSecret: need('CLIENT_SECRET'), webhookSecret: need('WEBHOOK_SECRET'), mode: ctx.vars.PAYMENT_MODE?.trim() || 'Wallet' };
  if (!/^[A-Za-z0-9_-]{24,128}$/.test(s.webhookSecret)) throw new Error(`${full('WEBHOOK_SECRET')} must be 24 to 128 letters, digits, _ or - (it is a path segment of the webhook URL)`);
  if (!modes.includes(s.mode)) throw new Error(`${full('PAYMENT_MODE')} must be one of ${modes.join(', ')}`);
  return { ...s, need, full };
}
