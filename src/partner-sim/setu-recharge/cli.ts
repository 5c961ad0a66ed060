// Owns `sangam partner-sim --kind setu-recharge`: the options of this emulator and how it starts
// (partner-sim/cli.ts lists every kind).
import { startSetuRechargeEmulator } from './index.js';
import { int, type EmulatorKind } from '../kind.js';

export const kind: EmulatorKind = {
  options: { 'client-id': { type: 'string' }, 'client-secret': { type: 'string' }, 'product-instance-id': { type: 'string' }, 'webhook-url': { type: 'string' }, 'wallet-paise': { type: 'string' } },
      async start(v) {
    if (v['webhook-url'] !== undefined && !URL.canParse(v['webhook-url'])) throw new Error('--webhook-url must be an absolute URL');
    const emu = await startSetuRechargeEmulator({
      port: int(v.port, 'port'),
      host: v.host,
      clientId: v['client-id'],
      clientSecret: v['client-secret'],
      productInstanceId: v['product-instance-id'],
      webhookUrl: v['webhook-url'],
      pendingMs: int(v['pending-ms'], 'pending-ms'),
      latencyMs: int(v['latency-ms'], 'latency-ms'),
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
      env: {
        SANGAM_PARTNER_SETU_KIND: 'setu-recharge',
        SANGAM_PARTNER_SETU_URL: emu.url,
        SANGAM_PARTNER_SETU_TOKEN_URL: `${emu.url}/v1/users/login`,
        SANGAM_PARTNER_SETU_CLIENT_ID: s.clientId,
        SANGAM_PARTNER_SETU_CLIENT_SECRET: s.clientSecret,
        SANGAM_PARTNER_SETU_PRODUCT_INSTANCE_ID: s.productInstanceId,
      },
    };
    return { line, close: () => emu.close() };
  },
  };
