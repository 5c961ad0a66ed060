// Owns `sangam partner-sim --kind setu-recharge`: the options of this emulator and how it starts
// (partner-sim/cli.ts lists every kind).
import { startSetuRechargeEmulator } from './index.js';
import { commonOptions, int, partnerEnv, webhookUrlOption, type EmulatorKind } from '../kind.js';

export const kind: EmulatorKind = {
  options: { 'client-id': { type: 'string' }, 'client-secret': { type: 'string' }, 'product-instance-id': { type: 'string' }, 'webhook-url': { type: 'string' }, 'wallet-paise': { type: 'string' } },
  async start(v) {
    const emu = await startSetuRechargeEmulator({
      ...commonOptions(v),
      clientId: v['client-id'],
      clientSecret: v['client-secret'],
      productInstanceId: v['product-instance-id'],
      webhookUrl: webhookUrlOption(v),
      walletPaise: int(v['wallet-paise'], 'wallet-paise'),
    });
    const s = emu.settings;
    const line = {
      kind: 'setu-recharge',
      url: emu.url,
      token_url: `${emu.url}/v1/users/login`,
      client_id: s.clientId,
      client_secret: s.clientSecret,
      product_instance_id: s.productInstanceId,
      webhook_url: s.webhookUrl,
      pending_ms: s.pendingMs,
      latency_ms: s.latencyMs,
      wallet_paise: s.walletPaise,
      admin: `${emu.url}/_sim`,
      env: partnerEnv('setu', 'setu-recharge', emu.url, { TOKEN_URL: `${emu.url}/v1/users/login`, CLIENT_ID: s.clientId, CLIENT_SECRET: s.clientSecret, PRODUCT_INSTANCE_ID: s.productInstanceId }),
    };
    return { line, close: () => emu.close() };
  },
};
