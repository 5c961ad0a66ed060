// Schemathesis-style conformance of the operations (CONTRACT §3) with the document the server publishes:
// requests generated from /openapi.json alone, checked first against the document itself (a standard
// 2020-12 validator, test/contract.ts) and then sent to the sandbox.
// - Valid: each operation's example, then bodies fast-check generates from its request schema (a required
//   set of the field-or-alias anyOf, the required fields, a random pick of the optional ones, values
//   from each field's enum, pattern, bounds or format); the server must not refuse one with 422.
// - Invalid: from a valid body, drop a required field, drop a field and its alias, send `{}` for each
//   field, a false consent, an empty string; the document must call it invalid and the server answer
//   422 naming the field.
// A reference and an idempotency key are unique per request (a repeated one would be a 422/107 for a
// different payload, which the document cannot describe). Where the document declares the
// Idempotency-Key header, a body without idempotency_key is sent with the header: the field's
// description says one of the two is required, which a body schema cannot express. CONFORMANCE_RUNS sets the generated bodies
// per operation (default 12).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { strictAjv } from './contract.js';
import { ref, startApp, uuid, type TestApp } from './harness.js';
import { OPERATIONS } from '../src/operations/registry.js';

type Json = Record<string, unknown>;
interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  allOf?: Schema[];
  anyOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  examples?: unknown[];
  [ext: `x-${string}`]: unknown;
}
interface Operation {
  method: 'GET' | 'POST';
  path: string;
  operationId: string;
  schema: Schema;
  example: Json;
  /** It declares the Idempotency-Key header. */
  keyHeader: boolean;
  validate: ValidateFunction;
}

const RUNS = Number(process.env.CONFORMANCE_RUNS ?? 12);

/** The operations: routes whose answers are stored and replayed (Idempotent-Replayed), with a JSON body. */
function operationsOf(doc: { paths: Record<string, Record<string, Json>> }, ajv: ReturnType<typeof strictAjv>): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    const op = item.post as
      | { operationId: string; parameters?: Array<{ in: string; name: string }>; requestBody?: { content: Record<string, { schema: Schema; example?: Json }> }; responses: Record<string, { headers?: Json }> }
      | undefined;
    if (!op?.requestBody || !('Idempotent-Replayed' in (op.responses['200']?.headers ?? {}))) continue;
    const media = op.requestBody.content['application/json']!;
    assert.ok(media.example, `${op.operationId} has an example`);
    const keyHeader = (op.parameters ?? []).some((p) => p.in === 'header' && p.name === 'Idempotency-Key');
    out.push({ method: 'POST', path, operationId: op.operationId, schema: media.schema, example: media.example, keyHeader, validate: ajv.compile(media.schema) });
  }
  return out;
}

/** Values of one field, from what its schema says; undefined when only a checker the document names in words (Verhoeff, the IFSC list) could make one. */
function valuesOf(s: Schema): fc.Arbitrary<unknown> | undefined {
  if (s['x-aadhaar-verhoeff'] || s['x-ifsc-exists'] || s['x-person-name']) return s.examples ? fc.constantFrom(...s.examples) : undefined;
  if (s.enum) return fc.constantFrom(...s.enum);
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.type === 'boolean') return fc.boolean();
  if (s.type === 'number' || s.type === 'integer') {
    const [lo, hi] = [s.minimum ?? 0, s.maximum ?? 1_000_000];
    return s['x-decimal-places'] === 2 ? fc.integer({ min: Math.ceil(lo * 100), max: Math.floor(hi * 100) }).map((p) => p / 100) : fc.integer({ min: Math.ceil(lo), max: Math.floor(hi) });
  }
  if (s.type !== 'string') return undefined;
  if (s.format === 'uri') return fc.webPath().map((p) => `https://example.com${p.startsWith('/') ? p : `/${p}`}`.slice(0, s.maxLength ?? 2048));
  if (s.pattern) return fc.stringMatching(new RegExp(s.pattern));
  return fc.string({ minLength: Math.max(1, s.minLength ?? 1), maxLength: Math.min(s.maxLength ?? 40, 40) });
}

/** The alternatives of a request: one list of required sets per field-or-alias anyOf. */
const alternativesOf = (s: Schema) => (s.allOf ?? []).map((a) => (a.anyOf ?? []).map((b) => b.required ?? []));

