// Owns `sangam partner-sim --kind cashfree-payouts`: the options of this emulator and how it starts
// (partner-sim/cli.ts lists every kind).
import { startCashfreePayoutsEmulator } from './index.js';
import { partnerKind, reported } from '../kind.js';

export const kind = partnerKind({
  kind: 'cashfree-payouts',
  partner: 'cashfree',
  strings: ['client-id', 'client-secret', 'fundsource-id'],
  ints: ['balance-paise', 'rate-limit-per-minute'],
  webhook: true,
  start: (o) => startCashfreePayoutsEmulator(o),
  line: (emu) => ({
    ...reported(emu.settings, ['clientId', 'clientSecret', 'apiVersion', 'fundsourceId', 'webhookUrl', 'pendingMs', 'latencyMs', 'balancePaise', 'rateLimitPerMinute']),
    admin: `${emu.origin}/_sim`,
  }),
  vars: ({ settings: s }) => ({ CLIENT_ID: s.clientId, CLIENT_SECRET: s.clientSecret }),
});
