// What the browser tests share: Debian's Chromium driven by playwright-core (skipped where it is not
// installed), launched with the flags a container needs, the folder screenshots go to, and the real
// server on a fresh store with one console user.
import { fork } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { openStore } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { createAccount } from '../src/accounts/store.js';
import { createUser } from '../src/console/users.js';
import { freshStoreLocation, sleep } from './harness.js';
import { freePort } from './live-harness.js';

const CHROMIUM = '/usr/bin/chromium';
const SERVER = fileURLToPath(new URL('../src/server.js', import.meta.url));
export const ARTIFACTS = fileURLToPath(new URL('../../test-artifacts/', import.meta.url));

/** The `skip` option of a browser test's describe. */
export const skipWithoutChromium = existsSync(CHROMIUM) ? false : `${CHROMIUM} is not installed (apt-get install chromium)`;

/** Chromium, headless, with the screenshot folder made. */
export async function launchBrowser(): Promise<Browser> {
  mkdirSync(ARTIFACTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

export interface ConsoleServer {
  /** Where it listens: `http://127.0.0.1:<port>`. */
  base: string;
  stop(): Promise<void>;
}

/**
 * The real server in a process of its own on a fresh store, with one account ("Acme Pay") and one
 * console user of it (`admin` or not), ready when /health answers (30 s at most: migrations on a loaded
 * machine are slow).
 */
export async function startConsoleServer(user: { email: string; password: string; admin: boolean }): Promise<ConsoleServer> {
  const loc = await freshStoreLocation();
  const store = await openStore({ databaseUrl: loc.databaseUrl, dataDir: loc.dataDir });
  await migrate(store.db);
  const { id } = await createAccount(store.db, 'Acme Pay');
  await createUser(store.db, user.email, user.password, user.admin, id);
  await store.close();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = fork(SERVER, [], {
    env: { ...process.env, DATABASE_URL: loc.databaseUrl ?? '', SANGAM_DATA_DIR: loc.dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  for (let i = 0; i < 1200 && !(await fetch(`${base}/health`).then((r) => r.ok, () => false)); i++) await sleep(25);
  return {
    base,
    async stop() {
      server.kill('SIGTERM');
      await new Promise((r) => server.once('exit', r));
      await loc.drop();
    },
  };
}

/** Signs in on the console's page at `base` and waits for the overview. */
export async function signIn(page: Page, base: string, user: { email: string; password: string }): Promise<void> {
  await page.goto(`${base}/console`);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Overview' }).waitFor();
}
