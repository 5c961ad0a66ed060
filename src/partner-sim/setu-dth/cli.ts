// Owns `sangam partner-sim --kind setu-dth`: the options of this emulator and how it starts
// (partner-sim/cli.ts lists every kind).
import { startSetuDthEmulator } from './index.js';
import { int, type EmulatorKind } from '../kind.js';

export const kind: EmulatorKind = {
  options: { 'client-id': { type: 'string' }, 'client-secret': { type: 'string' }, 'partner-id': { type: 'string' }, 'webhook-url': { type: 'string' } },
      async start(v) {
    if (v['webhook-url'] !== undefined && !URL.canParse(v['webhook-url'])) throw new Error('--webhook-url must be an absolute URL');
    const emu = await startSetuDthEmulator({
      port: int(v.port, 'port'),
      host: v.host,
      clientId: v['client-id'],
      clientSecret: v['client-secret'],
      partnerId: int(v['partner-id'], 'partner-id'),
      webhookUrl: v['webhook-url'],
      pendingMs: int(v['pending-ms'], 'pending-ms'),
      latencyMs: int(v['latency-ms'], 'latency-ms'),
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
      env: {
        SANGAM_PARTNER_SETUDTH_KIND: 'setu-dth',
        SANGAM_PARTNER_SETUDTH_URL: emu.url,
        SANGAM_PARTNER_SETUDTH_CLIENT_ID: s.clientId,
        SANGAM_PARTNER_SETUDTH_CLIENT_SECRET: s.clientSecret,
        SANGAM_PARTNER_SETUDTH_PARTNER_ID: String(s.partnerId),
      },
    };
    return { line, close: () => emu.close() };
  },
  };
