// The shared security suite (after Unkey's common route tests): every authenticated route refuses a
// missing, garbage, revoked or expired key, and no route shows one account's or one environment's
// data to another. New routes must be added to ROUTES; a test fails if one is missing. Handles that
// travel outside the API (a document-locker client id passes through the end user's browser) are
// probed too: holding one must not let another account or environment use it.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createAccount, createKey, revokeKey } from '../src/accounts/store.js';
import { approve } from '../src/access/approvals.js';
import { OPERATION_SLUGS } from '../src/operations/registry.js';
import { addEntry } from '../src/access/allowlist.js';
import { runCommand } from '../src/admin/run.js';
import { OPERATIONS } from '../src/operations/registry.js';
import { eventually, PATHS, ROUTES, startApp, VALID, type TestApp } from './harness.js';
import { liveReads, startLive, type LiveApp } from './live-harness.js';

/** What a sandbox key reads at GET /account/wallet unless the operator opted its account in (CONTRACT §8). */
const SIMULATED = { balance: 1_000_000, held: 0, currency: 'INR', simulated: true };

describe('security: every authenticated route', () => {
  let t: TestApp;
  let revoked: string;
  let expired: string;
  before(async () => {
    t = await startApp();
    const r = await createKey(t.store.db, t.accountId, 'sandbox');
    await revokeKey(t.store.db, r.id);
    revoked = r.key;
    const e = await createKey(t.store.db, t.accountId, 'sandbox');
    await t.store.db.updateTable('api_keys').set({ expires_at: new Date(Date.now() - 1) }).where('id', '=', e.id).execute();
    expired = e.key;
  });
  after(() => t.close());

  it('the list covers every /api/v1 route the API documents', async () => {
    const doc = (await t.call('GET', '/openapi.json', { key: null })).body;
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
      .filter(([p]) => p.startsWith('/api/v1/'))
      .flatMap(([p, ms]) => Object.keys(ms).map((m) => `${m.toUpperCase()} ${p}`));
    const covered = new Set(ROUTES.map((r) => `${r.method} ${r.path}`));
    for (const d of documented) assert.ok(covered.has(d), `not covered by the security suite: ${d}`);
  });

  it('the public routes are public: they answer without a key, and the document asks for none', async () => {
    const doc = (await t.call('GET', '/openapi.json', { key: null })).body;
    const open = Object.entries(doc.paths as Record<string, Record<string, { security?: unknown[] }>>)
      .flatMap(([p, ms]) => Object.entries(ms).filter(([, op]) => Array.isArray(op.security) && op.security.length === 0).map(([m]) => `${m.toUpperCase()} ${p}`))
      .filter((r) => r.includes(' /api/v1/'));
    assert.deepEqual(open.sort(), ROUTES.filter((r) => r.public).map((r) => `${r.method} ${r.path}`).sort());
    for (const route of ROUTES.filter((r) => r.public)) {
      for (const key of [null, 'definitely-not-a-key', revoked]) {
        const r = await t.call(route.method, route.path, { key });
        assert.equal(r.status, 200, r.text);
        assert.equal(r.body.ok, true);
      }
    }
  });

  for (const route of ROUTES.filter((r) => !r.public)) {
    const url = route.path.replace('{reference_id}', 'some-ref').replace('{id}', route.path.includes('batches') ? 'bat_AAAAAAAAAAAAAAAAAAAA' : 'we_AAAAAAAAAAAAAAAAAAAA').replace('{request_id}', 'req_AAAAAAAAAAAAAAAAAAAA');
    for (const [name, key, pattern] of [
      ['no key', null, /missing/i],
      ['garbage key', 'definitely-not-a-key', /invalid/i],
      ['unknown key', `sk_live_${'Z'.repeat(40)}`, /no such key/],
      ['revoked key', 'REVOKED', /revoked/],
      ['expired key', 'EXPIRED', /expired/],
    ] as const) {
      it(`${route.method} ${route.path}: ${name} → 401`, async () => {
        const k = key === 'REVOKED' ? revoked : key === 'EXPIRED' ? expired : key;
        const r = await t.call(route.method, url, { key: k, body: route.body?.() });
        assert.equal(r.status, 401, r.text);
        assert.equal(r.body.data.Errorcode, 101);
        assert.match(r.body.message, pattern);
      });
    }
  }
});

