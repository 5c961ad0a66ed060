// The published document (/openapi.json) is portable: standard tools read it as the server means it.
// Ajv in default strict mode compiles every schema in it, Redocly's recommended rules find no error,
// and the custom validation keywords (the exact `paise` of amounts too) and the missing metadata are gone
// from it, while the server keeps its own richer checks. (The harness checks every answer against it.)
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { OPERATIONS } from '../src/operations/registry.js';
import { fallbackOperationId } from '../src/http/openapi.js';
import { PATHS, VALID, startApp, type TestApp } from './harness.js';
import { Contract, rewriteRefs, strictAjv } from './contract.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- a parsed document
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

/** Every schema of the document, with where it sits. */
function schemasOf(doc: Json): Array<[string, object]> {
  const out: Array<[string, object]> = [];
  const content = (where: string, c: Json | undefined) => {
    for (const [type, m] of Object.entries(c ?? {})) if (m.schema) out.push([`${where} ${type}`, m.schema]);
  };
  const param = (where: string, p: Json) => {
    if (p.schema) out.push([`${where} ${p.in ?? 'header'} ${p.name ?? ''}`, p.schema]);
    content(where, p.content);
  };
  for (const [name, s] of Object.entries(doc.components?.schemas ?? {})) out.push([`components.schemas.${name}`, s as object]);
  for (const [p, item] of Object.entries(doc.paths as Json)) {
    for (const m of METHODS) {
      const op = item[m];
      if (!op) continue;
      const where = `${m.toUpperCase()} ${p}`;
      for (const x of [...(item.parameters ?? []), ...(op.parameters ?? [])]) param(where, x);
      content(`${where} request`, op.requestBody?.content);
      for (const [status, r] of Object.entries(op.responses ?? {}) as Array<[string, Json]>) {
        content(`${where} ${status}`, r.content);
        for (const [h, hdr] of Object.entries(r.headers ?? {})) param(`${where} ${status} header ${h}`, hdr as Json);
      }
    }
  }
  return out;
}

function eachObject(node: unknown, visit: (o: Json, at: string) => void, at = '#'): void {
  if (Array.isArray(node)) node.forEach((n, i) => eachObject(n, visit, `${at}/${i}`));
  else if (node && typeof node === 'object') {
    visit(node as Json, at);
    for (const [k, v] of Object.entries(node)) eachObject(v, visit, `${at}/${k}`);
  }
}

const operations = (doc: Json) =>
  Object.entries(doc.paths as Json).flatMap(([p, item]) => METHODS.filter((m) => item[m]).map((m) => ({ method: m, path: p, op: item[m] as Json })));

