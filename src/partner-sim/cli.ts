// `sangam partner-sim [--kind sangam|razorpayx] …`: runs a partner emulator until SIGTERM / SIGINT and
// prints one JSON line once it listens.
//   --kind sangam (default): the partner-network simulator of CONTRACT §8.
//     --port N --secret WHSEC [--latency-ms N] [--pending-ms N] [--host H]; prints { url }.
//   --kind razorpayx: the RazorpayX Payouts emulator (docs/PARTNER-EMULATORS.md).
//     [--port N] [--host H] [--key-id ID] [--key-secret S] [--account-number N] [--webhook-secret S]
//     [--webhook-url URL] [--pending-ms N] [--latency-ms N] [--balance-paise N]; prints the settings a
//     Sangam partner needs, as values and as SANGAM_PARTNER_RAZORPAYX_* variables.
import { parseArgs } from 'node:util';
import { startPartnerSim } from './server.js';
import { startRazorpayxEmulator } from './razorpayx/index.js';

const OPTIONS = {
  kind: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  secret: { type: 'string' },
  'latency-ms': { type: 'string' },
  'pending-ms': { type: 'string' },
  'key-id': { type: 'string' },
  'key-secret': { type: 'string' },
  'account-number': { type: 'string' },
  'webhook-secret': { type: 'string' },
  'webhook-url': { type: 'string' },
  'balance-paise': { type: 'string' },
} as const;
type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS }>>['values'];

const ONLY_FOR: Record<string, readonly (keyof Values)[]> = {
  sangam: ['secret'],
  razorpayx: ['key-id', 'key-secret', 'account-number', 'webhook-secret', 'webhook-url', 'balance-paise'],
};

function int(v: string | undefined, name: string): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a whole number ≥ 0`);
  return n;
}

async function startSangam(values: Values) {
  if (!values.secret?.startsWith('whsec_')) throw new Error('--secret must be a whsec_ secret');
  const sim = await startPartnerSim({
    port: int(values.port, 'port') ?? 0,
    host: values.host,
    secret: values.secret,
    latencyMs: int(values['latency-ms'], 'latency-ms'),
    pendingMs: int(values['pending-ms'], 'pending-ms'),
  });
  return { line: { url: sim.url }, close: sim.close };
}

async function startRazorpayx(values: Values) {
  if (values['webhook-url'] !== undefined && !URL.canParse(values['webhook-url'])) throw new Error('--webhook-url must be an absolute URL');
  const emu = await startRazorpayxEmulator({
    port: int(values.port, 'port'),
    host: values.host,
    keyId: values['key-id'],
    keySecret: values['key-secret'],
    accountNumber: values['account-number'],
    webhookSecret: values['webhook-secret'],
    webhookUrl: values['webhook-url'],
    pendingMs: int(values['pending-ms'], 'pending-ms'),
    latencyMs: int(values['latency-ms'], 'latency-ms'),
    balancePaise: int(values['balance-paise'], 'balance-paise'),
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
  return { line, close: emu.close };
}

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
    if (!(kind in ONLY_FOR)) throw new Error(`--kind must be one of ${Object.keys(ONLY_FOR).join(', ')}`);
    for (const [other, flags] of Object.entries(ONLY_FOR)) {
      const stray = other === kind ? undefined : flags.find((f) => values[f] !== undefined);
      if (stray) throw new Error(`--${stray} is for --kind ${other}, not ${kind}`);
    }
    const sim = kind === 'razorpayx' ? await startRazorpayx(values) : await startSangam(values);
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