describe('security: isolation between accounts and environments', () => {
  let t: TestApp;
  before(async () => (t = await startApp()));
  after(() => t.close());

  it("another account's transaction is a 404, not a 403", async () => {
    const body = VALID.upi();
    assert.equal((await t.call('POST', PATHS.upi, { body })).status, 200);
    const other = await createKey(t.store.db, (await createAccount(t.store.db, 'Other')).id, 'sandbox');
    const r = await t.call('GET', `/api/v1/transactions/${body.reference_id}`, { key: other.key });
    assert.equal(r.status, 404);
    assert.equal(r.body.data.Errorcode, 109);
  });

  it('a sandbox transaction is invisible to the live key of the same account', async () => {
    const body = VALID.signature();
    await t.call('POST', PATHS.signature, { body });
    const { addEntry } = await import('../src/access/allowlist.js');
    await addEntry(t.store.db, t.accountId, 'live', '127.0.0.1');
    const r = await t.call('GET', `/api/v1/transactions/${body.reference_id}`, { key: t.liveKey });
    assert.equal(r.status, 404);
  });

  it('idempotency keys do not cross accounts', async () => {
    const body = VALID.upi();
    await t.call('POST', PATHS.upi, { body });
    const other = await createKey(t.store.db, (await createAccount(t.store.db, 'Third')).id, 'sandbox');
    const r = await t.call('POST', PATHS.upi, { body, key: other.key });
    assert.equal(r.status, 200);
    assert.equal(r.headers['idempotent-replayed'], undefined);
  });

  it("another account's webhook endpoint is a 404 on every verb", async () => {
    const mine = await t.call('POST', '/api/v1/webhook-endpoints', { body: { url: 'https://example.com/hooks' } });
    assert.equal(mine.status, 200, mine.text);
    const other = await createKey(t.store.db, (await createAccount(t.store.db, 'Snoop')).id, 'sandbox');
    const id = mine.body.data.id;
    for (const [m, p, body] of [
      ['DELETE', `/api/v1/webhook-endpoints/${id}`, undefined],
      ['POST', `/api/v1/webhook-endpoints/${id}/rotate-secret`, {}],
      ['GET', `/api/v1/webhook-endpoints/${id}/deliveries`, undefined],
      ['POST', `/api/v1/webhook-endpoints/${id}/replay`, { since: '2026-01-01T00:00:00Z' }],
    ] as const) {
      assert.equal((await t.call(m, p, { key: other.key, body })).status, 404, `${m} ${p}`);
    }
    assert.equal((await t.call('GET', '/api/v1/webhook-endpoints', { key: other.key })).body.data.items.length, 0);
  });

  describe("a document-locker client id is its initializer's alone", () => {
    let other: string;
    let id: string;
    let consentPath: string;
    before(async () => {
      other = (await createKey(t.store.db, (await createAccount(t.store.db, 'Tenant B')).id, 'sandbox')).key;
      const { addEntry } = await import('../src/access/allowlist.js');
      await addEntry(t.store.db, t.accountId, 'live', '127.0.0.1');
      await approve(t.store.db, t.accountId, OPERATION_SLUGS);
      const init = await t.call('POST', PATHS.init, { body: VALID.init() });
      assert.equal(init.status, 200, init.text);
      id = init.body.data.doclocker__client__id;
      consentPath = new URL(init.body.data.authorization_url).pathname;
    });

    /** A download that must be the 404 of an id issued by nobody, leaving no transaction behind. */
    const refused = async (key: string) => {
      const body = { ...VALID.aadhaar(), doclocker__client__id: id };
      const r = await t.call('POST', PATHS.aadhaar, { key, body });
      assert.equal(r.status, 404, r.text);
      assert.equal(r.body.ok, false);
      assert.equal(r.body.data.Errorcode, 109);
      assert.doesNotMatch(r.text, /consent|pending|authori[sz]ed|Aadhaar_Xml_Data/i);
      const rows = await t.store.db.selectFrom('transactions').select('id').where('reference_id', '=', body.reference_id).execute();
      assert.equal(rows.length, 0, 'a refused download records nothing');
    };

    it("another account's key: 404 while consent is pending and after the user allowed", async () => {
      await refused(other);
      assert.equal((await t.call('POST', `${consentPath}/allow`, { key: null })).status, 200);
      await refused(other);
      const mine = await t.call('POST', PATHS.aadhaar, { body: { ...VALID.aadhaar(), doclocker__client__id: id } });
      assert.equal(mine.body.data.status, 'success', mine.text);
    });

    it("the same account's key of the other environment: 404", async () => {
      await refused(t.liveKey);
    });

    it('a sandbox id issued by nobody stays accepted (synthetic data, CONTRACT §3)', async () => {
      const r = await t.call('POST', PATHS.aadhaar, { key: other, body: VALID.aadhaar() });
      assert.equal(r.body.data.status, 'success', r.text);
    });
  });

  it('the wallet read is the caller’s own', async () => {
    const a = await createAccount(t.store.db, 'Rich');
    const { topUp } = await import('../src/ledger/ledger.js');
    await topUp(t.store.db, a.id, 12_345, null);
    const k = await createKey(t.store.db, a.id, 'live');
    await addEntry(t.store.db, a.id, 'live', '127.0.0.1');
    await addEntry(t.store.db, t.accountId, 'live', '127.0.0.1');
    assert.equal((await t.call('GET', '/api/v1/account/wallet', { key: k.key })).body.data.balance, 123.45);
    assert.equal((await t.call('GET', '/api/v1/account/wallet', { key: t.liveKey })).body.data.balance, 0);
  });
});

