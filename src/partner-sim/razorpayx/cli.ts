// Owns `sangam partner-sim --kind razorpayx`: the options of this emulator and how it starts
// (partner-sim/cli.ts lists every kind).
import { startRazorpayxEmulator } from './index.js';
import { int, type EmulatorKind } from '../kind.js';

export const kind: EmulatorKind = {
  options: { 'key-id': { type: 'string' }, 'key-secret': { type: 'string' }, 'account-number': { type: 'string' }, 'webhook-secret': { type: 'string' }, 'webhook-url': { type: 'string' }, 'balance-paise': { type: 'string' }, 'validation-ms': { type: 'string' } },
  async start(v) {
    if (v['webhook-url'] !== undefined && !URL.canParse(v['webhook-url'])) throw new Error('--webhook-url must be an absolute URL');
    const emu = await startRazorpayxEmulator({
      port: int(v.port, 'port'),
      host: v.host,
      keyId: v['key-id'],
      keySecret: v['key-secret'],
      accountNumber: v['account-number'],
      webhookSecret: v['webhook-secret'],
      webhookUrl: v['webhook-url'],
      pendingMs: int(v['pending-ms'], 'pending-ms'),
      latencyMs: int(v['latency-ms'], 'latency-ms'),
      balancePaise: int(v['balance-paise'], 'balance-paise'),
      validationMs: int(v['validation-ms'], 'validation-ms'),
    });
    const s = emu.settings;
    const line = {
      kind: 'razorpayx',
      url: emu.url,
      key_id: s.keyId,
      key_secret: s.keySecret,
      account_number: s.accountNumber,
      webhook_secret: s.webhookSecret,
      webhook_url: s.webhookUrl,
      pending_ms: s.pendingMs,
      latency_ms: s.latencyMs,
      balance_paise: s.balancePaise,
      validation_ms: s.validationMs,
      env: {
        SANGAM_PARTNER_RAZORPAYX_KIND: 'razorpayx',
        SANGAM_PARTNER_RAZORPAYX_URL: emu.url,
        SANGAM_PARTNER_RAZORPAYX_KEY_ID: s.keyId,
        SANGAM_PARTNER_RAZORPAYX_KEY_SECRET: s.keySecret,
        SANGAM_PARTNER_RAZORPAYX_ACCOUNT_NUMBER: s.accountNumber,
        SANGAM_PARTNER_RAZORPAYX_WEBHOOK_SECRET: s.webhookSecret,
      },
    };
    return { line, close: () => emu.close() };
  },
  };