/** Bodies the document calls valid: the required fields, one side of each alternative, and some optional ones. */
function validBodies(op: Operation): fc.Arbitrary<Json> {
  const props = op.schema.properties ?? {};
  const required = new Set(op.schema.required ?? []);
  const picks = alternativesOf(op.schema).map((sets) => fc.constantFrom(...sets));
  // consent_id must name a consent record of the caller's (a 422 otherwise): no schema can say which exist.
  const fields = Object.fromEntries(
    Object.entries(props)
      .filter(([k]) => k !== 'consent_id')
      .map(([k, s]) => [k, valuesOf(s)] as const)
      .filter((e): e is readonly [string, fc.Arbitrary<unknown>] => e[1] !== undefined),
  );
  return fc.tuple(fc.tuple(...picks), fc.subarray(Object.keys(fields)), fc.record(fields)).map(([chosen, optional, values]) => {
    const keys = new Set([...required, ...chosen.flat(), ...optional]);
    // Keep out the other side of an alternative unless picked: both present is valid too, but one is enough.
    return fresh(Object.fromEntries([...keys].filter((k) => k in values).map((k) => [k, values[k]])));
  });
}

/** A unique reference (and key) per request: reuse with another payload is a 422/107 by design. */
const fresh = (body: Json): Json => ({
  ...body,
  ...(typeof body.reference_id === 'string' ? { reference_id: ref('conf') } : {}),
  ...(typeof body.idempotency_key === 'string' ? { idempotency_key: uuid() } : {}),
});

/** Bodies the document calls invalid, each from a fresh copy of one valid body, with the field it gets wrong. */
function invalidBodies(op: Operation, valid: Json): Array<{ what: string; field: string; body: Json }> {
  const out: Array<{ what: string; field: string; body: Json }> = [];
  const props = Object.entries(op.schema.properties ?? {});
  const without = (...keys: string[]) => Object.fromEntries(Object.entries(fresh(valid)).filter(([k]) => !keys.includes(k)));
  const with_ = (k: string, v: unknown) => ({ ...fresh(valid), [k]: v });
  for (const k of op.schema.required ?? []) out.push({ what: `without ${k}`, field: k, body: without(k) });
  for (const sets of alternativesOf(op.schema)) {
    const keys = sets.flat();
    out.push({ what: `with none of ${keys.join(', ')}`, field: keys[0]!, body: without(...keys) });
  }
  for (const [k] of props) out.push({ what: `${k}: {}`, field: k, body: with_(k, {}) });
  out.push({ what: 'consent: false', field: 'consent', body: with_('consent', false) });
  for (const [k, s] of props) if (s.type === 'string' && (s.pattern || s.minLength)) out.push({ what: `${k}: ""`, field: k, body: with_(k, '') });
  return out;
}

describe('the operations conform to the published document', () => {
  let t: TestApp;
  let ops: Operation[];
  before(async () => {
    t = await startApp();
    const doc = (await t.call('GET', '/openapi.json', { key: null })).body;
    ops = operationsOf(doc, strictAjv(doc));
  });
  after(() => t?.close());

  const send = (op: Operation, body: Json) =>
    t.call(op.method, op.path, { body, headers: op.keyHeader && body.idempotency_key === undefined ? { 'idempotency-key': uuid() } : {} });
  const refusal = (res: { status: number; body: { data?: { errors?: unknown } } }) => `${res.status} ${JSON.stringify(res.body?.data?.errors ?? res.body)}`;

  it('covers every operation of the registry, each with an example', () => {
    const expected = OPERATIONS.map((o) => (o.method === 'GET' ? `${o.operationId}Post` : o.operationId)).sort();
    assert.deepEqual(ops.map((o) => o.operationId).sort(), expected);
  });

  it('accepts every request the document calls valid (the examples, then generated bodies)', async () => {
    for (const op of ops) {
      const example = fresh(op.example);
      assert.ok(op.validate(example), `${op.operationId}: its own example is invalid by the document: ${JSON.stringify(op.validate.errors)}`);
      const res = await send(op, example);
      assert.equal(res.status, 200, `${op.operationId} example: ${refusal(res)}`);
      await fc.assert(
        fc.asyncProperty(validBodies(op), async (body) => {
          assert.ok(op.validate(body), `generated body invalid by the document: ${JSON.stringify(body)} ${JSON.stringify(op.validate.errors)}`);
          const r = await send(op, body);
          assert.notEqual(r.status, 422, `${op.operationId} refused a body the document calls valid: ${JSON.stringify(body)} → ${refusal(r)}`);
          assert.equal(r.status, 200, `${op.operationId} ${JSON.stringify(body)} → ${refusal(r)}`);
        }),
        { numRuns: RUNS, seed: 20261127 },
      );
    }
  });

  it('refuses with 422, naming the field, every request the document calls invalid', async () => {
    for (const op of ops) {
      for (const { what, field, body } of invalidBodies(op, op.example)) {
        assert.equal(op.validate(body), false, `${op.operationId} ${what}: the document calls it valid`);
        const r = await send(op, body);
        assert.equal(r.status, 422, `${op.operationId} ${what}: the server answered ${r.status}`);
        const fields = ((r.body.data?.errors ?? []) as Array<{ field: string }>).map((e) => e.field);
        assert.ok(fields.includes(field), `${op.operationId} ${what}: errors name ${fields.join(', ')}, not ${field}`);
      }
    }
  });
});
