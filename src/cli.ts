// The `sangam` command line. Every verb prints one JSON object on stdout. With the embedded store and
// a server running, commands go through the server's admin socket (the store has one owner);
// otherwise the CLI opens the store itself, applying migrations first.
import { loadConfig, ConfigError } from './config.js';
import { openStore } from './db/client.js';
import { migrate } from './db/migrate.js';
import { runCommand, USAGE } from './admin/run.js';
import { resolveCommand } from './admin/commands.js';
import { sendToServer } from './admin/socket.js';
import { runPartnerSim } from './partner-sim/cli.js';

function print(code: number, output: unknown): number {
  (code === 0 ? process.stdout : process.stderr).write(`${JSON.stringify(output)}\n`);
  return code;
}

export async function main(argv: string[]): Promise<number> {
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return argv.length === 0 ? 2 : 0;
  }
  if (argv[0] === 'partner-sim') return runPartnerSim(argv.slice(1));
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    return print(2, { error: err instanceof ConfigError ? err.message : String(err) });
  }
  if (!resolveCommand(argv)) return print(2, { error: `unknown command: ${argv.join(' ')}`, usage: USAGE });

  if (!config.databaseUrl) {
    const viaServer = await sendToServer(config.dataDir, argv);
    if (viaServer) return print(viaServer.code, viaServer.output);
  }
  const store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolMax: 2 });
  try {
    await migrate(store.db);
    const { code, output } = await runCommand(store.db, argv);
    return print(code, output);
  } catch (err) {
    return print(1, { error: (err as Error).message });
  } finally {
    await store.close();
  }
}
