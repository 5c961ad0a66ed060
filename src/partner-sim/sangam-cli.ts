// Owns `sangam partner-sim --kind sangam`: the options of this emulator and how it starts
// (partner-sim/cli.ts lists every kind).
import { startPartnerSim } from './server.js';
import { int, type EmulatorKind } from './kind.js';

export const kind: EmulatorKind = {
  options: { 'secret': { type: 'string' } },
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
  };
