// The `sangam` command line. Every verb prints one JSON object on stdout. With the embedded store and
// a server running, commands go through the server's admin socket (the store has one owner);
// otherwise the CLI opens the store itself, applying migrations first. It never makes an embedded store
// by accident (CONTRACT §8): where SANGAM_DATA_DIR holds none and no DATABASE_URL is set, every verb but
// `migrate` (the explicit act that creates one) exits 1 saying where it looked and how to point it at
// the server's store.
import type { FastifyBaseLogger } from 'fastify';
import { loadConfig, ConfigError, type Config } from './config.js';
import type { Services } from './services.js';
import { exportFromStore, parseExportArgs, writeExport } from './admin/audit-export.js';
import { embeddedDir, openStore } from './db/client.js';
import { migrate } from './db/migrate.js';
import { runCommand, USAGE } from './admin/run.js';
import { resolveCommand } from './admin/commands.js';
import { exportFromServer, sendToServer } from './admin/socket.js';
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { publicKeyFrom } from './audit/checkpoints.js';
import { verifyExport } from './audit/verify-export.js';

function print(code: number, output: unknown): number {
  (code === 0 ? process.stdout : process.stderr).write(`${JSON.stringify(output)}\n`);
  return code;
}

/**
 * Why the CLI must not open the store, or null when it may: an embedded store that does not exist yet is
 * made only by `sangam migrate` (or the server). A PostgreSQL database named by DATABASE_URL exists
 * already (creating it was the explicit act); the CLI applies its pending migrations.
 */
function missingStore(config: Config, verb: string): Record<string, unknown> | null {
  if (config.databaseUrl || verb === 'migrate' || existsSync(path.join(embeddedDir(config.dataDir), 'PG_VERSION'))) return null;
  return {
    error: `no Sangam store in ${config.dataDir} (SANGAM_DATA_DIR resolved; its default is ./data of the current folder) and no DATABASE_URL set: nothing was created`,
    looked_in: config.dataDir,
    database_url: null,
    fix: 'point the CLI at the server\'s store: run it from the server\'s folder, or set SANGAM_DATA_DIR=/path/to/the/server/data (embedded store) or DATABASE_URL=postgres://… (the server\'s PostgreSQL); to create a new empty store here on purpose, run `sangam migrate` first',
  };
}

async function auditExport(config: Config, args: string[]): Promise<number> {
  let r;
  try {
    r = parseExportArgs(args);
  } catch (err) {
    return print(2, { error: (err as Error).message, usage: USAGE });
  }
  const missing = missingStore(config, 'audit export');
  if (missing) return print(1, missing);
  const viaServer = config.databaseUrl ? undefined : await exportFromServer(config.dataDir, r);
  if (viaServer) {
    const rows = await writeExport(viaServer, r.out, r.format);
    return r.out ? print(0, { rows, out: r.out }) : 0;
  }
  const store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolMax: 2 });
  try {
    await migrate(store.db);
    const rows = await writeExport(exportFromStore(store.db, r), r.out, r.format);
    return r.out ? print(0, { rows, out: r.out }) : 0;
  } finally {
    await store.close();
  }
}

/** Offline: the export file and the public key are all it reads (no config, no store). */
async function auditVerifyExport(args: string[]): Promise<number> {
  let file: string;
  let against: string | undefined;
  let key;
  try {
    const { values, positionals } = parseArgs({ args, options: { 'public-key': { type: 'string' }, against: { type: 'string' } }, allowPositionals: true, strict: true });
    if (positionals.length !== 1) throw new Error('give the export file: sangam audit verify-export FILE --public-key KEY');
    if (!values['public-key']) throw new Error('--public-key is required (PEM, base64 SPKI, or @FILE): the export is checked against the key you trust, never one it carries');
    const given = values['public-key'];
    key = publicKeyFrom(given.startsWith('@') ? await readFile(given.slice(1), 'utf8') : given);
    file = positionals[0]!;
    against = values.against;
  } catch (err) {
    return print(2, { error: (err as Error).message, usage: USAGE });
  }
  let text;
  let pinned;
  try {
    text = await readFile(file, 'utf8');
    pinned = against === undefined ? undefined : await readFile(against, 'utf8');
  } catch (err) {
    return print(2, { error: `cannot read: ${(err as Error).message}` });
  }
  const verdict = verifyExport(text, key.publicKey, pinned);
  return print(verdict.ok ? 0 : 1, { file, key_id: key.keyId, ...verdict });
}

export async function main(argv: string[]): Promise<number> {
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return argv.length === 0 ? 2 : 0;
  }
  // The emulators and the sandbox they answer with load only for this command (admin/partner-sim.ts).
  if (argv[0] === 'partner-sim') return (await import('./admin/partner-sim.js')).partnerSim(argv.slice(1));
  if (argv[0] === 'audit' && argv[1] === 'verify-export') return auditVerifyExport(argv.slice(2));
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    return print(2, { error: err instanceof ConfigError ? err.message : String(err) });
  }
  if (argv[0] === 'audit' && argv[1] === 'export') return auditExport(config, argv.slice(2));
  if (!resolveCommand(argv)) return print(2, { error: `unknown command: ${argv.join(' ')}`, usage: USAGE });

  // A file named on the command line is read by whichever process runs the command (the server's, through its socket).
  if (argv[0] === 'batches' && argv[1] === 'submit') argv = argv.map((a, i) => (i > 1 && !a.startsWith('-') && existsSync(a) ? path.resolve(a) : a));
  if (!config.databaseUrl) {
    const viaServer = await sendToServer(config.dataDir, argv);
    if (viaServer) return print(viaServer.code, viaServer.output);
  }
  const missing = missingStore(config, argv[0]!);
  if (missing) return print(1, missing);
  const store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolMax: 2 });
  // Built only for a command that settles money (attention approve), with the server's own wiring.
  let services: Services | undefined;
  // (Imported on demand: most verbs never need it, and it loads every operation and partner kind.)
  const settlement = async () => (services ??= await (await import('./services.js')).buildServices(config, store, stderrLog)).settlement;
  try {
    await migrate(store.db);
    const { code, output } = await runCommand(store.db, argv, { settlement });
    return print(code, output);
  } catch (err) {
    return print(1, { error: (err as Error).message });
  } finally {
    await services?.close();
    await store.close();
  }
}

/** The services' logger in the CLI: errors as JSON lines on stderr, nothing else (stdout is the answer). */
const stderrLog = (() => {
  const quiet = () => {};
  const error = (obj: unknown, msg?: string) => void process.stderr.write(`${JSON.stringify({ level: 'error', msg, ...(typeof obj === 'object' ? obj : { msg: obj }) })}\n`);
  const log = { level: 'error', fatal: error, error, warn: quiet, info: quiet, debug: quiet, trace: quiet, silent: quiet, child: () => log };
  return log as unknown as FastifyBaseLogger;
})();
