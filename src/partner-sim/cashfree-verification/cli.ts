// Owns `sangam partner-sim --kind cashfree-verification`: the options of this emulator and how it starts
// (partner-sim/cli.ts lists every kind).
import { CASHFREE_VERIFICATION_API_VERSION, startCashfreeVerificationEmulator } from './index.js';
import { MAGIC_MOBILES } from './directory.js';
import { commonOptions, partnerEnv, type EmulatorKind } from '../kind.js';

export const kind: EmulatorKind = {
  options: { 'client-id': { type: 'string' }, 'client-secret': { type: 'string' } },
  async start(v) {
    const emu = await startCashfreeVerificationEmulator({
      ...commonOptions(v),
      clientId: v['client-id'],
      clientSecret: v['client-secret'],
    });
    const s = emu.settings;
    const line = {
      kind: 'cashfree-verification',
      url: emu.url,
      penny_drop: `${emu.url}/mobile/penny-drop`,
      client_id: s.clientId,
      client_secret: s.clientSecret,
      api_version: CASHFREE_VERIFICATION_API_VERSION,
      pending_ms: s.pendingMs,
      latency_ms: s.latencyMs,
      magic_mobiles: Object.fromEntries(Object.entries(MAGIC_MOBILES).map(([m, p]) => [m, 'then' in p ? `${p.kind}_then_${p.then}` : p.kind])),
      admin: `${emu.origin}/_sim`,
      env: partnerEnv('cashfreevrs', 'cashfree-verification', emu.url, { CLIENT_ID: s.clientId, CLIENT_SECRET: s.clientSecret, API_VERSION: CASHFREE_VERIFICATION_API_VERSION }),
    };
    return { line, close: () => emu.close() };
  },
};
