// Owns `sangam partner-sim --kind razorpayx`: the options of this emulator and how it starts
// (partner-sim/cli.ts lists every kind).
import { startRazorpayxEmulator } from './index.js';
import { partnerKind, reported } from '../kind.js';

export const kind = partnerKind({
  kind: 'razorpayx',
  partner: 'razorpayx',
  strings: ['key-id', 'key-secret', 'account-number', 'lite-account-number', 'webhook-secret'],
  ints: ['balance-paise', 'validation-ms', 'slow-validation-ms'],
  webhook: true,
  start: (o) => startRazorpayxEmulator(o),
  line: (emu) => reported(emu.settings, ['keyId', 'keySecret', 'accountNumber', 'liteAccountNumber', 'webhookSecret', 'webhookUrl', 'pendingMs', 'latencyMs', 'balancePaise', 'validationMs', 'slowValidationMs']),
  vars: ({ settings: s }) => ({ KEY_ID: s.keyId, KEY_SECRET: s.keySecret, ACCOUNT_NUMBER: s.accountNumber, FAV_ACCOUNT_NUMBER: s.liteAccountNumber, WEBHOOK_SECRET: s.webhookSecret }),
});
