// Owns `sangam partner-sim --kind setu-dth`: the options of this emulator and how it starts
// (partner-sim/cli.ts lists every kind).
import { startSetuDthEmulator } from './index.js';
import { commonOptions, int, partnerEnv, webhookUrlOption, type EmulatorKind } from '../kind.js';

export const kind: EmulatorKind = {
  options: { 'client-id': { type: 'string' }, 'client-secret': { type: 'string' }, 'partner-id': { type: 'string' }, 'webhook-url': { type: 'string' } },
  async start(v) {
    const emu = await startSetuDthEmulator({
      ...commonOptions(v),
      clientId: v['client-id'],
      clientSecret: v['client-secret'],
      partnerId: int(v['partner-id'], 'partner-id'),
      webhookUrl: webhookUrlOption(v),
    });
    const s = emu.settings;
    const line = {
      kind: 'setu-dth',
      url: emu.url,
      client_id: s.clientId,
      client_secret: s.clientSecret,
      partner_id: s.partnerId,
      webhook_url: s.webhookUrl,
      pending_ms: s.pendingMs,
      latency_ms: s.latencyMs,
      admin: `${emu.url}/_sim`,
      env: partnerEnv('setudth', 'setu-dth', emu.url, { CLIENT_ID: s.clientId, CLIENT_SECRET: s.clientSecret, PARTNER_ID: String(s.partnerId) }),
    };
    return { line, close: () => emu.close() };
  },
};
