// `sangam partner-sim [--kind K] …`: runs one partner emulator until SIGTERM / SIGINT and prints one
// JSON line once it listens: what to configure in Sangam. Each kind's options and start live in its
// folder (<kind>/cli.ts); the default kind `sangam` is the partner-network simulator of CONTRACT §8,
// answering with what the caller hands in (the server's CLI hands in the sandbox: src/admin/partner-sim.ts).
// Every kind takes --port, --host, --latency-ms, --pending-ms and --data-dir (where a partner emulator
// keeps its state file, default ./data/partner-sim/<kind>; "" keeps everything in memory); an option the
// chosen kind does not take is refused, naming a kind that does.
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { EmulatorKind } from './kind.js';
import type { AnswererFactory } from './answerer.js';
import { sangamKind } from './sangam-cli.js';
import { kind as razorpayx } from './razorpayx/cli.js';
import { kind as digilocker } from './digilocker/cli.js';
import { kind as cashfreePayouts } from './cashfree-payouts/cli.js';
import { kind as cashfreeVerification } from './cashfree-verification/cli.js';
import { kind as surepassSignature } from './surepass-signature/cli.js';
import { kind as setuRecharge } from './setu-recharge/cli.js';
import { kind as setuDth } from './setu-dth/cli.js';

const kinds = (answerer: AnswererFactory): Record<string, EmulatorKind> => ({
  sangam: sangamKind(answerer),
  razorpayx,
  digilocker,
  'cashfree-payouts': cashfreePayouts,
  'cashfree-verification': cashfreeVerification,
  'surepass-signature': surepassSignature,
  'setu-recharge': setuRecharge,
  'setu-dth': setuDth,
});

const COMMON = { kind: { type: 'string' }, port: { type: 'string' }, host: { type: 'string' }, 'latency-ms': { type: 'string' }, 'pending-ms': { type: 'string' }, 'data-dir': { type: 'string' } } as const;

export async function runPartnerSim(args: string[], answerer: AnswererFactory): Promise<number> {
  const KINDS = kinds(answerer);
  try {
    const options = Object.assign({}, COMMON, ...Object.values(KINDS).map((k) => k.options)) as Record<string, { type: 'string'; multiple?: boolean }>;
    const values = parseArgs({ args, options, strict: true }).values as Record<string, string | undefined>;
    const name = values.kind ?? 'sangam';
    const k = KINDS[name];
    if (!k) throw new Error(`--kind must be one of ${Object.keys(KINDS).join(', ')}, not ${name}`);
    for (const given of Object.keys(values)) {
      if (given in COMMON || given in k.options) continue;
      const other = Object.entries(KINDS).find(([, o]) => given in o.options)![0];
      throw new Error(`--${given} is for --kind ${other}, not ${name}`);
    }
    // Where a partner emulator keeps its books across a restart (common/persist.ts); "" keeps them in memory.
    values['data-dir'] ??= join('data', 'partner-sim', name);
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
