// `sangam partner-sim [--kind sangam|digilocker] …`: runs a partner simulator until SIGTERM / SIGINT.
//   --kind sangam (default): the partner-network simulator. --port N --secret WHSEC [--latency-ms N]
//     [--pending-ms N] [--host H]. Prints { url } once it listens.
//   --kind digilocker: the DigiLocker Authorized Partner API emulator. [--port N] [--host H]
//     [--client-id ID] [--client-secret S] [--redirect-uri URI]… [--pki-dir DIR] [--latency-ms N]. Prints
//     { url, client_id, client_secret, trust_anchors } once it listens: what to configure in Sangam.
import { parseArgs } from 'node:util';
import { startPartnerSim } from './server.js';
import { startDigilockerEmulator } from './digilocker/server.js';

const OPTIONS = {
  kind: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  'latency-ms': { type: 'string' },
  // sangam
  secret: { type: 'string' },
  'pending-ms': { type: 'string' },
  // digilocker
  'client-id': { type: 'string' },
  'client-secret': { type: 'string' },
  'redirect-uri': { type: 'string', multiple: true },
  'pki-dir': { type: 'string' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; strict: true }>>['values'];

const int = (v: string | undefined, name: string) => {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a whole number ≥ 0`);
  return n;
};

const ONLY_SANGAM = ['secret', 'pending-ms'] as const;
const ONLY_DIGILOCKER = ['client-id', 'client-secret', 'redirect-uri', 'pki-dir'] as const;

async function start(values: Values): Promise<{ line: object; close(): Promise<void> }> {
  const kind = values.kind ?? 'sangam';
  const misplaced = (names: readonly string[]) => names.find((n) => values[n as keyof Values] !== undefined);
  if (kind === 'sangam') {
    const wrong = misplaced(ONLY_DIGILOCKER);
    if (wrong) throw new Error(`--${wrong} applies to --kind digilocker only`);
    if (!values.secret?.startsWith('whsec_')) throw new Error('--secret must be a whsec_ secret');
    const sim = await startPartnerSim({
      port: int(values.port, 'port') ?? 0,
      host: values.host,
      secret: values.secret,
      latencyMs: int(values['latency-ms'], 'latency-ms'),
      pendingMs: int(values['pending-ms'], 'pending-ms'),
    });
    return { line: { url: sim.url }, close: () => sim.close() };
  }
  if (kind === 'digilocker') {
    const wrong = misplaced(ONLY_SANGAM);
    if (wrong) throw new Error(`--${wrong} applies to --kind sangam only`);
    const dl = await startDigilockerEmulator({
      port: int(values.port, 'port') ?? 0,
      host: values.host,
      clientId: values['client-id'],
      clientSecret: values['client-secret'],
      redirectUris: values['redirect-uri'],
      pkiDir: values['pki-dir'],
      latencyMs: int(values['latency-ms'], 'latency-ms'),
    });
    return {
      line: { url: dl.url, client_id: dl.clientId, client_secret: dl.clientSecret, trust_anchors: dl.anchorsPath, admin: `${dl.origin}/_sim` },
      close: () => dl.close(),
    };
  }
  throw new Error(`--kind must be sangam or digilocker, not ${kind}`);
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
    const sim = await start(values);
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