// Issue #22, finding 2: a sandbox key read the live statement (every live debit, with its reference)
// and the live wallet. Every route that reads the account's money or money records is probed here
// from the other environment and from another account, after real live money moved (a top-up and a
// live payment through the partner simulator). A live key reads the account's one wallet; a sandbox
// key a simulated one that no live movement changes (CONTRACT §8, [firm]), unless the operator opted
// the account in to the live one; everything that lists live money (statement, transactions, audit rows, webhook deliveries) is the live key's alone. The console
// belongs to the account's people, not to an environment: it shows the account's money, and only
// its own account's.
describe('security: what reads money, across environments and accounts', () => {
  let t: LiveApp;
  let payment: { reference_id: string; txn_id: string; request_id: string };
  let other: { sandbox: string; live: string; accountId: string };
  let liveEndpoint: string;
  let liveBatch: string;
  const { final } = liveReads(() => t);

  before(async () => {
    t = await startLive({ SANGAM_WEBHOOK_ALLOW_PRIVATE: '1' }, 5_000);
    const body = { ...VALID.upi(), amount: 250 };
    const r = await t.call('POST', PATHS.upi, { key: t.liveKey, body });
    assert.equal(r.status, 200, r.text);
    const done = await final(body.reference_id);
    assert.equal(done.body.data.status, 'success', done.text);
    payment = { reference_id: body.reference_id, txn_id: done.body.data.txn_id, request_id: String(r.headers['x-request-id']) };
    const hook = await t.call('POST', '/api/v1/webhook-endpoints', { key: t.liveKey, body: { url: 'https://hooks.example.com/live' } });
    assert.equal(hook.status, 200, hook.text);
    liveEndpoint = hook.body.data.id;
    const batch = await t.call('POST', '/api/v1/batches', { key: t.liveKey, body: { operation: 'upi-payment-status', items: [{ ...VALID.upi(), amount: 5 }] } });
    assert.equal(batch.status, 200, batch.text);
    liveBatch = batch.body.data.id;
    // The batch's payment settles in the background and moves `held`: the probes read a settled wallet.
    await eventually(async () => (await t.call('GET', `/api/v1/batches/${liveBatch}`, { key: t.liveKey })).body.data.status === 'completed', 30_000);
    const b = await createAccount(t.store.db, 'Snoop');
    await addEntry(t.store.db, b.id, 'live', '127.0.0.1');
    other = { accountId: b.id, sandbox: (await createKey(t.store.db, b.id, 'sandbox')).key, live: (await createKey(t.store.db, b.id, 'live')).key };
    await t.services.audit.flush();
  });
  after(() => t.close());

  const get = (path: string, key: string) => t.call('GET', path, { key });

  /** One probe per money reader of ROUTES, keyed `METHOD path`. */
  const PROBES: Record<string, () => Promise<void>> = {
    'GET /api/v1/account/wallet': async () => {
      const live = (await get('/api/v1/account/wallet', t.liveKey)).body.data;
      assert.ok(live.balance < 5_000, 'the live payment was debited');
      const sandbox = await get('/api/v1/account/wallet', t.key);
      assert.deepEqual(sandbox.body.data, SIMULATED, 'CONTRACT §8: a sandbox key learns nothing of live money');
      assert.equal((await t.call('POST', PATHS.upi, { body: VALID.upi() })).status, 200);
      assert.deepEqual((await get('/api/v1/account/wallet', t.liveKey)).body.data, live, 'a sandbox payment moves nothing');
      assert.deepEqual((await get('/api/v1/account/wallet', t.key)).body.data, SIMULATED);
      assert.deepEqual((await get('/api/v1/account/wallet', other.live)).body.data, { balance: 0, held: 0, currency: 'INR' });
      assert.deepEqual((await get('/api/v1/account/wallet', other.sandbox)).body.data, SIMULATED);
    },
    'GET /api/v1/account/statement': async () => {
      const live = (await get('/api/v1/account/statement?limit=500', t.liveKey)).body.data.items as Array<{ kind: string; txn_id: string | null }>;
      assert.ok(live.some((e) => e.txn_id === payment.txn_id), 'the live key sees the live debit');
      assert.ok(live.some((e) => e.kind === 'topup'));
      const sandbox = await get('/api/v1/account/statement?limit=500', t.key);
      assert.equal(sandbox.status, 200);
      assert.deepEqual(sandbox.body.data, { items: [], next_cursor: null });
      assert.match(sandbox.body.message, /sandbox/i);
      assert.ok(!sandbox.text.includes(payment.txn_id));
      assert.equal((await get('/api/v1/account/statement?cursor=999999999999999999', t.key)).status, 422, 'the cursor is still checked');
      for (const k of [other.sandbox, other.live]) assert.deepEqual((await get('/api/v1/account/statement', k)).body.data.items, []);
    },
    'GET /api/v1/transactions/{reference_id}': async () => {
      assert.equal((await get(`/api/v1/transactions/${payment.reference_id}`, t.liveKey)).status, 200);
      for (const k of [t.key, other.sandbox, other.live]) {
        const r = await get(`/api/v1/transactions/${payment.reference_id}`, k);
        assert.equal(r.status, 404, r.text);
        assert.ok(!r.text.includes(payment.txn_id));
      }
    },
    // (Rows are compared by request id: the probes' own rows name the payment's reference in their paths.)
    'GET /api/v1/audit-logs': async () => {
      const ids = async (k: string) => ((await get('/api/v1/audit-logs?limit=500', k)).body.data.items as Array<{ request_id: string }>).map((i) => i.request_id);
      assert.ok((await ids(t.liveKey)).includes(payment.request_id));
      for (const k of [t.key, other.sandbox, other.live]) assert.ok(!(await ids(k)).includes(payment.request_id), 'no row of the live payment');
      assert.equal((await get('/api/v1/audit-logs?environment=live', t.key)).status, 422);
    },
    'GET /api/v1/audit-logs/export': async () => {
      const ids = async (k: string) => (await get('/api/v1/audit-logs/export?format=ndjson', k)).text.trim().split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { request_id: string }).request_id);
      assert.ok((await ids(t.liveKey)).includes(payment.request_id));
      for (const k of [t.key, other.sandbox, other.live]) assert.ok(!(await ids(k)).includes(payment.request_id));
    },
    'GET /api/v1/audit-logs/{request_id}': async () => {
      assert.equal((await get(`/api/v1/audit-logs/${payment.request_id}`, t.liveKey)).status, 200);
      for (const k of [t.key, other.sandbox, other.live]) assert.equal((await get(`/api/v1/audit-logs/${payment.request_id}`, k)).status, 404);
    },
    'GET /api/v1/webhook-endpoints/{id}/deliveries': async () => {
      assert.equal((await get(`/api/v1/webhook-endpoints/${liveEndpoint}/deliveries`, t.liveKey)).status, 200);
      for (const k of [t.key, other.sandbox, other.live]) {
        assert.equal((await get(`/api/v1/webhook-endpoints/${liveEndpoint}/deliveries`, k)).status, 404);
        assert.ok(!(await get('/api/v1/webhook-endpoints', k)).text.includes(liveEndpoint));
      }
    },
    'GET /api/v1/batches/{id}': () => batchProbe(''),
    'GET /api/v1/batches/{id}/items': () => batchProbe('/items'),
    'GET /api/v1/batches/{id}/results': () => batchProbe('/results?format=ndjson'),
  };

  /** A live batch (a payment) is its live key's alone. */
  async function batchProbe(tail: string): Promise<void> {
    assert.equal((await get(`/api/v1/batches/${liveBatch}${tail}`, t.liveKey)).status, 200);
    for (const k of [t.key, other.sandbox, other.live]) {
      const r = await get(`/api/v1/batches/${liveBatch}${tail}`, k);
      assert.equal(r.status, 404, r.text);
      assert.ok(!r.text.includes('upi-payment-status'));
    }
  }

  /** GET routes whose answer declares money fields but reads no account's money: partner catalog data. */
  const CATALOG = new Set(['GET /api/v1/mobile-recharge/plans', 'GET /api/v1/dth/subscriber-info']);

  it('probes every route that reads money: each marked in ROUTES, and each documented GET that answers money fields', async () => {
    const doc = (await t.call('GET', '/openapi.json', { key: null })).body;
    const MONEY = /^(balance|held|amount|fee|commission|balance_after)$/;
    const declaresMoney = (s: unknown): boolean => {
      if (!s || typeof s !== 'object') return false;
      const o = s as Record<string, unknown>;
      if (typeof o.$ref === 'string') return declaresMoney(doc.components.schemas[o.$ref.split('/').pop()!]);
      if (o.properties && Object.keys(o.properties).some((k) => MONEY.test(k))) return true;
      return Object.values(o).some(declaresMoney);
    };
    const operations = new Set(OPERATIONS.map((o) => o.path));
    const answering = Object.entries(doc.paths as Record<string, Record<string, { responses?: Record<string, unknown> }>>).flatMap(([p, item]) =>
      item.get && !operations.has(p) && declaresMoney(item.get.responses?.['200']) ? [`GET ${p}`] : [],
    );
    const marked = ROUTES.filter((r) => r.money).map((r) => `${r.method} ${r.path}`);
    for (const r of [...marked, ...answering.filter((r) => !CATALOG.has(r))]) assert.ok(PROBES[r], `no cross-environment probe for ${r}`);
  });

  for (const route of ROUTES.filter((r) => r.money)) {
    const name = `${route.method} ${route.path}`;
    it(`${name}: the sandbox key and another account's keys see none of the live money`, async () => PROBES[name]!());
  }

  it("the console shows its own account's money, and only its own", async () => {
    const login = async (email: string, account: string) => {
      assert.equal((await runCommand(t.store.db, ['users', 'create', '--email', email, '--password', 'long enough pw', '--account', account])).code, 0);
      const r = await t.app.inject({ method: 'POST', url: '/console/api/login', payload: { email, password: 'long enough pw' } });
      const cookie = String(r.headers['set-cookie']).split(';')[0]!;
      return (url: string) => t.app.inject({ method: 'GET', url, headers: { cookie } }).then((x) => JSON.parse(x.body));
    };
    const mine = await login('owner@a.test', t.accountId);
    const theirs = await login('snoop@b.test', other.accountId);
    const live = (await get('/api/v1/account/wallet', t.liveKey)).body.data;
    assert.deepEqual((await mine('/console/api/overview')).data.wallet, live);
    assert.ok(JSON.stringify((await mine('/console/api/statement')).data).includes(payment.txn_id));
    assert.deepEqual((await theirs('/console/api/overview')).data.wallet, { balance: 0, held: 0, currency: 'INR' });
    assert.ok(!JSON.stringify(await theirs('/console/api/statement')).includes(payment.txn_id));
    const logs = (await theirs('/console/api/logs?limit=200')).data.items as Array<{ request_id: string }>;
    assert.ok(logs.length > 0 && !logs.some((i) => i.request_id === payment.request_id));
    assert.equal((await theirs('/console/api/admin/accounts')).data.Errorcode, 102, 'the all-accounts wallet list is for admins');
  });
});

