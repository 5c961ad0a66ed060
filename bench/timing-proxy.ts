// A timing proxy between Sangam and the partner simulator (issue #42's method, measured from outside):
// it forwards each request over a kept-alive connection and records when the upstream exchange began
// and ended, so a sequential client can subtract, per call, the time spent upstream during that call
// and keep Sangam's own. Loopback only.
import { createServer, type Server } from 'node:http';
import { Pool } from 'undici';

export interface TimingProxy {
  url: string;
  /** Milliseconds spent upstream by requests that began at or after `since` (performance.now()). */
  upstreamSince(since: number): number;
  close(): Promise<void>;
}

export async function startTimingProxy(target: string): Promise<TimingProxy> {
  const pool = new Pool(target, { connections: 16 });
  const spans: Array<[number, number]> = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const t0 = performance.now();
      const headers = { ...req.headers };
      delete headers.host;
      delete headers.connection;
      pool
        .request({ method: req.method as 'POST', path: req.url!, headers, body: chunks.length ? Buffer.concat(chunks) : undefined })
        .then(async (up) => {
          const body = Buffer.from(await up.body.arrayBuffer());
          spans.push([t0, performance.now()]);
          const out = Object.fromEntries(Object.entries(up.headers).filter(([k]) => !['connection', 'keep-alive', 'transfer-encoding'].includes(k)));
          res.writeHead(up.statusCode, { ...out, 'content-length': String(body.length) }).end(body);
        })
        .catch(() => res.writeHead(502).end());
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    upstreamSince(since) {
      let ms = 0;
      for (let i = spans.length - 1; i >= 0 && spans[i]![0] >= since; i--) ms += spans[i]![1] - spans[i]![0];
      return ms;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await pool.close();
    },
  };
}
