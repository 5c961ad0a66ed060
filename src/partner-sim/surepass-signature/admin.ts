// Owns the emulator's test controls under /_sim (not part of Surepass): faults, the list of every
// comparison made (to prove a retry ran it again, or not), and sample images to try it by hand.
// Answers here use a plain `{ error }` body.
import type { FastifyInstance } from 'fastify';
import { parseSyncFaults, type SyncFaults } from '../sync-faults.js';
import type { ComparisonRecord } from './api.js';
import { MARKERS } from './compare.js';
import { samples } from './samples.js';

export interface AdminDeps {
  comparisons: ComparisonRecord[];
  getFaults: () => SyncFaults;
  setFaults: (f: SyncFaults) => void;
}

export async function registerAdmin(app: FastifyInstance, d: AdminDeps): Promise<void> {
  app.get('/_sim/faults', async () => d.getFaults());
  app.post('/_sim/faults', async (req, reply) => {
    const f = parseSyncFaults(req.body ?? {});
    if (typeof f === 'string') return reply.code(400).send({ error: f });
    d.setFaults(f);
    return f;
  });
  app.get('/_sim/comparisons', async () => ({ count: d.comparisons.length, comparisons: d.comparisons }));
  app.get('/_sim/samples', async () => ({ markers: MARKERS, samples: samples() }));
}
