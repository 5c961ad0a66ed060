// Owns `sangam partner-sim --kind sangam`: the options of this emulator and how it starts, answering
// with what the command hands in (answerer.ts; partner-sim/cli.ts lists every kind).
import { startPartnerSim } from './server.js';
import type { AnswererFactory } from './answerer.js';
import { int, type EmulatorKind } from './kind.js';

export function sangamKind(answerer: AnswererFactory): EmulatorKind {
  return {
    options: { 'secret': { type: 'string' } },
    async start(v) {
      if (!v.secret?.startsWith('whsec_')) throw new Error('--secret must be a whsec_ secret');
      const sim = await startPartnerSim({
        port: int(v.port, 'port') ?? 0,
        host: v.host,
        secret: v.secret,
        latencyMs: int(v['latency-ms'], 'latency-ms'),
        answerer: answerer(int(v['pending-ms'], 'pending-ms') ?? 5000),
      });
      return { line: { url: sim.url }, close: () => sim.close() };
    },
  };
}
