// Owns serving the built web console (web/, built by `npm run build` into dist/web) at /console.
// Any /console path that is not a file gets index.html: the console routes in the browser.
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../web/', import.meta.url));

export async function registerConsolePages(app: FastifyInstance): Promise<void> {
  const index = `${ROOT}index.html`;
  if (!existsSync(index)) {
    app.get('/console', { schema: { hide: true } }, async (_req, reply) =>
      reply.code(503).type('text/plain').send('The console is not built: run `npm run build`.'),
    );
    return;
  }
  const html = readFileSync(index, 'utf8');
  await app.register(fastifyStatic, { root: ROOT, prefix: '/console/', decorateReply: false, index: false, wildcard: false });
  const page = async (_req: unknown, reply: import('fastify').FastifyReply) =>
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').header('x-frame-options', 'DENY').send(html);
  app.get('/console', { schema: { hide: true } }, page);
  app.get('/console/*', { schema: { hide: true } }, page);
}