describe('the published OpenAPI document is portable', () => {
  let t: TestApp;
  let doc: Json;
  before(async () => {
    t = await startApp();
    doc = (await t.call('GET', '/openapi.json', { key: null })).body;
  });
  after(() => t.close());

  it('compiles, every schema of it, with Ajv 2020-12 in default strict mode', (ctx) => {
    const warnings: unknown[][] = [];
    const ajv = strictAjv(doc, { log: () => {}, warn: (...a) => warnings.push(a), error: (...a) => warnings.push(a) });
    const schemas = schemasOf(doc);
    assert.ok(schemas.length > 50, `only ${schemas.length} schemas found`);
    const failures: string[] = [];
    for (const [where, s] of schemas) {
      try {
        ajv.compile(rewriteRefs(s));
      } catch (err) {
        failures.push(`${where}: ${(err as Error).message}`);
      }
    }
    assert.deepEqual(failures, []);
    // strictTypes is "log" in the default strict mode: its remarks are shown, not failed.
    for (const w of warnings) ctx.diagnostic(`ajv: ${w.map(String).join(' ')}`);
  });

  it('passes @redocly/cli lint with the recommended rules: 0 errors', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sangam-lint-'));
    try {
      const file = path.join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify(doc));
      const r = spawnSync(path.join(ROOT, 'node_modules/.bin/redocly'), ['lint', file, '--config', path.join(ROOT, 'redocly.yaml'), '--format', 'json'], {
        encoding: 'utf8',
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      });
      const report = JSON.parse(r.stdout.slice(r.stdout.indexOf('{'))) as { totals: { errors: number }; problems: Array<{ ruleId: string; severity: string; message: string }> };
      const errors = report.problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId}: ${p.message}`);
      assert.deepEqual(errors, []);
      assert.equal(report.totals.errors, 0);
      assert.equal(r.status, 0, r.stderr);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('publishes no keyword only our Ajv knows: errorMessage, aadhaar, ifsc and paise are x- extensions', () => {
    const found: string[] = [];
    eachObject(doc, (o, at) => {
      if ('errorMessage' in o) found.push(`${at}/errorMessage`);
      for (const k of ['aadhaar', 'ifsc', 'paise']) if (typeof o[k] === 'boolean') found.push(`${at}/${k}`);
    });
    assert.deepEqual(found, []);
    const text = JSON.stringify(doc);
    for (const x of ['x-error-message', 'x-aadhaar-verhoeff', 'x-ifsc-exists']) assert.ok(text.includes(`"${x}"`), x);
  });

  it('writes amounts without a fractional multipleOf, so a standard validator agrees with the server', async () => {
    const fractional: string[] = [];
    eachObject(doc, (o, at) => {
      if (typeof o.multipleOf === 'number' && !Number.isInteger(o.multipleOf)) fractional.push(at);
    });
    assert.deepEqual(fractional, []);
    const amount = doc.paths[PATHS.upi].post.requestBody.content['application/json'].schema.properties.amount;
    assert.equal(amount['x-decimal-places'], 2);
    assert.match(amount.description, /x-decimal-places: 2/);
    const validate = strictAjv(doc).compile(amount);
    for (const ok of [19.99, 0.07, 1.15, 0.01, 100000]) assert.equal(validate(ok), true, String(ok));
    for (const bad of [0, -1, 100000.01]) assert.equal(validate(bad), false, String(bad));
    // The server accepts what the document accepts, and still refuses a third decimal itself.
    const paid = await t.call('POST', PATHS.upi, { body: { ...VALID.upi(), amount: 19.99 } });
    assert.equal(paid.status, 200);
    const third = await t.call('POST', PATHS.upi, { body: { ...VALID.upi(), amount: 19.999 } });
    assert.equal(third.status, 422);
    assert.match(third.body.data.errors[0].message, /at most 2 decimals/);
  });

  it('gives every operation a unique operationId', () => {
    const ops = operations(doc);
    const ids = ops.map((o) => o.op.operationId);
    assert.deepEqual(
      ops.filter((o) => typeof o.op.operationId !== 'string' || !o.op.operationId).map((o) => `${o.method} ${o.path}`),
      [],
    );
    assert.equal(new Set(ids).size, ids.length, `duplicate operationIds: ${ids.join(', ')}`);
    assert.equal(fallbackOperationId('get', '/api/v1/webhook-endpoints/{id}/deliveries'), 'getWebhookEndpointsByIdDeliveries');
    assert.equal(fallbackOperationId('post', '/api/v1/audit-logs/{request_id}'), 'postAuditLogsByRequestId');
  });

  it('declares its license, contact and a description for every tag it uses', () => {
    assert.ok(doc.info.license?.name, 'info.license.name');
    assert.ok(doc.info.contact?.name, 'info.contact.name');
    const used = new Set(operations(doc).flatMap((o) => (o.op.tags ?? []) as string[]));
    const described = new Map((doc.tags as Json[]).map((x) => [x.name as string, x.description as string | undefined]));
    for (const tag of used) assert.ok(described.get(tag), `tag without a description: ${tag}`);
  });

  it('declares the Idempotency-Key header where the server reads it', () => {
    const missing: string[] = [];
    for (const def of OPERATIONS.filter((d) => d.idempotency?.by === 'idempotency_key')) {
      for (const method of def.method === 'GET' ? ['get', 'post'] : ['post']) {
        const params = (doc.paths[def.path]?.[method]?.parameters ?? []) as Json[];
        if (!params.some((p) => p.in === 'header' && String(p.name).toLowerCase() === 'idempotency-key')) missing.push(`${method.toUpperCase()} ${def.path}`);
      }
    }
    assert.deepEqual(missing, []);
  });

  it('changes only the published copy: the server still validates with its own keywords', async () => {
    const source = JSON.stringify(t.app.swagger());
    assert.match(source, /"errorMessage"/);
    assert.match(source, /"paise":true/);
    const r = await t.call('POST', PATHS.aadhaar, { body: { ...VALID.aadhaar(), aadhaar_number: '234123412345' } });
    assert.equal(r.status, 422);
    assert.match(r.body.data.errors[0].message, /valid 12-digit Aadhaar/);
  });

  it('the harness check is not vacuous: an undeclared status or a wrong body is a violation', () => {
    const contract = new Contract(doc as never);
    const answer = { method: 'GET', route: '/api/v1/account/wallet', headers: { 'content-type': 'application/json; charset=utf-8' } };
    assert.deepEqual(contract.check({ ...answer, status: 299, body: '{}' }), ['status 299 is not declared']);
    assert.notDeepEqual(contract.check({ ...answer, status: 200, body: '{"statuscode":17}' }), []);
    assert.equal(contract.check({ ...answer, route: '/health', status: 200, body: '{}' }), undefined, 'hidden routes are not judged');
    const bank = { ...answer, method: 'POST', route: PATHS.bank, status: 200 };
    const [problem] = contract.check({ ...bank, body: JSON.stringify({ statuscode: 'TXN', ok: true, message: 'x', data: { account_match: 'yes' } }) })!;
    assert.match(problem!, /^body does not match the schema: body\/data/);
    assert.match(contract.check({ ...bank, headers: { 'content-type': 'text/html' }, body: '<p>' })![0]!, /content type "text\/html" is not declared/);
  });
});
