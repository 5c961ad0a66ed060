// The console's JSON routes behind the pages of issue #27: webhook endpoints (create, list with delivery
// status, rotate, test event delivered and signed, delete), named keys, logs by environment, the wallet
// statement filtered and exported, the overview's range and environment split, and the admin area
// (users, pricing, rate limits): audited, admins only (403 for anyone else), and bad input a 422 naming
// the field, never a 500.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { Webhook } from 'standardwebhooks';
import { runCommand } from '../src/admin/run.js';
import { holdMany, post } from '../src/ledger/ledger.js';
import { eventually, startApp, VALID, PATHS, type TestApp } from './harness.js';

type Session = { cookie: string; csrf: string };

describe('console pages (issue #27)', () => {
  let t: TestApp;
  let dev: Session;
  let ops: Session;
  let arrived: (d: { headers: http.IncomingHttpHeaders; body: string }) => void = () => {};
  const rx = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => (res.end('ok'), arrived({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') })));
  });
  /** Long enough for a loaded machine; each wait ends on its event well before. */
  const PATIENCE_MS = 60_000;
  let rxUrl = '';

  const login = async (email: string, password: string): Promise<Session> => {
    const r = await t.app.inject({ method: 'POST', url: '/console/api/login', payload: { email, password } });
    assert.equal(r.statusCode, 200, r.body);
    return { cookie: String(r.headers['set-cookie']).split(';')[0]!, csrf: JSON.parse(r.body).data.csrf_token };
  };
  const as = async (s: Session, method: string, url: string, payload?: unknown) => {
    const r = await t.app.inject({ method: method as 'GET', url, payload: payload as object, headers: { cookie: s.cookie, 'x-csrf-token': s.csrf } });
    return { status: r.statusCode, body: r.body ? JSON.parse(r.body.startsWith('{') ? r.body : '{}') : {}, text: r.body, headers: r.headers };
  };
  const fields = (r: { body: { data?: { errors?: Array<{ field: string }> } } }) => r.body.data?.errors?.map((e) => e.field);

  before(async () => {
    t = await startApp({ SANGAM_WEBHOOK_ALLOW_PRIVATE: '1', SANGAM_WEBHOOK_POLL_MS: '30', SANGAM_RATE_LIMIT_PER_SEC: '50', SANGAM_RATE_LIMIT_BURST: '80' });
    await new Promise<void>((r) => rx.listen(0, '127.0.0.1', r));
    rxUrl = `http://127.0.0.1:${(rx.address() as { port: number }).port}/hooks`;
    assert.equal((await runCommand(t.store.db, ['users', 'create', '--email', 'dev@acme.test', '--password', 'correct horse', '--account', t.accountId])).code, 0);
    assert.equal((await runCommand(t.store.db, ['users', 'create', '--email', 'ops@sangam.test', '--password', 'admin pass 1', '--admin'])).code, 0);
    dev = await login('dev@acme.test', 'correct horse');
    ops = await login('ops@sangam.test', 'admin pass 1');
  });
  after(async () => {
    await new Promise<void>((r) => rx.close(() => r()));
    await t.close();
  });

  it('webhook endpoints: create (secret once), list with delivery status, test event signed and delivered, rotate, delete', async () => {
    const created = await as(dev, 'POST', '/console/api/webhooks', { environment: 'sandbox', url: rxUrl, event_types: ['transaction.success'] });
    assert.equal(created.status, 200, created.text);
    const { id, secret } = created.body.data as { id: string; secret: string };
    assert.match(secret, /^whsec_/);
    const arrival = new Promise<{ headers: http.IncomingHttpHeaders; body: string }>((r) => (arrived = r));
    const test = await as(dev, 'POST', `/console/api/webhooks/${id}/test`, { environment: 'sandbox' });
    assert.equal(test.status, 200, test.text);
    const delivered = await arrival;
    assert.equal(delivered.headers['webhook-id'], test.body.data.event_id);
    const payload = new Webhook(secret).verify(delivered.body, delivered.headers as Record<string, string>) as { type: string; data: { endpoint_id: string } };
    assert.equal(payload.type, 'webhook.test');
    assert.equal(payload.data.endpoint_id, id);
    const listed = await eventually(async () => {
      const items = (await as(dev, 'GET', '/console/api/webhooks?environment=sandbox')).body.data.items as Array<{ id: string; deliveries: { last_day: { delivered: number }; last: { status: string } } }>;
      const e = items.find((i) => i.id === id);
      return e?.deliveries.last?.status === 'delivered' && e;
    }, PATIENCE_MS);
    assert.equal(listed.deliveries.last_day.delivered, 1);
    // The API lists the same delivery, its type declared in the contract.
    const api = await t.call('GET', `/api/v1/webhook-endpoints/${id}/deliveries`);
    assert.equal(api.body.data.items[0].type, 'webhook.test');

    const rotated = await as(dev, 'POST', `/console/api/webhooks/${id}/rotate`, { environment: 'sandbox', overlap_seconds: 0 });
    assert.equal(rotated.status, 200, rotated.text);
    assert.notEqual(rotated.body.data.secret, secret);
    assert.equal((await as(dev, 'GET', '/console/api/webhooks?environment=live')).body.data.items.length, 0, 'a sandbox endpoint is not a live one');
    assert.equal((await as(dev, 'DELETE', `/console/api/webhooks/${id}?environment=live`)).status, 404);
    assert.equal((await as(dev, 'DELETE', `/console/api/webhooks/${id}?environment=sandbox`)).status, 200);
    assert.equal((await as(dev, 'GET', '/console/api/webhooks?environment=sandbox')).body.data.items.length, 0);
  });

  it('webhook input errors are 422s naming the field', async () => {
    const cases: Array<[string, string, unknown, string]> = [
      ['POST', '/console/api/webhooks', { environment: 'sandbox', url: 'ftp://x' }, 'url'],
      ['POST', '/console/api/webhooks', { environment: 'sandbox', url: 'http://127.0.0.1/x', event_types: ['nope'] }, 'event_types'],
      ['POST', '/console/api/webhooks', { environment: 'prod', url: 'http://127.0.0.1/x' }, 'environment'],
      ['POST', '/console/api/webhooks/we_1/rotate', { environment: 'sandbox' }, 'id'],
      ['POST', `/console/api/webhooks/we_${'a'.repeat(20)}/rotate`, { environment: 'sandbox', overlap_seconds: -1 }, 'overlap_seconds'],
    ];
    for (const [method, url, body, field] of cases) {
      const r = await as(dev, method, url, body);
      assert.equal(r.status, 422, `${url} ${JSON.stringify(body)}: ${r.text}`);
      assert.deepEqual(fields(r), [field], r.text);
    }
  });

  it('Send test event is rate limited per endpoint (429/108 with Retry-After), and another endpoint still gets one', async () => {
    const make = async () => (await as(dev, 'POST', '/console/api/webhooks', { environment: 'sandbox', url: rxUrl })).body.data.id as string;
    const [a, b] = [await make(), await make()];
    const answers: Array<{ status: number; body: { data: { Errorcode?: number } }; headers: Record<string, unknown> }> = [];
    for (let i = 0; i < 20; i++) answers.push(await as(dev, 'POST', `/console/api/webhooks/${a}/test`, { environment: 'sandbox' }));
    const ok = answers.filter((r) => r.status === 200).length;
    assert.ok(ok >= 1 && ok < 20, `some sent, then limited: ${answers.map((r) => r.status).join(',')}`);
    const limited = answers.find((r) => r.status === 429)!;
    assert.equal(limited.body.data.Errorcode, 108);
    assert.ok(Number(limited.headers['retry-after']) >= 1, 'Retry-After');
    assert.ok(answers.slice(answers.indexOf(limited)).every((r) => r.status === 429), 'no burst gets through once limited');
    const queued = await t.store.db.selectFrom('webhook_deliveries').select((eb) => eb.fn.countAll<string>().as('n')).where('endpoint_id', '=', a).executeTakeFirstOrThrow();
    assert.equal(Number(queued.n), ok, 'a refused test event queues nothing');
    assert.equal((await as(dev, 'POST', `/console/api/webhooks/${b}/test`, { environment: 'sandbox' })).status, 200, 'another endpoint has its own bucket');
    for (const id of [a, b]) await as(dev, 'DELETE', `/console/api/webhooks/${id}?environment=sandbox`);
  });

  it('keys get a name, kept when rolled; CLI keys create --name', async () => {
    const k = await as(dev, 'POST', '/console/api/keys', { environment: 'sandbox', name: ' checkout server ' });
    assert.equal(k.status, 200, k.text);
    assert.equal(k.body.data.name, 'checkout server');
    const rolled = await as(dev, 'POST', `/console/api/keys/${k.body.data.id}/roll`, { grace_seconds: 0 });
    const list = (await as(dev, 'GET', '/console/api/keys')).body.data.items as Array<{ id: string; name: string | null }>;
    assert.equal(list.find((i) => i.id === rolled.body.data.id)?.name, 'checkout server');
    assert.equal(fields(await as(dev, 'POST', '/console/api/keys', { environment: 'sandbox', name: 'x'.repeat(101) }))?.[0], 'name');
    const cli = await runCommand(t.store.db, ['keys', 'create', '--account', t.accountId, '--env', 'sandbox', '--name', 'batch job']);
    assert.equal(cli.output.name, 'batch job');
  });

  it('logs filter by environment; a path keeps the reference its Reference column shows', async () => {
    const body = { ...VALID.signature(), reference_id: 'order-123456789012' };
    assert.equal((await t.call('POST', PATHS.signature, { body })).status, 200);
    await t.call('GET', `/api/v1/transactions/${body.reference_id}`);
    const rows = await eventually(async () => {
      const r = (await as(dev, 'GET', `/console/api/logs?environment=sandbox&reference_id=${body.reference_id}`)).body.data.items as Array<{ path: string; environment: string }>;
      return r.length === 2 && r;
    }, PATIENCE_MS);
    assert.ok(rows.every((r) => r.environment === 'sandbox'));
    assert.ok(rows.some((r) => r.path === `/api/v1/transactions/${body.reference_id}`), JSON.stringify(rows.map((r) => r.path)));
    assert.equal((await as(dev, 'GET', `/console/api/logs?environment=live&reference_id=${body.reference_id}`)).body.data.items.length, 0);
    assert.deepEqual(fields(await as(dev, 'GET', '/console/api/logs?environment=prod')), ['environment']);
  });

  it('the wallet statement filters by reference and date and exports CSV', async () => {
    await runCommand(t.store.db, ['wallet', 'topup', '--account', t.accountId, '--amount', '100']);
    const txn = 'txn_console_pages_1';
    await t.store.db.transaction().execute(async (trx) => {
      await trx.insertInto('transactions').values({ id: txn, account_id: t.accountId, environment: 'live', operation: 'signature-match', reference_id: 'inv-42', status: 'success', result: '{}' }).execute();
      await holdMany(trx, [{ txnId: txn, accountId: t.accountId, principalPaise: 0, feePaise: 250, commissionPaise: 0 }]);
      await post(trx, txn);
    });
    for (const reference of ['inv-42', txn]) {
      const page = await as(dev, 'GET', `/console/api/statement?reference=${reference}`);
      assert.deepEqual(page.body.data.items.map((i: { reference_id: string; txn_id: string; amount: number }) => [i.reference_id, i.txn_id, i.amount]), [['inv-42', txn, -2.5]]);
    }
    const future = new Date(Date.now() + 86_400_000).toISOString();
    assert.equal((await as(dev, 'GET', `/console/api/statement?from=${encodeURIComponent(future)}`)).body.data.items.length, 0);
    const csv = await as(dev, 'GET', '/console/api/statement/export?reference=inv-42');
    assert.equal(csv.status, 200);
    assert.match(String(csv.headers['content-type']), /text\/csv/);
    const lines = csv.text.trim().split('\n');
    assert.equal(lines[0], 'id,created_at,kind,reference_id,txn_id,operation,status,amount,balance_after,reason');
    assert.equal(lines.length, 2);
    assert.match(lines[1]!, /inv-42,txn_console_pages_1,signature-match,success,-2.5,97.5,/);
    assert.deepEqual(fields(await as(dev, 'GET', '/console/api/statement/export?from=yesterday')), ['from']);
  });

  it('the overview splits sandbox and live over a chosen range', async () => {
    for (const range of ['24h', '7d', '30d']) {
      const r = await as(dev, 'GET', `/console/api/overview?range=${range}`);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.data.bucket, range === '24h' ? 'hour' : 'day');
      const envs = new Set((r.body.data.series as Array<{ environment: string }>).map((p) => p.environment));
      assert.ok(envs.has('sandbox') && !envs.has(null as unknown as string), JSON.stringify([...envs]));
    }
    assert.deepEqual(fields(await as(dev, 'GET', '/console/api/overview?range=1y')), ['range']);
  });

  it('admins create users, change a price and an account rate limit, each audited', async () => {
    const u = await as(ops, 'POST', '/console/api/admin/users', { email: 'New@Acme.test', password: 'long enough 1', is_admin: false, account_id: t.accountId });
    assert.equal(u.status, 200, u.text);
    const users = (await as(ops, 'GET', '/console/api/admin/users')).body.data.items as Array<{ email: string; account_name: string | null }>;
    assert.equal(users.find((x) => x.email === 'new@acme.test')?.account_name, 'Test Fintech');
    await login('new@acme.test', 'long enough 1');
    assert.deepEqual(fields(await as(ops, 'POST', '/console/api/admin/users', { email: 'new@acme.test', password: 'long enough 1', is_admin: false, account_id: null })), ['email']);

    const fee = await as(ops, 'PUT', '/console/api/admin/pricing/signature-match', { fee: 3.25 });
    assert.equal(fee.status, 200, fee.text);
    const fees = (await as(ops, 'GET', '/console/api/admin/pricing')).body.data.items as Array<{ operation: string; fee: number; default_fee: number }>;
    assert.equal(fees.find((f) => f.operation === 'signature-match')?.fee, 3.25);
    const listed = (await runCommand(t.store.db, ['pricing', 'list'])).output.fees as Array<{ operation: string; fee: number }>;
    assert.equal(listed.find((f) => f.operation === 'signature-match')?.fee, 3.25);

    const lim = await as(ops, 'PUT', `/console/api/admin/accounts/${t.accountId}/limits`, { per_sec: 7, burst: null });
    assert.equal(lim.status, 200, lim.text);
    const limits = (await as(ops, 'GET', '/console/api/admin/limits')).body.data;
    assert.deepEqual(limits.defaults, { per_sec: 50, burst: 80 });
    assert.deepEqual(limits.items.find((a: { id: string }) => a.id === t.accountId), { id: t.accountId, name: 'Test Fintech', rate_limit_per_sec: 7, rate_limit_burst: null });

    const audit = await t.store.db.selectFrom('audit_logs').select(['path', 'request_body']).where('method', '=', 'ADMIN').execute();
    const by = (action: string) => audit.filter((a) => a.path === action).map((a) => (typeof a.request_body === 'string' ? JSON.parse(a.request_body) : a.request_body) as { actor: string });
    assert.ok(by('users create').some((b) => b.actor === 'console:ops@sangam.test'));
    assert.ok(by('pricing set').some((b) => b.actor === 'console:ops@sangam.test'));
    assert.ok(by('accounts limits').some((b) => b.actor === 'console:ops@sangam.test'));
  });

  it('admin input errors are 422s naming the field', async () => {
    const cases: Array<[string, string, unknown, string]> = [
      ['PUT', '/console/api/admin/pricing/signature-match', { fee: -1 }, 'fee'],
      ['PUT', '/console/api/admin/pricing/signature-match', { fee: 1.001 }, 'fee'],
      ['PUT', '/console/api/admin/pricing/no-such-op', { fee: 1 }, 'operation'],
      ['PUT', `/console/api/admin/accounts/${'x'}/limits`, { per_sec: 0, burst: null }, 'per_sec'],
      ['PUT', `/console/api/admin/accounts/${'x'}/limits`, { per_sec: 'many', burst: null }, 'per_sec'],
      ['POST', '/console/api/admin/users', { email: 'not-an-email', password: 'long enough 1', is_admin: false, account_id: null }, 'email'],
      ['POST', '/console/api/admin/users', { email: 'a@b.test', password: 'short', is_admin: false, account_id: null }, 'password'],
      ['POST', '/console/api/admin/users', { email: 'a@b.test', password: 'long enough 1', is_admin: 'yes', account_id: null }, 'is_admin'],
    ];
    for (const [method, url, body, field] of cases) {
      const r = await as(ops, method, url, body);
      assert.equal(r.status, 422, `${url} ${JSON.stringify(body)}: ${r.text}`);
      assert.deepEqual(fields(r), [field], r.text);
    }
    assert.equal((await as(ops, 'PUT', '/console/api/admin/accounts/acct_nope/limits', { per_sec: 5, burst: 5 })).status, 404);
    assert.equal((await as(ops, 'POST', '/console/api/admin/users', { email: 'a@b.test', password: 'long enough 1', is_admin: false, account_id: 'acct_0000000000000000' })).status, 404);
  });

  it('every admin route is 403 for a client user, checked on the server', async () => {
    const routes: Array<[string, string, unknown?]> = [
      ['GET', '/console/api/admin/users'],
      ['POST', '/console/api/admin/users', { email: 'x@y.test', password: 'long enough 1', is_admin: true, account_id: null }],
      ['GET', '/console/api/admin/pricing'],
      ['PUT', '/console/api/admin/pricing/signature-match', { fee: 0 }],
      ['GET', '/console/api/admin/limits'],
      ['PUT', `/console/api/admin/accounts/${t.accountId}/limits`, { per_sec: 1000, burst: 1000 }],
      ['GET', '/console/api/admin/accounts'],
    ];
    for (const [method, url, body] of routes) assert.equal((await as(dev, method, url, body)).status, 403, `${method} ${url}`);
    assert.equal((await t.store.db.selectFrom('console_users').select('id').where('email', '=', 'x@y.test').executeTakeFirst()), undefined);
  });
});
