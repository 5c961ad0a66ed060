// Owns the one way tests build a cashfree-verification connector directly (no app), pointed at the
// Cashfree Verification emulator, with its partner sessions in memory: the connector-level tests
// (src/providers/cashfree-verification/payee.test.ts) and the schema tests (partner-schemas.test.ts).
import type { CashfreeVerificationEmulator } from '../partner-sim/cashfree-verification/index.js';
import type { Connector, PartnerContext, PartnerSessions } from '../src/providers/connector.js';
import { createCashfreeVerification } from '../src/providers/cashfree-verification/index.js';

/** PartnerSessions in memory (no TTL: a test lives shorter than any). */
export function memorySessions(): PartnerSessions {
  const m = new Map<string, unknown>();
  return {
    get: async <T>(k: string) => m.get(k) as T | undefined,
    put: async (k, v) => void m.set(k, v),
    delete: async (k) => void m.delete(k),
    keys: async (prefix) => [...m.keys()].filter((k) => k.startsWith(prefix)).sort(),
  };
}

/** A connector pointed at the emulator, as the registry would build it from SANGAM_PARTNER_CFV_*. */
export function connectorFor(emu: CashfreeVerificationEmulator, vars: Record<string, string> = {}): Connector {
  const ctx: PartnerContext = {
    name: 'cfv',
    url: emu.url,
    vars: { CLIENT_ID: emu.settings.clientId, CLIENT_SECRET: emu.settings.clientSecret, ...vars },
    webhookUrl: 'http://127.0.0.1:1/partners/cfv/webhooks',
    oauthCallbackUrl: 'http://127.0.0.1:1/partners/cfv/oauth/callback',
    timeoutFor: () => 2000,
    sessions: memorySessions(),
  };
  return createCashfreeVerification(ctx);
}

