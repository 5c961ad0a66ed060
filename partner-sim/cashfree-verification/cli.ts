// Owns `sangam partner-sim --kind cashfree-verification`: the options of this emulator and how it starts
// (partner-sim/cli.ts lists every kind).
import { CASHFREE_VERIFICATION_API_VERSION, startCashfreeVerificationEmulator } from './index.js';
import { MAGIC_MOBILES } from './directory.js';
import { partnerKind, reported } from '../kind.js';

export const kind = partnerKind({
  kind: 'cashfree-verification',
  partner: 'cashfreevrs',
  strings: ['client-id', 'client-secret'],
  start: (o) => startCashfreeVerificationEmulator(o),
  line: (emu) => ({
    penny_drop: `${emu.url}/mobile/penny-drop`,
    ...reported(emu.settings, ['clientId', 'clientSecret']),
    api_version: CASHFREE_VERIFICATION_API_VERSION,
    ...reported(emu.settings, ['pendingMs', 'latencyMs']),
    magic_mobiles: Object.fromEntries(Object.entries(MAGIC_MOBILES).map(([m, p]) => [m, 'then' in p ? `${p.kind}_then_${p.then}` : p.kind])),
    admin: `${emu.origin}/_sim`,
  }),
  vars: ({ settings: s }) => ({ CLIENT_ID: s.clientId, CLIENT_SECRET: s.clientSecret, API_VERSION: CASHFREE_VERIFICATION_API_VERSION }),
});
