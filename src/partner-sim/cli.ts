// `sangam partner-sim [--kind sangam|razorpayx|digilocker] …`: runs a partner emulator until SIGTERM /
// SIGINT and prints one JSON line once it listens: what to configure in Sangam.
//   --kind sangam (default): the partner-network simulator of CONTRACT §8.
//     --port N --secret WHSEC [--latency-ms N] [--pending-ms N] [--host H]; prints { url }.
//   --kind razorpayx: the RazorpayX Payouts emulator (docs/PARTNER-EMULATORS.md).
//     [--key-id ID] [--key-secret S] [--account-number N] [--webhook-secret S] [--webhook-url URL]
//     [--pending-ms N] [--balance-paise N]; prints the values and the SANGAM_PARTNER_RAZORPAYX_* variables.
//   --kind digilocker: the DigiLocker Authorized Partner API emulator.
//     [--client-id ID] [--client-secret S] [--redirect-uri URI]… [--pki-dir DIR]; prints
//     { url, client_id, client_secret, trust_anchors }.
//   --kind setu-recharge: the Setu prepaid mobile recharge emulator.
//     [--client-id ID] [--client-secret S] [--product-instance-id UUID] [--webhook-url URL] [--pending-ms N]
//     [--wallet-paise N]; prints the values and the SANGAM_PARTNER_SETU_* variables.
//   --kind setu-dth: the Setu BBPS BillPay (DTH) emulator.
//     [--client-id ID] [--client-secret S] [--partner-id N] [--webhook-url URL] [--pending-ms N];
//     prints the values and the SANGAM_PARTNER_SETUDTH_* variables.
// Every kind takes --port, --host and --latency-ms; an option only other kinds take is refused.
import { parseArgs } from 'node:util';
import { startPartnerSim } from './server.js';
import { startRazorpayxEmulator } from './razorpayx/index.js';
import { startDigilockerEmulator } from './digilocker/server.js';
import { startSetuRechargeEmulator } from './setu-recharge/index.js';
import { startSetuDthEmulator } from './setu-dth/index.js';

const OPTIONS = {
  kind: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  'latency-ms': { type: 'string' },
  'pending-ms': { type: 'string' },
  secret: { type: 'string' },
  'key-id': { type: 'string' },
  'key-secret': { type: 'string' },
  'account-number': { type: 'string' },
  'webhook-secret': { type: 'string' },
  'webhook-url': { type: 'string' },
  'balance-paise': { type: 'string' },
  'client-id': { type: 'string' },
  'client-secret': { type: 'string' },
  'redirect-uri': { type: 'string', multiple: true },
  'pki-dir': { type: 'string' },
  'product-instance-id': { type: 'string' },
  'wallet-paise': { type: 'string' },
  'partner-id': { type: 'string' },
} as const;
type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; strict: true }>>['values'];

