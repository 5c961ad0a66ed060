// Webhook receivers for tests: the handler that keeps every request and answers 200, and a local https
// receiver for live webhook endpoints (live endpoints must be https) with a self-signed certificate for
// 127.0.0.1 made with openssl, trusted by the server under test through SANGAM_WEBHOOK_CA_FILE.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type http from 'node:http';
import https from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface TlsReceiver {
  url: string;
  caFile: string;
  got: Received;
  close(): Promise<void>;
}

export type Received = Array<{ headers: http.IncomingHttpHeaders; body: string }>;

/** A request handler that keeps each request in `got` and answers 200. */
export const recorder = (got: Received) => (req: http.IncomingMessage, res: http.ServerResponse) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    got.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
    res.writeHead(200).end('ok');
  });
};

export async function tlsReceiver(): Promise<TlsReceiver> {
  const dir = mkdtempSync(path.join(tmpdir(), 'sangam-tls-'));
  const key = path.join(dir, 'key.pem');
  const cert = path.join(dir, 'cert.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', key, '-out', cert], { stdio: 'ignore' });
  const got: Received = [];
  const server = https.createServer({ key: readFileSync(key), cert: readFileSync(cert) }, recorder(got));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    url: `https://127.0.0.1:${port}/hooks`,
    caFile: cert,
    got,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
