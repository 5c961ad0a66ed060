// Owns `sangam partner-sim --kind setu-dth`: the options of this emulator and how it starts
// (partner-sim/cli.ts lists every kind).
import { SETU_DTH_CONNECTOR_VARS, startSetuDthEmulator } from './index.js';
import { partnerKind, reported } from '../kind.js';

export const kind = partnerKind({
  kind: 'setu-dth',
  partner: 'setudth',
  strings: ['client-id', 'client-secret'],
  ints: ['partner-id'],
  webhook: true,
  start: (o) => startSetuDthEmulator(o),
  line: (emu) => ({ ...reported(emu.settings, ['clientId', 'clientSecret', 'partnerId', 'webhookUrl', 'pendingMs', 'latencyMs']), admin: `${emu.url}/_sim` }),
  vars: ({ settings: s }) => ({ CLIENT_ID: s.clientId, CLIENT_SECRET: s.clientSecret, PARTNER_ID: String(s.partnerId), ...SETU_DTH_CONNECTOR_VARS }),
});
