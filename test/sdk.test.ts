// The official SDK (sdk/, @sangam/sdk) against a real listening server on a real store: every
// operation and helper, idempotent replay, retries (a lost answer, 409/106, 5xx, a real 429) only where
// a replay is safe, the audit iterator across pages, webhooks.verify on a real delivery, waitForFinal,
// typed errors; the drift check of its generated types and routes; a method for every operation of the
// registry and every /api/v1 route of the document, sending it; and the strict example program compiled
// with tsc and run against the server. The SDK is loaded from its own build (sdk/dist), as a user gets it.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { createAccount, createKey, setLimits } from '../src/accounts/store.js';
import { OPERATIONS } from '../src/operations/registry.js';
import { eventually, ref, startApp, type TestApp } from './harness.js';
import { recorder, type Received } from './tls-receiver.js';

type SDK = typeof import('../sdk/dist/index.js');
const root = fileURLToPath(new URL('../../', import.meta.url));
const sdk = (await import(new URL('../../sdk/dist/index.js', import.meta.url).href)) as SDK;
const { Sangam, SangamError, SangamConnectionError, SangamTimeoutError, WebhookVerificationError } = sdk;

/** Reads one field of an answer whose `data` the document may not type yet. */
const f = (v: unknown, name: string): any => (v as Record<string, unknown>)[name]; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The compiler's errors for a strict ES module `main` that imports the SDK's source. */
function compileAgainstSdk(main: string): string[] {
  const dir = mkdtempSync(path.join(tmpdir(), 'sangam-sdk-types-'));
  try {
    const file = path.join(dir, 'main.mts');
    writeFileSync(file, main);
    const program = ts.createProgram([file], {
      strict: true,
      noUncheckedIndexedAccess: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      skipLibCheck: true,
      types: ['node'],
      typeRoots: [path.join(root, 'node_modules/@types')],
      lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    });
    return ts.getPreEmitDiagnostics(program).map((d) => `TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

interface Seen {
  method: string;
  path: string;
  idempotencyKey: string | null;
  status: number | 'network';
  replayed: boolean;
}

/** A fetch that records every attempt and lets a test script the first answers (a network failure after the server answered, or a stand-in status). */
function recordingFetch() {
  const seen: Seen[] = [];
  const script: Array<'lose' | { status: number; body: unknown; headers?: Record<string, string> }> = [];
  const fn = async (req: Request): Promise<Response> => {
    const url = new URL(req.url);
    const base = { method: req.method, path: url.pathname, idempotencyKey: req.headers.get('idempotency-key') };
    const next = script.shift();
    if (next && next !== 'lose') {
      seen.push({ ...base, status: next.status, replayed: false });
      return new Response(JSON.stringify(next.body), { status: next.status, headers: { 'content-type': 'application/json', ...next.headers } });
    }
    const res = await fetch(req);
    seen.push({ ...base, status: next === 'lose' ? 'network' : res.status, replayed: res.headers.get('idempotent-replayed') === 'true' });
    if (next === 'lose') {
      await res.arrayBuffer(); // the server did the work; its answer is lost on the way back
      throw new TypeError('fetch failed');
    }
    return res;
  };
  return { fn, seen, script };
}

/**
 * The route (`METHOD /path/template`) of the one request the SDK method named (dotted, as
 * OPERATION_METHODS names it) sends, with placeholder arguments: a string for each parameter of
 * `route`'s path, then an empty object for its body, query or options. A stand-in fetch answers it.
 */
async function sentBy(name: string, route: string): Promise<string> {
  const sent: string[] = [];
  const fetch = async (req: Request) => {
    sent.push(`${req.method} ${new URL(req.url).pathname}`);
    return new Response(JSON.stringify({ data: {} }), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  const s = new Sangam({ apiKey: `sk_test_${'x'.repeat(40)}`, baseUrl: 'http://127.0.0.1:9', fetch, maxRetries: 0 });
  const keys = name.split('.');
  const owner = keys.slice(0, -1).reduce((o: any, k) => o[k], s); // eslint-disable-line @typescript-eslint/no-explicit-any
  const method = owner[keys.at(-1)!] as (...args: unknown[]) => Promise<unknown>;
  assert.equal(typeof method, 'function', `Sangam has no method ${name}`);
  await method.apply(owner, [...(route.match(/\{[^}]+\}/g) ?? []).map(() => 'x'), {}]);
  assert.equal(sent.length, 1, `${name} sent ${sent.join(', ')}`);
  const template = new RegExp(`^([A-Z]+ )${route.replace(/\{[^}]+\}/g, '[^/]+')}$`).exec(sent[0]!);
  return template ? `${template[1]}${route}` : sent[0]!;
}

const errorBody = (status: number, code: number, message: string) => ({ statuscode: 'ERR', ok: false, message, data: { Errorcode: code, Status: 'Failed', Message: message, request_id: 'req_standin' } });

async function receiver() {
  const got: Received = [];
  const server = http.createServer(recorder(got));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hooks`, got, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const run = (file: string, args: string[], env: Record<string, string> = {}) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
    execFile(file, args, { cwd: root, env: { ...process.env, ...env } }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    ),
  );

describe('the TypeScript SDK against a real server', () => {
  let t: TestApp;
  let baseUrl: string;
  let rx: Awaited<ReturnType<typeof receiver>>;
  const client = (opts: Partial<ConstructorParameters<SDK['Sangam']>[0]> = {}) => new Sangam({ apiKey: t.key, baseUrl, ...opts });

  before(async () => {
    // A pending lasts long enough that a timeout of 1 ms is seen before the payment ends, on a busy machine too.
    t = await startApp({ SANGAM_WEBHOOK_ALLOW_PRIVATE: '1', SANGAM_WEBHOOK_POLL_MS: '30', SANGAM_SANDBOX_PENDING_MS: '3000' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    rx = await receiver();
  });
  after(async () => {
    await rx?.close();
    await t?.close();
  });

  it('commits the types and routes the current server generates (run scripts/sdk-types.mjs when this fails)', async () => {
    const gen = (await import(new URL('../../scripts/sdk-types.mjs', import.meta.url).href)) as {
      schemaSource(doc: unknown): Promise<string>;
      routesSource(doc: unknown): string;
      SCHEMA_FILE: string;
      ROUTES_FILE: string;
    };
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    assert.equal(await gen.schemaSource(doc), readFileSync(gen.SCHEMA_FILE, 'utf8'), 'sdk/src/schema.ts is stale: run `npm run build && node scripts/sdk-types.mjs`');
    assert.equal(gen.routesSource(doc), readFileSync(gen.ROUTES_FILE, 'utf8'), 'sdk/src/routes.ts is stale: run `npm run build && node scripts/sdk-types.mjs`');
  });

  it('has a method for every operation of the registry and every /api/v1 route of the document, which sends it', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as { paths: Record<string, Record<string, { operationId?: string }>> };
    const methods: Record<string, string | undefined> = sdk.OPERATION_METHODS;
    // Every operation of the registry is served on POST (a GET one on GET too, route.ts): the SDK sends the POST.
    for (const op of OPERATIONS) {
      const name = methods[op.operationId];
      assert.ok(name, `the registry's ${op.slug} (${op.operationId}) has no SDK method: add one to sdk/src/index.ts and OPERATION_METHODS`);
      assert.equal(await sentBy(name, op.path), `POST ${op.path}`, `${name} sends ${op.slug}`);
    }
    const registryGets = new Set(OPERATIONS.filter((op) => op.method === 'GET').map((op) => op.path));
    let routes = 0;
    for (const [route, item] of Object.entries(doc.paths).filter(([p]) => p.startsWith('/api/v1/'))) {
      for (const [method, op] of Object.entries(item).filter(([m]) => ['get', 'put', 'post', 'delete', 'patch'].includes(m))) {
        routes++;
        const id = op.operationId!;
        const name = methods[id];
        assert.ok(name, `${method.toUpperCase()} ${route} (${id}) has no SDK method: run scripts/sdk-types.mjs, then add one to sdk/src/index.ts and OPERATION_METHODS`);
        // The GET form of a registry GET operation (its fields in the query string) is the same operation: the SDK sends its POST form.
        const sends = method === 'get' && registryGets.has(route) ? 'POST' : method.toUpperCase();
        assert.equal(await sentBy(name, route), `${sends} ${route}`, `${name} sends ${id}`);
      }
    }
    assert.equal(Object.keys(methods).length, routes, 'OPERATION_METHODS names the document\'s operations, no other');
  });

  it('takes its environment from the key', () => {
    assert.equal(client().environment, 'sandbox');
    assert.equal(new Sangam({ apiKey: t.liveKey, baseUrl }).environment, 'live');
    assert.throws(() => new Sangam({ apiKey: 'pk_nope' }), /sk_test_/);
  });

  it('calls every operation once', async () => {
    const s = client();
    assert.equal(f(await s.signatureMatch({ reference_id: ref('sig'), consent: true, input: 'https://example.com/c.png', name: 'Priya Sharma' }), 'status'), 'success');
    const init = await s.doclocker.initialize({ reference_id: ref('init'), consent: true });
    assert.match(f(init, 'authorization_url'), /^https?:/);
    // An id issued by initialize and not yet authorized: a business failure, returned, not thrown.
    const unconsented = await s.doclocker.download({ reference_id: ref('aad'), consent: true, doclocker__client__id: f(init, 'doclocker__client__id') });
    assert.equal(f(unconsented, 'status'), 'failed');
    assert.equal(f(await s.doclocker.download({ reference_id: ref('aad'), consent: true, doclocker__client__id: 'client-12345678' }), 'status'), 'success');
    assert.equal(f(await s.mobileToBank({ reference_id: ref('bank'), consent: true, mobile: '9876543210' }), 'status'), 'success');
    assert.equal(f(await s.mobileToBank({ reference_id: ref('bank'), consent: true, mobile: '9000000000' }), 'status'), 'failed');
    const names = await s.nameMatch({ reference_id: ref('names'), consent: true, name_1: 'Shri Ramesh Kumar', name_2: 'RAMESH KUMAR' });
    assert.equal(names.status, 'success');
    assert.equal(typeof f(names, 'score'), 'number');
    const upi = await s.upiPayment({ reference_id: ref('upi'), consent: true, vpa: 'success@sandbox', amount: 19.99 });
    assert.equal(f(upi, 'status'), 'success');
    assert.equal(f(upi, 'amount'), 19.99);
    assert.equal(f(await s.mobileRecharge({ reference_id: ref('rc'), consent: true, mobile: '9876543210', operator: 'JIO', amount: 199 }), 'status'), 'success');
    assert.equal(f(await s.dthRecharge({ reference_id: ref('dth'), consent: true, subscriber_id: '1234567890', operator: 'TS', amount: 350 }), 'status'), 'success');
    assert.ok(f(await s.recharge.operators(), 'operators').some((o: unknown) => f(o, 'code') === 'JIO'));
    assert.equal(f(await s.recharge.operatorLookup({ mobile: '9876543210' }), 'mobile'), '9876543210');
    assert.ok(f(await s.recharge.plans({ operator: 'JIO', circle: 'DL' }), 'plans').length > 0);
    assert.ok(f(await s.dth.operators(), 'operators').some((o: unknown) => f(o, 'code') === 'TS'));
    assert.equal(typeof f(await s.dth.subscriberInfo({ operator: 'TS', subscriber_id: '1234567890' }), 'name'), 'string');
    const tx = await s.transactions.get(f(upi, 'reference_id'));
    assert.equal(f(tx, 'txn_id'), f(upi, 'txn_id'));
    assert.equal(f(tx, 'operation'), 'upi-payment-status');
    assert.equal(f(await s.wallet.balance(), 'currency'), 'INR');
    assert.ok(Array.isArray(f(await s.wallet.statement({ limit: 5 }), 'items')));
    for await (const _ of s.wallet.iterateStatement()) assert.fail('a sandbox-only account has no statement entries');

    const endpoint = await s.webhooks.endpoints.create({ url: 'https://example.com/hooks' });
    const id: string = f(endpoint, 'id');
    assert.match(f(endpoint, 'secret'), /^whsec_/);
    assert.ok(f(await s.webhooks.endpoints.list(), 'items').some((e: unknown) => f(e, 'id') === id));
    assert.deepEqual(f(await s.webhooks.endpoints.deliveries(id), 'items'), []);
    assert.equal(f(await s.webhooks.endpoints.replay(id, { since: '2026-01-01T00:00:00Z' }), 'replayed'), 0);
    const rotated = await s.webhooks.endpoints.rotateSecret(id);
    assert.notEqual(f(rotated, 'secret'), f(endpoint, 'secret'));
    assert.equal(f(await s.webhooks.endpoints.delete(id), 'deleted'), true);

    const rows = f(await s.auditLogs.list({ limit: 3 }), 'items');
    assert.equal(rows.length, 3);
    assert.equal(f(await s.auditLogs.get(f(rows[0], 'request_id')), 'request_id'), f(rows[0], 'request_id'));
    const csv = await s.auditLogs.export({ operation: 'upi-payment-status' });
    assert.match(csv.split('\n')[0]!, /request_id/);
    const ndjson = (await s.auditLogs.export({ format: 'ndjson', operation: 'upi-payment-status' })).trim().split('\n');
    assert.equal(JSON.parse(ndjson[0]!).operation, 'upi-payment-status');
    const proof = (await s.auditLogs.export({ format: 'verifiable' })).trim().split('\n');
    assert.equal(JSON.parse(proof[0]!).type, 'sangam-audit-export');
    assert.equal(JSON.parse(proof.at(-1)!).type, 'end');

    const erased = await s.erasures.create(`sdk-nothing-${Date.now()}`);
    assert.equal(erased.audit_rows_erased, 0);
    assert.equal(erased.transactions_scrubbed, 0);

    const consent = await s.consents.create({
      subject: { mobile: '9876543210' },
      purpose: { code: 'bank-check', text: 'To check the bank account linked to your mobile' },
      operations: ['mobile-to-bank-account'],
      notice: { version: 'v1', language: 'en', text: 'We will check the bank account linked to your mobile number.' },
    });
    assert.equal(consent.status, 'active');
    assert.ok((await s.consents.list({ subject_mobile: '9876543210' })).items.some((c) => c.id === consent.id));
    assert.equal((await s.consents.get(consent.id)).id, consent.id);
    assert.equal((await s.consents.withdraw(consent.id)).status, 'withdrawn');
    assert.equal((await s.consents.publicKey()).keys[0]?.alg, 'EdDSA');
    const goLive = await s.goLive.checklist();
    assert.equal(goLive.profile, null, 'a sandbox key reads the progress only');
    assert.ok(goLive.operations.length > 0);
  });

  it('throws a typed SangamError carrying status, Errorcode, message, errors[] and request_id', async () => {
    const s = client();
    const err = await s.upiPayment({ reference_id: ref('upi'), consent: true, vpa: 'not a vpa', amount: 10 }).catch((e: unknown) => e);
    assert.ok(err instanceof SangamError);
    assert.equal(err.status, 422);
    assert.equal(err.errorcode, 104);
    assert.match(err.message, /vpa/);
    assert.ok(err.errors.some((e) => e.field === 'vpa'), JSON.stringify(err.errors));
    assert.match(err.requestId ?? '', /^req_/);
    const missing = await s.transactions.get(ref('none')).catch((e: unknown) => e);
    assert.ok(missing instanceof SangamError && missing.status === 404 && missing.errorcode === 109);
    const unknownKey = await new Sangam({ apiKey: `sk_test_${'x'.repeat(40)}`, baseUrl }).wallet.balance().catch((e: unknown) => e);
    assert.ok(unknownKey instanceof SangamError && unknownKey.status === 401 && unknownKey.errorcode === 101);
  });

  it('replays a payment under the same idempotency key (Idempotent-Replayed) and sends a fresh key per call otherwise', async () => {
    const rec = recordingFetch();
    const s = client({ fetch: rec.fn });
    const body = { reference_id: ref('upi'), consent: true as const, vpa: 'success@sandbox', amount: 42 };
    const key = crypto.randomUUID();
    const first = await s.upiPayment(body, { idempotencyKey: key });
    const again = await s.upiPayment(body, { idempotencyKey: key });
    assert.equal(f(again, 'txn_id'), f(first, 'txn_id'));
    assert.deepEqual(rec.seen.map((x) => [x.idempotencyKey, x.replayed]), [[key, false], [key, true]]);
    // No key given: each call gets its own UUID, so two calls are two payments.
    await s.mobileRecharge({ reference_id: ref('rc'), consent: true, mobile: '9876543210', operator: 'AT', amount: 10 });
    await s.mobileRecharge({ reference_id: ref('rc'), consent: true, mobile: '9876543210', operator: 'AT', amount: 10 });
    const [k1, k2] = rec.seen.slice(2).map((x) => x.idempotencyKey);
    assert.match(k1 ?? '', /^[0-9a-f-]{36}$/);
    assert.notEqual(k1, k2);
    // A verification is keyed by its reference_id: no header.
    await s.mobileToBank({ reference_id: ref('bank'), consent: true, mobile: '9876543210' });
    assert.equal(rec.seen.at(-1)!.idempotencyKey, null);
  });

  it('retries a lost answer with the same key: the payment happens once', async () => {
    const rec = recordingFetch();
    const s = client({ fetch: rec.fn });
    rec.script.push('lose');
    const reference = ref('upi');
    const paid = await s.upiPayment({ reference_id: reference, consent: true, vpa: 'success@sandbox', amount: 7 });
    assert.deepEqual(rec.seen.map((x) => x.status), ['network', 200]);
    assert.equal(rec.seen[0]!.idempotencyKey, rec.seen[1]!.idempotencyKey);
    assert.equal(rec.seen[1]!.replayed, true, 'the retry got the first answer back');
    assert.equal(f(await s.transactions.get(reference), 'txn_id'), f(paid, 'txn_id'));
    const executed = await t.store.db.selectFrom('transactions').select('id').where('reference_id', '=', reference).execute();
    assert.equal(executed.length, 1);
  });

  it('retries 409/106 and 5xx where replay is safe, and never a create that has no key', async () => {
    const rec = recordingFetch();
    const s = client({ fetch: rec.fn });
    // The sandbox never leaves a key in flight, so the in-flight answer is a stand-in with the server's body.
    rec.script.push({ status: 409, body: errorBody(409, 106, 'still in flight') });
    assert.equal(f(await s.dthRecharge({ reference_id: ref('dth'), consent: true, subscriber_id: '1234567890', operator: 'TS', amount: 50 }), 'status'), 'success');
    assert.deepEqual(rec.seen.map((x) => x.status), [409, 200]);
    assert.equal(rec.seen[0]!.idempotencyKey, rec.seen[1]!.idempotencyKey);

    rec.seen.length = 0;
    rec.script.push({ status: 503, body: errorBody(503, 199, 'unavailable') });
    assert.equal(f(await s.wallet.balance(), 'currency'), 'INR');
    assert.deepEqual(rec.seen.map((x) => x.status), [503, 200]);

    rec.seen.length = 0;
    rec.script.push('lose');
    const lost = await s.webhooks.endpoints.create({ url: 'https://example.com/once' }).catch((e: unknown) => e);
    assert.ok(lost instanceof SangamConnectionError);
    rec.script.push({ status: 500, body: errorBody(500, 199, 'Internal error') });
    const failed = await s.webhooks.endpoints.create({ url: 'https://example.com/twice' }).catch((e: unknown) => e);
    assert.ok(failed instanceof SangamError && failed.status === 500);
    assert.equal(rec.seen.length, 2, 'neither create was sent twice');

    rec.seen.length = 0;
    rec.script.push({ status: 503, body: errorBody(503, 199, 'unavailable') }, { status: 503, body: errorBody(503, 199, 'unavailable') });
    const gaveUp = await s.wallet.balance({ maxRetries: 1 }).catch((e: unknown) => e);
    assert.ok(gaveUp instanceof SangamError && gaveUp.status === 503);
    assert.equal(rec.seen.length, 2);
  });

  it('waits out a real 429 for its Retry-After', async () => {
    const account = (await createAccount(t.store.db, 'Slow Fintech')).id;
    await setLimits(t.store.db, account, 1, 1);
    const rec = recordingFetch();
    const s = new Sangam({ apiKey: (await createKey(t.store.db, account, 'sandbox')).key, baseUrl, fetch: rec.fn });
    await s.wallet.balance();
    const started = Date.now();
    await s.webhooks.endpoints.create({ url: 'https://example.com/limited' });
    assert.deepEqual(rec.seen.map((x) => x.status), [200, 429, 200]);
    assert.ok(Date.now() - started >= 900, 'waited for Retry-After');
  });

  it('iterates the audit log across pages via next_cursor', async () => {
    const s = client();
    for (let i = 0; i < 5; i++) await s.mobileToBank({ reference_id: ref('bank'), consent: true, mobile: '9876543210' });
    const all = await eventually(async () => {
      const items = f(await s.auditLogs.list({ operation: 'mobile-to-bank-account', limit: 500 }), 'items') as unknown[];
      return items.length >= 7 && items;
    });
    const rec = recordingFetch();
    const paged = client({ fetch: rec.fn });
    const ids: string[] = [];
    for await (const row of paged.auditLogs.iterate({ operation: 'mobile-to-bank-account', limit: 2 })) ids.push(f(row, 'request_id'));
    assert.deepEqual(ids, all.map((r) => f(r, 'request_id')));
    assert.equal(rec.seen.length, Math.ceil(all.length / 2));
  });

  it('waitForFinal polls a pending payment to its final state; verify accepts the real webhook and refuses a tampered one', async () => {
    const s = client();
    const endpoint = await s.webhooks.endpoints.create({ url: rx.url });
    const secret: string = f(endpoint, 'secret');
    const reference = ref('upi');
    assert.equal(f(await s.upiPayment({ reference_id: reference, consent: true, vpa: 'pending@sandbox', amount: 5 }), 'status'), 'pending');
    await assert.rejects(s.waitForFinal(reference, { timeoutMs: 1 }), (e: unknown) => e instanceof SangamTimeoutError && e.referenceId === reference);
    const final = await s.waitForFinal(reference, { operation: 'upi-payment-status', intervalMs: 50, timeoutMs: 20_000 });
    assert.equal(f(final, 'status'), 'success');
    assert.ok(f(final, 'verified_at'));
    await assert.rejects(s.waitForFinal(reference, { operation: 'dth-recharge' }), /upi-payment-status/);

    const failRef = ref('upi');
    await s.upiPayment({ reference_id: failRef, consent: true, vpa: 'pendingfail@sandbox', amount: 5 });
    assert.equal(f(await s.waitForFinal(failRef, { intervalMs: 50, timeoutMs: 20_000 }), 'status'), 'failed');

    const delivery = await eventually(async () => rx.got.find((d) => d.body.includes(reference)));
    const event = s.webhooks.verify(delivery.body, delivery.headers, secret);
    assert.equal(event.type, 'transaction.success');
    assert.equal(event.data.reference_id, reference);
    assert.throws(() => s.webhooks.verify(delivery.body.replace('"success"', '"failed"'), delivery.headers, secret), WebhookVerificationError);
    assert.throws(() => s.webhooks.verify(delivery.body, delivery.headers, `whsec_${Buffer.from('another secret!!').toString('base64')}`), WebhookVerificationError);
    // The same check through a fetch Headers, as a fetch-style server hands them over.
    const headers = new Headers();
    for (const [k, v] of Object.entries(delivery.headers)) if (typeof v === 'string') headers.set(k, v);
    assert.equal(sdk.verifyWebhook(delivery.body, headers, secret).type, 'transaction.success');
  });

  it('types what waitForFinal and the operations answer: a final payment\'s utr and amount, a pending payment\'s txn_id, a signature\'s extracted_name', () => {
    const typed = compileAgainstSdk(`
      import type { Sangam } from ${JSON.stringify(`${root}sdk/src/index.js`)};
      /** Compiles only for a type that is neither any nor unknown. */
      type Typed<T> = 0 extends 1 & T ? never : unknown extends T ? never : T;
      export async function reads(s: Sangam): Promise<unknown[]> {
        const out: unknown[] = [];
        const final = await s.waitForFinal('r', { operation: 'upi-payment-status' });
        const op: 'upi-payment-status' = final.operation;
        out.push(op);
        if (final.status === 'success') {
          const utr: Typed<typeof final.utr> & (string | null) = final.utr;
          const amount: number = final.amount;
          const txn: string = final.txn_id;
          out.push(utr, amount, txn);
        } else {
          const failed: 'failed' = final.status;
          out.push(failed, final.Errorcode, final.Message);
        }
        const paid = await s.upiPayment({ reference_id: 'u', consent: true, vpa: 'pending@sandbox', amount: 5 });
        if (paid.status === 'pending') {
          const txn: string = paid.txn_id;
          const amount: number = paid.amount;
          out.push(txn, amount);
        }
        const sig = await s.signatureMatch({ reference_id: 's', consent: true, input: 'https://example.com/s.png' });
        if (sig.status === 'success') {
          const name: Typed<typeof sig.extracted_name> & (string | null) = sig.extracted_name;
          out.push(name);
        }
        const any = await s.waitForFinal('x');
        if (any.operation === 'recharge-commission' && any.status === 'success') {
          const commission: number = any.commission;
          const utr: string | null = any.utr;
          out.push(commission, utr);
        }
        return out;
      }
    `);
    assert.deepEqual(typed, []);
    // And what must not compile: a final answer is never pending; a success amount is not a string.
    const wrong = compileAgainstSdk(`
      import type { Sangam } from ${JSON.stringify(`${root}sdk/src/index.js`)};
      export async function wrong(s: Sangam): Promise<string> {
        const final = await s.waitForFinal('r', { operation: 'upi-payment-status' });
        if (final.status === 'pending') return 'never';
        return final.status === 'success' ? final.amount : '';
      }
    `);
    assert.equal(wrong.length, 2, wrong.join('\n'));
    assert.match(wrong[0]!, /^TS2367: .*'"pending"'/);
    assert.match(wrong[1]!, /^TS2322: Type 'number' is not assignable to type 'string'/);
  });

  it('a strict TypeScript program using every operation compiles with tsc --strict and runs against the server', async () => {
    const tsc = await run(process.execPath, [`${root}node_modules/typescript/bin/tsc`, '-p', 'sdk/examples/tsconfig.json', '--strict']);
    assert.equal(tsc.code, 0, tsc.stdout + tsc.stderr);
    const ran = await run(process.execPath, ['sdk/examples/dist/every-operation.js'], { SANGAM_API_KEY: t.key, SANGAM_BASE_URL: baseUrl });
    assert.equal(ran.code, 0, ran.stderr);
    const out = JSON.parse(ran.stdout.trim().split('\n').at(-1)!) as { ok: boolean; called: string[] };
    assert.equal(out.ok, true);
    for (const what of ['signatureMatch', 'doclocker.initialize', 'doclocker.download', 'mobileToBank', 'upiPayment', 'mobileRecharge', 'dthRecharge',
      'recharge.operators', 'recharge.operatorLookup', 'recharge.plans', 'dth.operators', 'dth.subscriberInfo', 'transactions.get', 'waitForFinal',
      'wallet.balance', 'wallet.statement', 'webhooks.endpoints.create', 'webhooks.endpoints.list', 'webhooks.endpoints.deliveries', 'webhooks.endpoints.replay',
      'webhooks.endpoints.rotateSecret', 'webhooks.endpoints.delete', 'webhooks.verify', 'auditLogs.list', 'auditLogs.get', 'auditLogs.iterate', 'auditLogs.export', 'erasures.create',
      'nameMatch', 'consents.create', 'consents.list', 'consents.get', 'consents.withdraw', 'consents.publicKey', 'goLive.checklist']) {
      assert.ok(out.called.includes(what), `the example calls ${what}`);
    }
  });
});
