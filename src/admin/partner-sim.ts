// Owns the server's side of `sangam partner-sim`. The partner emulators are a workspace of their own
// (partner-sim/, which imports nothing of src/), loaded only when this command runs; the reference
// simulator (--kind sangam, CONTRACT §8) is handed the sandbox's answers here, so it answers exactly as
// the sandbox does. An installation without partner-sim/ refuses the command, saying so.
import type { AnswererFactory } from '../../partner-sim/answerer.js';
import { SandboxConnector } from '../operations/sandbox-runner.js';
import { sandboxLookup, sandboxPlans } from '../providers/sandbox/recharge.js';

/** The sandbox as the simulator's answerer: its outcome table, its operator lookup and its plans. */
export const sandboxAnswerer: AnswererFactory = (pendingMs) => {
  const sandbox = new SandboxConnector(pendingMs);
  return { execute: (req) => sandbox.execute(req), lookup: sandboxLookup, plans: sandboxPlans };
};

export async function partnerSim(args: string[]): Promise<number> {
  let emulators;
  try {
    emulators = await import('../../partner-sim/cli.js');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw err;
    process.stderr.write(`${JSON.stringify({ error: `the partner emulators (partner-sim/) are not installed here: ${(err as Error).message}` })}\n`);
    return 2;
  }
  return emulators.runPartnerSim(args, sandboxAnswerer);
}
