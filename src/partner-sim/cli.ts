// `sangam partner-sim --port N --secret WHSEC [--latency-ms N] [--pending-ms N] [--host H]`: runs the
// partner-network simulator until SIGTERM / SIGINT. Prints { url } once it listens.
import { parseArgs } from 'node:util';
import { startPartnerSim } from './server.js';

export async function runPartnerSim(args: string[]): Promise<number> {
  let values;
  try {
    values = parseArgs({
      args,
      options: { port: { type: 'string' }, secret: { type: 'string' }, 'latency-ms': { type: 'string' }, 'pending-ms': { type: 'string' }, host: { type: 'string' } },
      strict: true,
    }).values;
  } catch (err) {
    process.stderr.write(`${JSON.stringify({ error: (err as Error).message })}\n`);
    return 2;
  }
  const int = (v: string | undefined, name: string) => {
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a whole number ≥ 0`);
    return n;
  };
  try {
    if (!values.secret?.startsWith('whsec_')) throw new Error('--secret must be a whsec_ secret');
    const sim = await startPartnerSim({
      port: int(values.port, 'port') ?? 0,
      host: values.host,
      secret: values.secret,
      latencyMs: int(values['latency-ms'], 'latency-ms'),
      pendingMs: int(values['pending-ms'], 'pending-ms'),
    });
    process.stdout.write(`${JSON.stringify({ url: sim.url })}\n`);
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
