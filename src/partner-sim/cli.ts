// `sangam partner-sim [--kind sangam|razorpayx|digilocker|cashfree-payouts] …`: runs a partner emulator until SIGTERM /
// SIGINT and prints one JSON line once it listens: what to configure in Sangam.
//   --kind sangam (default): the partner-network simulator of CONTRACT §8.
//     --port N --secret WHSEC [--latency-ms N] [--pending-ms N] [--host H]; prints { url }.
//   --kind razorpayx: the RazorpayX Payouts emulator (docs/PARTNER-EMULATORS.md).
//     [--key-id ID] [--key-secret S] [--account-number N] [--webhook-secret S] [--webhook-url URL]
//     [--pending-ms N] [--balance-paise N]; prints the values and the SANGAM_PARTNER_RAZORPAYX_* variables.
//   --kind digilocker: the DigiLocker Authorized Partner API emulator.
//     [--client-id ID] [--client-secret S] [--redirect-uri URI]… [--pki-dir DIR]; prints
//     { url, client_id, client_secret, trust_anchors }.
//   --kind cashfree-payouts: the Cashfree Payouts V2 emulator (docs/PARTNER-EMULATORS.md).
//     [--client-id ID] [--client-secret S] [--webhook-url URL] [--pending-ms N] [--balance-paise N]
//     [--fundsource-id ID] [--rate-limit-per-minute N]; prints the values and the SANGAM_PARTNER_CASHFREE_* variables.
//   --kind cashfree-verification: the Cashfree Mobile Penny Drop emulator.
//     [--client-id ID] [--client-secret S] [--pending-ms N]; prints the values and the
//     SANGAM_PARTNER_CASHFREEVRS_* variables.
//   --kind surepass-signature: the Surepass Signature Comparator emulator.
//     [--token JWT] [--comparator-path P] [--threshold N] [--max-bytes N]; prints the values and the
//     SANGAM_PARTNER_SUREPASS_* variables.
// Every kind takes --port, --host and --latency-ms; an option only other kinds take is refused.
import { parseArgs } from 'node:util';
import { startPartnerSim } from './server.js';
import { startRazorpayxEmulator } from './razorpayx/index.js';
import { startDigilockerEmulator } from './digilocker/server.js';
import { startCashfreePayoutsEmulator } from './cashfree-payouts/index.js';
import { CASHFREE_VERIFICATION_API_VERSION, startCashfreeVerificationEmulator } from './cashfree-verification/index.js';
import { MAGIC_MOBILES } from './cashfree-verification/directory.js';
import { startSurepassSignatureEmulator } from './surepass-signature/index.js';

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
  'fundsource-id': { type: 'string' },
  'rate-limit-per-minute': { type: 'string' },
  token: { type: 'string' },
  'comparator-path': { type: 'string' },
  threshold: { type: 'string' },
  'max-bytes': { type: 'string' },
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
  'cashfree-payouts': {
    only: ['client-id', 'client-secret', 'webhook-url', 'balance-paise', 'fundsource-id', 'rate-limit-per-minute'],
    async start(v) {
      if (v['webhook-url'] !== undefined && !URL.canParse(v['webhook-url'])) throw new Error('--webhook-url must be an absolute URL');
      const emu = await startCashfreePayoutsEmulator({
        port: int(v.port, 'port'),
        host: v.host,
        clientId: v['client-id'],
        clientSecret: v['client-secret'],
        webhookUrl: v['webhook-url'],
        pendingMs: int(v['pending-ms'], 'pending-ms'),
        latencyMs: int(v['latency-ms'], 'latency-ms'),
        balancePaise: int(v['balance-paise'], 'balance-paise'),
        fundsourceId: v['fundsource-id'],
        rateLimitPerMinute: int(v['rate-limit-per-minute'], 'rate-limit-per-minute'),
      });
      const s = emu.settings;
      const line = {
        kind: 'cashfree-payouts',
        url: emu.url,
        client_id: s.clientId,
        client_secret: s.clientSecret,
        api_version: s.apiVersion,
        fundsource_id: s.fundsourceId,
        webhook_url: s.webhookUrl,
        pending_ms: s.pendingMs,
        latency_ms: s.latencyMs,
        balance_paise: s.balancePaise,
        rate_limit_per_minute: s.rateLimitPerMinute,
        admin: `${emu.origin}/_sim`,
        env: {
          SANGAM_PARTNER_CASHFREE_KIND: 'cashfree-payouts',
          SANGAM_PARTNER_CASHFREE_URL: emu.url,
          SANGAM_PARTNER_CASHFREE_CLIENT_ID: s.clientId,
          SANGAM_PARTNER_CASHFREE_CLIENT_SECRET: s.clientSecret,
        },
      };
      return { line, close: () => emu.close() };
    },
  },
  'cashfree-verification': {
    only: ['client-id', 'client-secret'],
    async start(v) {
      const emu = await startCashfreeVerificationEmulator({
        port: int(v.port, 'port'),
        host: v.host,
        clientId: v['client-id'],
        clientSecret: v['client-secret'],
        pendingMs: int(v['pending-ms'], 'pending-ms'),
        latencyMs: int(v['latency-ms'], 'latency-ms'),
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
        env: {
          SANGAM_PARTNER_CASHFREEVRS_KIND: 'cashfree-verification',
          SANGAM_PARTNER_CASHFREEVRS_URL: emu.url,
          SANGAM_PARTNER_CASHFREEVRS_CLIENT_ID: s.clientId,
          SANGAM_PARTNER_CASHFREEVRS_CLIENT_SECRET: s.clientSecret,
          SANGAM_PARTNER_CASHFREEVRS_API_VERSION: CASHFREE_VERIFICATION_API_VERSION,
        },
      };
      return { line, close: () => emu.close() };
    },
  },
  'surepass-signature': {
    only: ['token', 'comparator-path', 'threshold', 'max-bytes'],
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
