// Owns `sangam partner-sim --kind surepass-signature`: the options of this emulator and how it starts
// (partner-sim/cli.ts lists every kind).
import { startSurepassSignatureEmulator } from './index.js';
import { commonOptions, int, partnerEnv, type EmulatorKind } from '../kind.js';

export const kind: EmulatorKind = {
  options: { 'token': { type: 'string' }, 'comparator-path': { type: 'string' }, 'threshold': { type: 'string' }, 'max-bytes': { type: 'string' } },
  async start(v) {
    const emu = await startSurepassSignatureEmulator({
      ...commonOptions(v),
      token: v.token,
      path: v['comparator-path'],
      threshold: int(v.threshold, 'threshold'),
      maxBytes: int(v['max-bytes'], 'max-bytes'),
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
      env: partnerEnv('surepass', 'surepass-signature', emu.url, { TOKEN: s.token, SIGNATURE_PATH: s.path }),
    };
    return { line, close: () => emu.close() };
  },
};
