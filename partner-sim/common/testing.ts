// Owns what the emulator tests share: a loopback webhook receiver that records what arrives and answers a
// settable status, the hooks that start an emulator beside one, polling until a condition holds, and
// starting `sangam partner-sim` as a child process to read the line it prints. Test-only: no emulator imports it.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { after, before, beforeEach } from 'node:test';

/** The repository root (dist/partner-sim/common/ is three levels below it). */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
  body: any;
}

export interface Receiver {
  server: Server;
  /** The receiver's URL: `http://127.0.0.1:<port><path>`. */
  url: string;
  got: Received[];
  /** The status every delivery is answered with; a test changes it to make deliveries fail. */
  status: { code: number };
  close(): Promise<void>;
}

export async function startReceiver(path: string): Promise<Receiver> {
  const got: Received[] = [];
  const status = { code: 200 };
  const server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (raw += c));
    req.on('end', () => {
      got.push({ path: req.url ?? '', headers: req.headers, raw, body: JSON.parse(raw) });
      res.statusCode = status.code;
      res.end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return { server, url: `http://127.0.0.1:${port}${path}`, got, status, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** Polls `probe` every 10 ms until it answers something truthy; throws after `ms`. */
export async function waitFor<T>(probe: () => T | undefined | false | Promise<T | undefined | false>, ms = 3000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Starts `sangam partner-sim <args>` from the repository root and answers the first line it prints, parsed. */
export async function startCli(args: string[]): Promise<{ child: ChildProcess; printed: any }> {
  // A test's emulator keeps its books in a fresh temporary dir, never in the repository's ./data, unless it names one.
  const dataDir = args.includes('--data-dir') ? [] : ['--data-dir', mkdtempSync(join(tmpdir(), 'sangam-sim-'))];
  // stderr through this process, never inherited: an orphan must not hold the test runner's pipe open.
  const child = spawn(process.execPath, ['bin/sangam.js', 'partner-sim', ...args, ...dataDir], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stderr!.on('data', (d: Buffer) => process.stderr.write(d));
  try {
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once('line', resolve);
      child.once('exit', (code) => reject(new Error(`exited with ${code}`)));
    });
    return { child, printed: JSON.parse(line) };
  } catch (err) {
    child.kill('SIGTERM');
    throw err;
  }
}

/** Runs `sangam partner-sim <args>` expecting it to refuse: its exit code and what it wrote to stderr. */
export async function refusedCli(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['bin/sangam.js', 'partner-sim', ...args], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((r) => child.once('exit', r));
  return { code, stderr };
}

/**
 * The hooks every emulator test with webhooks repeats: a receiver at `path` and the emulator (started
 * with its URL), both closed after; before each test the emulator behaves and the receiver answers 200.
 * `ready` hands them to the test's own variables once started (and may fetch a token).
 */
export function emulatorWithReceiver<E extends { setFaults(f: object): void; close(): Promise<void> }>(
  path: string,
  start: (webhookUrl: string) => Promise<E>,
  ready: (emu: E, hook: Receiver) => void | Promise<void>,
): void {
  let emu: E | undefined;
  let hook: Receiver | undefined;
  before(async () => {
    hook = await startReceiver(path);
    emu = await start(hook.url);
    await ready(emu, hook);
  });
  after(async () => {
    await emu?.close();
    await hook?.close();
  });
  beforeEach(() => {
    emu!.setFaults({});
    hook!.status.code = 200;
  });
}
