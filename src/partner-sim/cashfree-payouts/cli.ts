// Owns `sangam partner-sim --kind cashfree-payouts`: the options of this emulator and how it starts
// (partner-sim/cli.ts lists every kind).
import { startCashfreePayoutsEmulator } from './index.js';
import { int, type EmulatorKind } from '../kind.js';

export const kind: EmulatorKind = {
  options: { 'client-id': { type: 'string' }, 'client-secret': { type: 'string' }, 'webhook-url': { type: 'string' }, 'balance-paise': { type: 'string' }, 'fundsource-id': { type: 'string' }, 'rate-limit-per-minute': { type: 'string' } },
  async start(v) {
    if (v['webhook-url'] !== undefined && !URL.canParse(v['webhook-url'])) throw new Error('--webhook-url must be an absolute URL');
    const emu = await startCashfreePayoutsEmulator({
      port: int(v.port, 'port'),
      host: v.host,
      clientId: v['client-id'],
      clientSecret: v['client-secret'],
      webhookUrl: v['webhook-url'],
      pendingMs: int(v['pending-ms'], 'pending-ms'),
      latencyMs: int(v['latency-ms'], 'latency-ms'),
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
      env: {
        SANGAM_PARTNER_CASHFREE_KIND: 'cashfree-payouts',
        SANGAM_PARTNER_CASHFREE_URL: emu.url,
        SANGAM_PARTNER_CASHFREE_CLIENT_ID: s.clientId,
        SANGAM_PARTNER_CASHFREE_CLIENT_SECRET: s.clientSecret,
      },
    };
    return { line, close: () => emu.close() };
  },
  };
