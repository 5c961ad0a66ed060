// Owns the emulator's test controls under /_sim (not part of Surepass): faults, the list of every
// comparison made (to prove a retry ran it again, or not), and sample images to try it by hand.
// Answers here use a plain `{ error }` body.
import type { FastifyInstance } from 'fastify';
import { registerFaultRoutes } from '../common/faults.js';
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
  registerFaultRoutes(app, d.getFaults, d.setFaults, parseSyncFaults);
  app.get('/_sim/comparisons', async () => ({ count: d.comparisons.length, comparisons: d.comparisons }));
  app.get('/_sim/samples', async () => ({ markers: MARKERS, samples: samples() }));
}
