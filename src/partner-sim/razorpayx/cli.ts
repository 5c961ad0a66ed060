// Owns `sangam partner-sim --kind razorpayx`: the options of this emulator and how it starts
// (partner-sim/cli.ts lists every kind).
import { startRazorpayxEmulator } from './index.js';
import { commonOptions, int, partnerEnv, webhookUrlOption, type EmulatorKind } from '../kind.js';

export const kind: EmulatorKind = {
  options: { 'key-id': { type: 'string' }, 'key-secret': { type: 'string' }, 'account-number': { type: 'string' }, 'webhook-secret': { type: 'string' }, 'webhook-url': { type: 'string' }, 'balance-paise': { type: 'string' }, 'validation-ms': { type: 'string' } },
  async start(v) {
    const emu = await startRazorpayxEmulator({
      ...commonOptions(v),
      keyId: v['key-id'],
      keySecret: v['key-secret'],
      accountNumber: v['account-number'],
      webhookSecret: v['webhook-secret'],
      webhookUrl: webhookUrlOption(v),
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
      env: partnerEnv('razorpayx', 'razorpayx', emu.url, { KEY_ID: s.keyId, KEY_SECRET: s.keySecret, ACCOUNT_NUMBER: s.accountNumber, WEBHOOK_SECRET: s.webhookSecret }),
    };
    return { line, close: () => emu.close() };
  },
};