describe("security: the sandbox wallet (simulated by default; the operator's opt-in per account)", () => {
  let t: TestApp;
  before(async () => (t = await startApp()));
  after(() => t.close());

  it('a sandbox key reads a fixed simulated wallet, whatever the live wallet does; the live key reads the live one', async () => {
    const { topUp } = await import('../src/ledger/ledger.js');
    await addEntry(t.store.db, t.accountId, 'live', '127.0.0.1');
    const simulated = SIMULATED;
    const sandbox = await t.call('GET', '/api/v1/account/wallet');
    assert.deepEqual(sandbox.body.data, simulated);
    assert.match(sandbox.body.message, /simulated/);
    await topUp(t.store.db, t.accountId, 12_345, 'live money');
    assert.deepEqual((await t.call('GET', '/api/v1/account/wallet', { key: t.liveKey })).body.data, { balance: 123.45, held: 0, currency: 'INR' });
    assert.equal((await t.call('POST', PATHS.upi, { body: VALID.upi() })).status, 200);
    assert.deepEqual((await t.call('GET', '/api/v1/account/wallet')).body.data, simulated, 'unchanged by live money and by sandbox calls');
    assert.deepEqual((await t.call('GET', '/api/v1/account/statement')).body.data, { items: [], next_cursor: null });
    assert.equal((await t.call('GET', '/api/v1/account/statement', { key: t.liveKey })).body.data.items.length, 1);
  });

  it("an operator opts one account in to showing its sandbox keys the live wallet (CLI and console), audited; other accounts stay simulated; opting out restores the simulated wallet", async () => {
    const { topUp } = await import('../src/ledger/ledger.js');
    const other = await createAccount(t.store.db, 'Other');
    const otherKey = (await createKey(t.store.db, other.id, 'sandbox')).key;
    await topUp(t.store.db, other.id, 500, null);
    const shown = await runCommand(t.store.db, ['accounts', 'sandbox-wallet', '--account', t.accountId]);
    assert.deepEqual(shown.output, { account: t.accountId, sandbox_wallet: 'simulated' }, 'off by default');
    const on = await runCommand(t.store.db, ['accounts', 'sandbox-wallet', '--account', t.accountId, '--show', 'live']);
    assert.equal(on.code, 0, JSON.stringify(on.output));
    const live = (await t.call('GET', '/api/v1/account/wallet', { key: t.liveKey })).body.data;
    assert.equal(live.simulated, undefined);
    assert.deepEqual((await t.call('GET', '/api/v1/account/wallet')).body.data, live, 'opted in: the sandbox key reads the live wallet');
    assert.deepEqual((await t.call('GET', '/api/v1/account/wallet', { key: otherKey })).body.data, SIMULATED, 'the setting is per account');
    assert.equal((await runCommand(t.store.db, ['accounts', 'sandbox-wallet', '--account', t.accountId, '--show', 'maybe'])).code, 2);
    assert.equal((await runCommand(t.store.db, ['accounts', 'sandbox-wallet', '--account', 'acct_nope', '--show', 'live'])).code, 1);
    // The console's admin area sets it too (an admin console user).
    await runCommand(t.store.db, ['users', 'create', '--email', 'ops@example.com', '--password', 'correct horse battery', '--admin']);
    const login = await t.app.inject({ method: 'POST', url: '/console/api/login', payload: { email: 'ops@example.com', password: 'correct horse battery' } });
    assert.equal(login.statusCode, 200, login.body);
    const headers = { cookie: String(login.headers['set-cookie']).split(';')[0]!, 'x-csrf-token': (JSON.parse(login.body) as { data: { csrf_token: string } }).data.csrf_token };
    const admin = async (method: 'GET' | 'POST', url: string, payload?: object) => {
      const r = await t.app.inject({ method, url, payload, headers });
      return { status: r.statusCode, text: r.body, body: JSON.parse(r.body) };
    };
    const off = await admin('POST', `/console/api/admin/accounts/${t.accountId}/sandbox-wallet`, { sandbox_wallet: 'simulated' });
    assert.equal(off.status, 200, off.text);
    assert.deepEqual(off.body.data, { account: t.accountId, sandbox_wallet: 'simulated' });
    assert.deepEqual((await t.call('GET', '/api/v1/account/wallet')).body.data, SIMULATED);
    assert.equal((await admin('POST', `/console/api/admin/accounts/${t.accountId}/sandbox-wallet`, { sandbox_wallet: 'yes' })).status, 422);
    const list = await admin('GET', '/console/api/admin/accounts');
    assert.equal(list.body.data.items.find((a: { id: string }) => a.id === t.accountId).sandbox_wallet, 'simulated');
    await t.services.audit.flush();
    const rows = await t.store.db.selectFrom('audit_logs').select(['request_body']).where('path', '=', 'accounts sandbox-wallet').orderBy('id').execute();
    assert.deepEqual(rows.map((r) => (typeof r.request_body === 'string' ? JSON.parse(r.request_body) : r.request_body)), [
      { sandbox_wallet: 'live', actor: 'cli' },
      { sandbox_wallet: 'simulated', actor: 'console:ops@example.com' },
    ]);
  });
});
