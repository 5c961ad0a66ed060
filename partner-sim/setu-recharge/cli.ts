// Owns `sangam partner-sim --kind setu-recharge`: the options of this emulator and how it starts
// (partner-sim/cli.ts lists every kind).
import { startSetuRechargeEmulator } from './index.js';
import { partnerKind, reported } from '../kind.js';

const tokenUrl = (url: string) => `${url}/v1/users/login`;

export const kind = partnerKind({
  kind: 'setu-recharge',
  partner: 'setu',
  strings: ['client-id', 'client-secret', 'product-instance-id'],
  ints: ['wallet-paise'],
  webhook: true,
  start: (o) => startSetuRechargeEmulator(o),
  line: (emu) => ({
    token_url: tokenUrl(emu.url),
    ...reported(emu.settings, ['clientId', 'clientSecret', 'productInstanceId', 'webhookUrl', 'pendingMs', 'latencyMs', 'walletPaise']),
    admin: `${emu.url}/_sim`,
  }),
  vars: ({ url, settings: s }) => ({ TOKEN_URL: tokenUrl(url), CLIENT_ID: s.clientId, CLIENT_SECRET: s.clientSecret, PRODUCT_INSTANCE_ID: s.productInstanceId }),
});
