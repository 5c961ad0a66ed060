// Serialising from the response schemas: the same JSON answer sent by a bare Fastify route with the
// route's published 200 schema (fast-json-stringify) and without one (JSON.stringify), on an audit-log
// page of 200 rows and on the mobile operator list. No store and no network in the timed part: the
// answers are taken once from the real app, then replayed with app.inject, so the ratio is the
// serializer's alone. Medians of 7 runs.
import Fastify from 'fastify';
import { startApp } from '../test/harness.js';

export interface SerializeRow {
  name: string;
  bytes: number;
  plainUs: number;
  schemaUs: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** The published schema minus the document-only extensions (x-…), which the serializer does not know. */
const plain = (schema: unknown): unknown => JSON.parse(JSON.stringify(schema, (k, v: unknown) => (k.startsWith('x-') ? undefined : v)));

export async function serializeBench(): Promise<SerializeRow[]> {
  const t = await startApp();
  const cases: Array<{ name: string; schema: unknown; body: unknown }> = [];
  try {
    for (let i = 0; i < 200; i++) await t.call('GET', '/api/v1/mobile-recharge/operators');
    await t.services.audit.flush();
    const doc = (await t.call('GET', '/openapi.json', { key: null })).body as {
      paths: Record<string, { get: { responses: Record<string, { content: Record<string, { schema: unknown }> }> } }>;
    };
    for (const [name, url, path] of [
      ['audit-logs page, 200 rows', '/api/v1/audit-logs?limit=200', '/api/v1/audit-logs'],
      ['mobile operators', '/api/v1/mobile-recharge/operators', '/api/v1/mobile-recharge/operators'],
    ] as const) {
      const res = await t.call('GET', url);
      if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
      cases.push({ name, schema: plain(doc.paths[path]!.get.responses['200']!.content['application/json']!.schema), body: res.body });
    }
  } finally {
    await t.close();
  }

  const rows: SerializeRow[] = [];
  for (const c of cases) {
    const app = Fastify();
    app.get('/plain', async () => c.body);
    app.get('/schema', { schema: { response: { 200: c.schema as object } } }, async () => c.body);
    await app.ready();
    const a = await app.inject('/plain');
    const b = await app.inject('/schema');
    if (a.body !== b.body) throw new Error(`${c.name}: the schema serializer changed the answer`);
    const time = async (url: string) => {
      const runs: number[] = [];
      for (let r = 0; r < 7; r++) {
        const n = 300;
        const t0 = performance.now();
        for (let i = 0; i < n; i++) await app.inject(url);
        runs.push(((performance.now() - t0) / n) * 1000);
      }
      return median(runs);
    };
    rows.push({ name: c.name, bytes: a.body.length, plainUs: await time('/plain'), schemaUs: await time('/schema') });
    await app.close();
  }
  return rows;
}

export function printSerialize(rows: SerializeRow[]): void {
  console.log('\nSerialising from the response schemas (a bare Fastify route answering the same JSON; median µs per request of 7 runs)\n');
  console.log('| answer | bytes | JSON.stringify µs | schema serializer µs | speed-up |');
  console.log('|---|---:|---:|---:|---:|');
  for (const r of rows) console.log(`| ${r.name} | ${r.bytes} | ${r.plainUs.toFixed(1)} | ${r.schemaUs.toFixed(1)} | ${(r.plainUs / r.schemaUs).toFixed(2)}× |`);
}
