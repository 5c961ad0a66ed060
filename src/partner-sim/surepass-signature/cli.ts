// Owns `sangam partner-sim --kind surepass-signature`: the options of this emulator and how it starts
// (partner-sim/cli.ts lists every kind).
import { startSurepassSignatureEmulator } from './index.js';
import { int, type EmulatorKind } from '../kind.js';

export const kind: EmulatorKind = {
  options: { 'token': { type: 'string' }, 'comparator-path': { type: 'string' }, 'threshold': { type: 'string' }, 'max-bytes': { type: 'string' } },
  async start(v) {
    const emu = await startSurepassSignatureEmulator({
      port: int(v.port, 'port'),
      host: v.host,
      token: v.token,
      path: v['comparator-path'],
      threshold: int(v.threshold, 'threshold'),
      maxBytes: int(v['max-bytes'], 'max-bytes'),
      latencyMs: int(v['latency-ms'], 'latency-ms'),
    });
    const s = emu.settings;
    const line = {
      kind: 'surepass-signature',
      url: emu.url,
      comparator: `${emu.url}${s.path}`,
      token: s.token,
      threshold: s.threshold,
      latency_ms: s.latencyMs,
      max_bytes: s.maxBytes,
      admin: `${emu.url}/_sim`,
      env: {
        SANGAM_PARTNER_SUREPASS_KIND: 'surepass-signature',
        SANGAM_PARTNER_SUREPASS_URL: emu.url,
        SANGAM_PARTNER_SUREPASS_TOKEN: s.token,
        SANGAM_PARTNER_SUREPASS_SIGNATURE_PATH: s.path,
      },
    };
    return { line, close: () => emu.close() };
  },
  };
