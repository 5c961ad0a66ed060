// Owns `sangam partner-sim --kind surepass-signature`: the options of this emulator and how it starts
// (partner-sim/cli.ts lists every kind).
import { startSurepassSignatureEmulator } from './index.js';
import { partnerKind, reported } from '../kind.js';

export const kind = partnerKind({
  kind: 'surepass-signature',
  partner: 'surepass',
  strings: ['token', 'comparator-path'],
  ints: ['threshold', 'max-bytes'],
  start: ({ comparatorPath, ...o }) => startSurepassSignatureEmulator({ ...o, path: comparatorPath }),
  line: (emu) => ({
    comparator: `${emu.url}${emu.settings.path}`,
    ...reported(emu.settings, ['token', 'threshold', 'latencyMs', 'maxBytes']),
    admin: `${emu.url}/_sim`,
  }),
  vars: ({ settings: s }) => ({ TOKEN: s.token, SIGNATURE_PATH: s.path }),
});
