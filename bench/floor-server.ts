// The live floor (issue #42): the least a durable live call does, with Sangam's own libraries and
// store, so that Sangam's own time per live call has a baseline measured in the same run. A request is
// validated (Fastify, TypeBox through Sangam's compiler), its record committed (one INSERT, alone: a
// durable commit), the partner asked over undici (through the same timing proxy as Sangam), its
// outcome committed (one UPDATE, alone: the second commit), and the answer sent. No keys, no
// idempotency, no wallet, no ledger, no audit chain: what Sangam spends beyond this floor is theirs.
// POST /floor/<the simulator's path> forwards the body to that path.
import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { Type } from '@sinclair/typebox';
import { sql } from 'kysely';
import { Pool } from 'undici';
import { openStore } from '../src/db/client.js';
import { compile } from '../src/http/validation.js';

const store = await openStore({ databaseUrl: process.env.DATABASE_URL || undefined, dataDir: process.env.SANGAM_DATA_DIR! });
await sql`CREATE TABLE IF NOT EXISTS bench_floor (id text PRIMARY KEY, client_ref text NOT NULL, status text NOT NULL, answer jsonb, created_at timestamptz NOT NULL DEFAULT now())`.execute(store.db);
const partner = new Pool(process.env.SANGAM_PARTNER_URL!, { connections: 16 });

const Body = Type.Object({ client_ref: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: true });
const app = Fastify({ logger: false });
app.setValidatorCompiler(({ schema }) => compile(schema));
app.get('/health', async () => ({ ok: true }));
app.post<{ Params: { '*': string } }>('/floor/*', { schema: { body: Body } }, async (req) => {
  const id = randomUUID();
  const body = req.body as { client_ref: string };
  await sql`INSERT INTO bench_floor (id, client_ref, status) VALUES (${id}, ${body.client_ref}, 'pending')`.execute(store.db);
  const res = await partner.request({ method: 'POST', path: `/${req.params['*']}`, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const answer = await res.body.text();
  const data = JSON.parse(answer) as Record<string, unknown>;
  await sql`UPDATE bench_floor SET status = ${String(data.status ?? 'unknown')}, answer = ${answer}::jsonb WHERE id = ${id}`.execute(store.db);
  return { statuscode: 'TXN', ok: true, message: 'floor', data };
});
await app.listen({ port: Number(process.env.PORT ?? 0), host: process.env.HOST ?? '127.0.0.1' });
const stop = async () => {
  await app.close();
  await partner.close();
  await store.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
