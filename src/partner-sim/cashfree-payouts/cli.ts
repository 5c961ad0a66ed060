// Owns `sangam partner-sim --kind cashfree-payouts`: the options of this emulator and how it starts
// (partner-sim/cli.ts lists every kind).
import { startCashfreePayoutsEmulator } from './index.js';
import { commonOptions, int, partnerEnv, webhookUrlOption, type EmulatorKind } from '../kind.js';

export const kind: EmulatorKind = {
  options: { 'client-id': { type: 'string' }, 'client-secret': { type: 'string' }, 'webhook-url': { type: 'string' }, 'balance-paise': { type: 'string' }, 'fundsource-id': { type: 'string' }, 'rate-limit-per-minute': { type: 'string' } },
  async start(v) {
    const emu = await startCashfreePayoutsEmulator({
      ...commonOptions(v),
      clientId: v['client-id'],
      clientSecret: v['client-secret'],
      webhookUrl: webhookUrlOption(v),
      balancePaise: int(v['balance-paise'], 'balance-paise'),
      fundsourceId: v['fundsource-id'],
      rateLimitPerMinute: int(v['rate-limit-per-minute'], 'rate-limit-per-minute'),
    });
    const s = emu.settings;
    const line = {
      kind: 'cashfree-payouts',
      url: emu.url,
      client_id: s.clientId,
      client_secret: s.clientSecret,
      api_version: s.apiVersion,
      fundsource_id: s.fundsourceId,
      webhook_url: s.webhookUrl,
      pending_ms: s.pendingMs,
      latency_ms: s.latencyMs,
      balance_paise: s.balancePaise,
      rate_limit_per_minute: s.rateLimitPerMinute,
      admin: `${emu.origin}/_sim`,
      env: partnerEnv('cashfree', 'cashfree-payouts', emu.url, { CLIENT_ID: s.clientId, CLIENT_SECRET: s.clientSecret }),
    };
    return { line, close: () => emu.close() };
  },
};