function int(v: string | undefined, name: string): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a whole number ≥ 0`);
  return n;
}

interface Running {
  line: object;
  close(): Promise<void>;
}

const KINDS: Record<string, { only: readonly (keyof Values)[]; start(v: Values): Promise<Running> }> = {
  sangam: {
    only: ['secret'],
    async start(v) {
      if (!v.secret?.startsWith('whsec_')) throw new Error('--secret must be a whsec_ secret');
      const sim = await startPartnerSim({
        port: int(v.port, 'port') ?? 0,
        host: v.host,
        secret: v.secret,
        latencyMs: int(v['latency-ms'], 'latency-ms'),
        pendingMs: int(v['pending-ms'], 'pending-ms'),
      });
      return { line: { url: sim.url }, close: () => sim.close() };
    },
  },
  razorpayx: {
    only: ['key-id', 'key-secret', 'account-number', 'webhook-secret', 'webhook-url', 'balance-paise'],
    async start(v) {
      if (v['webhook-url'] !== undefined && !URL.canParse(v['webhook-url'])) throw new Error('--webhook-url must be an absolute URL');
      const emu = await startRazorpayxEmulator({
        port: int(v.port, 'port'),
        host: v.host,
        keyId: v['key-id'],
        keySecret: v['key-secret'],
        accountNumber: v['account-number'],
        webhookSecret: v['webhook-secret'],
        webhookUrl: v['webhook-url'],
        pendingMs: int(v['pending-ms'], 'pending-ms'),
        latencyMs: int(v['latency-ms'], 'latency-ms'),
        balancePaise: int(v['balance-paise'], 'balance-paise'),
      });
      const s = emu.settings;
      const line = {
        kind: 'razorpayx',
        url: emu.url,
        key_id: s.keyId,
        key_secret: s.keySecret,
        account_number: s.accountNumber,
        webhook_secret: s.webhookSecret,
        webhook_url: s.webhookUrl,
        pending_ms: s.pendingMs,
        latency_ms: s.latencyMs,
        balance_paise: s.balancePaise,
        env: {
          SANGAM_PARTNER_RAZORPAYX_KIND: 'razorpayx',
          SANGAM_PARTNER_RAZORPAYX_URL: emu.url,
          SANGAM_PARTNER_RAZORPAYX_KEY_ID: s.keyId,
          SANGAM_PARTNER_RAZORPAYX_KEY_SECRET: s.keySecret,
          SANGAM_PARTNER_RAZORPAYX_ACCOUNT_NUMBER: s.accountNumber,
          SANGAM_PARTNER_RAZORPAYX_WEBHOOK_SECRET: s.webhookSecret,
        },
      };
      return { line, close: () => emu.close() };
    },
  },
  digilocker: {
    only: ['client-id', 'client-secret', 'redirect-uri', 'pki-dir'],
    async start(v) {
      const dl = await startDigilockerEmulator({
        port: int(v.port, 'port') ?? 0,
        host: v.host,
        clientId: v['client-id'],
        clientSecret: v['client-secret'],
        redirectUris: v['redirect-uri'],
        pkiDir: v['pki-dir'],
        latencyMs: int(v['latency-ms'], 'latency-ms'),
      });
      return {
        line: { url: dl.url, client_id: dl.clientId, client_secret: dl.clientSecret, trust_anchors: dl.anchorsPath, admin: `${dl.origin}/_sim` },
        close: () => dl.close(),
      };
    },
  },
  'setu-recharge': {
    only: ['client-id', 'client-secret', 'product-instance-id', 'webhook-url', 'wallet-paise'],
    async start(v) {
      if (v['webhook-url'] !== undefined && !URL.canParse(v['webhook-url'])) throw new Error('--webhook-url must be an absolute URL');
      const emu = await startSetuRechargeEmulator({
        port: int(v.port, 'port'),
        host: v.host,
        clientId: v['client-id'],
        clientSecret: v['client-secret'],
        productInstanceId: v['product-instance-id'],
        webhookUrl: v['webhook-url'],
        pendingMs: int(v['pending-ms'], 'pending-ms'),
        latencyMs: int(v['latency-ms'], 'latency-ms'),
        walletPaise: int(v['wallet-paise'], 'wallet-paise'),
      });
      const s = emu.settings;
      const line = {
        kind: 'setu-recharge',
        url: emu.url,
        token_url: `${emu.url}/v1/users/login`,
        client_id: s.clientId,
        client_secret: s.clientSecret,
        product_instance_id: s.productInstanceId,
        webhook_url: s.webhookUrl,
        pending_ms: s.pendingMs,
        latency_ms: s.latencyMs,
        wallet_paise: s.walletPaise,
        admin: `${emu.url}/_sim`,
        env: {
          SANGAM_PARTNER_SETU_KIND: 'setu-recharge',
          SANGAM_PARTNER_SETU_URL: emu.url,
          SANGAM_PARTNER_SETU_TOKEN_URL: `${emu.url}/v1/users/login`,
          SANGAM_PARTNER_SETU_CLIENT_ID: s.clientId,
          SANGAM_PARTNER_SETU_CLIENT_SECRET: s.clientSecret,
          SANGAM_PARTNER_SETU_PRODUCT_INSTANCE_ID: s.productInstanceId,
        },
      };
      return { line, close: () => emu.close() };
    },
  },
  'setu-dth': {
    only: ['client-id', 'client-secret', 'partner-id', 'webhook-url'],
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
  },
};

export async function runPartnerSim(args: string[]): Promise<number> {
  let values: Values;
  try {
    values = parseArgs({ args, options: OPTIONS, strict: true }).values;
  } catch (err) {
    process.stderr.write(`${JSON.stringify({ error: (err as Error).message })}\n`);
    return 2;
  }
  try {
    const kind = values.kind ?? 'sangam';
    const k = KINDS[kind];
    if (!k) throw new Error(`--kind must be one of ${Object.keys(KINDS).join(', ')}, not ${kind}`);
    for (const [other, spec] of Object.entries(KINDS)) {
      const stray = other === kind ? undefined : spec.only.find((f) => values[f] !== undefined && !k.only.includes(f));
      if (stray) throw new Error(`--${stray} is for --kind ${other}, not ${kind}`);
    }
    const sim = await k.start(values);
    process.stdout.write(`${JSON.stringify(sim.line)}\n`);
    await new Promise<void>((resolve) => {
      process.once('SIGTERM', resolve);
      process.once('SIGINT', resolve);
    });
    await sim.close();
    return 0;
  } catch (err) {
    process.stderr.write(`${JSON.stringify({ error: (err as Error).message })}\n`);
    return 2;
  }
}
