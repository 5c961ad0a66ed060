// Owns the local admin socket. The embedded store can be opened by one process only, so while the
// server holds it the CLI sends its commands here instead: a Unix socket in the data directory,
// readable and writable by the owner only (mode 0600), speaking HTTP with one JSON request per command.
import http from 'node:http';
import { chmodSync, existsSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import type { Db } from '../db/client.js';
import { runCommand } from './run.js';
import type { CommandContext } from './commands.js';
import { exportFromStore, type ExportRequest } from './audit-export.js';

export const socketPath = (dataDir: string) => path.join(dataDir, 'admin.sock');

/** `ctx`: the server's own wiring, lent to the commands that need it (a resolution's settlement). */
export async function startAdminSocket(dataDir: string, db: Db, ctx?: CommandContext): Promise<() => Promise<void>> {
  const file = socketPath(dataDir);
  if (existsSync(file)) unlinkSync(file); // left by a process that died; we hold the store now
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      if (req.url === '/export') {
        // Streams an audit export back to the CLI.
        try {
          const r = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ExportRequest;
          res.writeHead(200, { 'content-type': 'application/octet-stream' });
          exportFromStore(db, r).on('error', () => res.destroy()).pipe(res);
        } catch {
          res.writeHead(400).end();
        }
        return;
      }
      let argv: unknown;
      try {
        argv = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { argv?: unknown }).argv;
      } catch {
        argv = undefined;
      }
      const result = Array.isArray(argv) && argv.every((a) => typeof a === 'string') ? await runCommand(db, argv, ctx) : { code: 2, output: { error: 'bad admin request' } };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result));
    });
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(file, resolve));
  chmodSync(file, 0o600);
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
}

/** Asks a running server for an audit export stream; undefined when no server is listening. */
export async function exportFromServer(dataDir: string, r: ExportRequest): Promise<http.IncomingMessage | undefined> {
  const file = socketPath(dataDir);
  if (!existsSync(file)) return undefined;
  return new Promise((resolve, reject) => {
    const req = http.request({ socketPath: file, method: 'POST', path: '/export', headers: { 'content-type': 'application/json' } }, resolve);
    req.on('error', (err: NodeJS.ErrnoException) => (err.code === 'ECONNREFUSED' || err.code === 'ENOENT' ? resolve(undefined) : reject(err)));
    req.end(JSON.stringify(r));
  });
}

/** Sends a command to a running server; undefined when no server is listening. */
export async function sendToServer(dataDir: string, argv: string[]): Promise<{ code: number; output: unknown } | undefined> {
  const file = socketPath(dataDir);
  if (!existsSync(file)) return undefined;
  return new Promise((resolve, reject) => {
    const req = http.request({ socketPath: file, method: 'POST', path: '/', headers: { 'content-type': 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        try {
          resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as { code: number; output: unknown });
        } catch (err) {
          reject(err as Error);
        }
      });
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ECONNREFUSED' || err.code === 'ENOENT') resolve(undefined);
      else reject(err);
    });
    req.end(JSON.stringify({ argv }));
  });
}
