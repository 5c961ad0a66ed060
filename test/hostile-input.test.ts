// Regression tests for the outside campaign's findings, each replaying the exact request: inputs that
// crashed the server or escaped the envelope, the audit trail's integrity whatever a client sends,
// environment isolation of the audit API, and identity numbers at rest (database dump and logs).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { sql } from 'kysely';
import fc from 'fast-check';
import { addEntry } from '../src/access/allowlist.js';
import { insertChained } from '../src/audit/chain.js';
import { verifyAudit } from '../src/audit/checkpoints.js';
import { createAccount, createKey } from '../src/accounts/store.js';
import { exportStream } from '../src/audit/export.js';
import { dumpTables, PATHS, startApp, uuid, VALID, type TestApp } from './harness.js';

const AUDIT = '/api/v1/audit-logs';
const WALLET = '/api/v1/account/wallet';

async function auditRowOf(t: TestApp, requestId: string) {
  return t.store.db.selectFrom('audit_logs').selectAll().where('request_id', '=', requestId).executeTakeFirst();
}

describe('hostile input: crashes, envelope and audit trail', () => {
  let t: TestApp;
  before(async () => (t = await startApp()));
  after(() => t.close());

  it('bad audit filters are a 422 naming the field, before any export starts; the server keeps serving', async () => {
    const cases: Array<[string, string]> = [
      ['q=%00', 'q'],
      ['reference_id=%00', 'reference_id'],
      ['operation=%00', 'operation'],
      ['from=2016-12-31T23:59:60Z', 'from'],
      ['from=0000-01-01T00:00:00Z', 'from'],
      ['to=2026-02-30T00:00:00Z', 'to'],
    ];
    for (const [query, field] of cases) {
      for (const path of [`${AUDIT}/export`, AUDIT]) {
        const r = await t.call('GET', `${path}?${query}`);
        assert.equal(r.status, 422, `${path}?${query}: ${r.text}`);
        assert.equal(r.body.data.errors[0].field, field);
        assert.ok(r.headers['x-request-id']);
      }
    }
    assert.equal((await t.call('GET', WALLET)).status, 200);
  });

  it('an error inside an export stream rejects that stream only', async () => {
    // Filters the HTTP layer would refuse, passed straight to the stream: the store fails mid-export.
    for (const format of ['csv', 'ndjson'] as const) {
      const s = exportStream(t.store.db, t.accountId, { q: '\u0000' }, format);
      await assert.rejects(async () => {
        for await (const _ of s) void _;
      });
    }
    assert.equal((await t.call('GET', WALLET)).status, 200);
  });

  it('a body of any JSON type keeps the audit chain verifiable', async () => {
    const x = await t.call('POST', PATHS.signature, { payload: '"x"', headers: { 'content-type': 'application/json' } });
    assert.equal(x.status, 422);
    assert.ok(await auditRowOf(t, String(x.headers['x-request-id'])));
    assert.deepEqual((await verifyAudit(t.store.db)).ok, true);
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 4 }), async (value) => {
        const r = await t.call('POST', PATHS.bank, { payload: JSON.stringify(value), headers: { 'content-type': 'application/json' } });
        assert.ok(r.status < 500, r.text);
      }),
      { numRuns: 60 },
    );
    const v = await verifyAudit(t.store.db);
    assert.equal(v.ok, true, JSON.stringify(v.first_broken));
  });

  it('NUL and unpaired surrogates anywhere are a 422 naming the field, and the request is still audited', async () => {
    const bodies: Array<[unknown, string]> = [
      [{ reference_id: 'r', consent: true, input: '\u0000' }, 'input'],
      [{ reference_id: 'r', consent: true, input: '\ud800' }, 'input'],
      [{ ...VALID.signature(), extra: { note: 'a\u0000b' } }, 'extra.note'],
      [{ ...VALID.signature(), extra: { 'k\u0000': 1 } }, 'extra'],
      [{ ...VALID.signature(), '\udc00': 1 }, 'body'],
    ];
    for (const [body, field] of bodies) {
      const r = await t.call('POST', PATHS.signature, { body });
      assert.equal(r.status, 422, r.text);
      assert.equal(r.body.data.errors[0].field, field);
      const row = await auditRowOf(t, String(r.headers['x-request-id']));
      assert.ok(row, 'the refused request has its audit row');
      assert.equal(row.http_status, 422);
    }
    const hook = await t.call('POST', '/api/v1/webhook-endpoints', { body: { url: 'https://example.com/\u0000hook' } });
    assert.equal(hook.status, 422);
    assert.equal(hook.body.data.errors[0].field, 'url');
    const byId = await t.call('GET', `${AUDIT}/%00`);
    assert.equal(byId.status, 422);
    assert.equal(byId.body.data.errors[0].field, 'request_id');
    assert.equal((await verifyAudit(t.store.db)).ok, true);
  });

  it('a body nested deeper than the documented limit is a 400, not a stack overflow', async () => {
    const deep = `{"reference_id":"r","consent":true,"input":"a","x":${'['.repeat(2400)}${']'.repeat(2400)}}`;
    const r = await t.call('POST', PATHS.signature, { payload: deep, headers: { 'content-type': 'application/json' } });
    assert.equal(r.status, 400, r.text);
    assert.equal(r.body.data.Errorcode, 103);
    assert.match(r.body.message, /deeper than 32 levels/);
  });

  it('an unknown method is a 405 with Allow, in the envelope, with no key needed', async () => {
    const r = await t.call('QUERY', WALLET, { key: null });
    assert.equal(r.status, 405, r.text);
    assert.equal(r.headers.allow, 'GET');
    assert.equal(r.body.data.Errorcode, 110);
    assert.ok(r.headers['x-request-id']);
  });

  it('router errors are answered in the envelope with the request id', async () => {
    const bad = await t.call('GET', '/api/v1/transactions/%ud800', { key: null });
    assert.equal(bad.status, 422, bad.text);
    assert.equal(bad.body.data.errors[0].field, 'path');
    assert.equal(bad.headers['x-request-id'], bad.body.data.request_id);
    const long = await t.call('GET', `/api/v1/transactions/${'a'.repeat(101)}%3Cscript%3E`, { key: null });
    assert.equal(long.status, 404, long.text);
    assert.equal(long.body.data.Errorcode, 109);
    assert.ok(long.headers['x-request-id']);
    assert.doesNotMatch(long.text, /script|aaaaaaaaaa/);
  });

  it('a router error (bad percent-encoding, over-long parameter) has its audit row, like any answer (fuzzer finding)', async () => {
    for (const [url, status] of [
      ['/api/v1/transactions/%E0%A4%A', 422],
      ['/api/v1/webhook-endpoints/%ud800/deliveries?limit=1', 422],
      [`/api/v1/audit-logs/${'a'.repeat(101)}`, 404],
    ] as const) {
      const r = await t.call('GET', url);
      assert.equal(r.status, status, r.text);
      const row = await auditRowOf(t, String(r.headers['x-request-id']));
      assert.ok(row, `${url}: no audit row`);
      assert.equal(row.http_status, status);
      assert.equal(row.ok, false);
      assert.equal(row.statuscode, 'ERR');
    }
    assert.equal((await verifyAudit(t.store.db)).ok, true);
  });

  it('a 422/107 (idempotency key reused with another payload) lists the field, as every 422 does (fuzzer finding)', async () => {
    const body = VALID.recharge();
    const key = uuid();
    assert.equal((await t.call('POST', PATHS.recharge, { body, headers: { 'idempotency-key': key } })).status, 200);
    const r = await t.call('POST', PATHS.recharge, { body: { ...body, amount: body.amount + 1 }, headers: { 'idempotency-key': key } });
    assert.equal(r.status, 422, r.text);
    assert.equal(r.body.data.Errorcode, 107);
    assert.deepEqual(r.body.data.errors.map((e: { field: string }) => e.field), ['idempotency_key']);
    const sig = VALID.signature(); // verification operations are keyed by reference_id
    assert.equal((await t.call('POST', PATHS.signature, { body: sig })).status, 200);
    const again = await t.call('POST', PATHS.signature, { body: { ...sig, name: 'Someone Else' } });
    assert.equal(again.status, 422, again.text);
    assert.deepEqual(again.body.data.errors.map((e: { field: string }) => e.field), ['reference_id']);
  });

  it('query amounts must be plain decimals: 0x10, " 100 " and 1e2 are 422 naming amount', async () => {
    const upi = (amount: string) =>
      t.call('GET', PATHS.upi, { query: { reference_id: `upi-${uuid().slice(0, 8)}`, consent: 'true', vpa: 'success@sandbox', amount, idempotency_key: uuid() } });
    for (const amount of ['0x10', ' 100 ', '1e2', '+100', '100.', '.5', 'Infinity', '0b11']) {
      const r = await upi(amount);
      assert.equal(r.status, 422, `${JSON.stringify(amount)}: ${r.text}`);
      assert.equal(r.body.data.errors[0].field, 'amount');
    }
    const ok = await upi('100.50');
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.body.data.amount, 100.5);
  });

  it('bodyless requests behave: DELETE with a JSON content type and no body; bodyless rotate-secret and replay', async () => {
    const created = await t.call('POST', '/api/v1/webhook-endpoints', { body: { url: 'https://example.com/hooks' } });
    const id = created.body.data.id as string;
    const rotate = await t.call('POST', `/api/v1/webhook-endpoints/${id}/rotate-secret`);
    assert.equal(rotate.status, 200, rotate.text);
    const rotateJson = await t.call('POST', `/api/v1/webhook-endpoints/${id}/rotate-secret`, { headers: { 'content-type': 'application/json' }, payload: '' });
    assert.equal(rotateJson.status, 200, rotateJson.text);
    const replay = await t.call('POST', `/api/v1/webhook-endpoints/${id}/replay`);
    assert.equal(replay.status, 422, replay.text); // the "event_id or since" rule still holds
    assert.equal(replay.body.data.errors[0].field, 'event_id');
    const del = await t.call('DELETE', `/api/v1/webhook-endpoints/${id}`, { headers: { 'content-type': 'application/json' }, payload: '' });
    assert.equal(del.status, 200, del.text);
    const empty = await t.call('POST', PATHS.signature, { headers: { 'content-type': 'application/json' }, payload: '' });
    assert.equal(empty.status, 400, 'an operation still needs its body');
  });

  // On PostgreSQL each request has its own connection; the embedded store has one, on this thread.
  it('an export does not hold up other tenants: their requests complete between its pages', { skip: process.env.DATABASE_URL ? 'embedded store only' : false }, async () => {
    const rows = Array.from({ length: 5000 }, (_, i) => ({
      request_id: `req_bulk${i}`, created_at: new Date(Date.now() - i * 1000), account_id: t.accountId, key_id: null, environment: 'sandbox' as const,
      client_ip: '127.0.0.1', method: 'GET', path: WALLET, operation: null, http_status: 200, ok: true, statuscode: 'TXN', reference_id: null,
      latency_ms: 1, request_body: null, response_body: JSON.stringify({ ok: true, message: 'Wallet' }),
    }));
    for (let i = 0; i < rows.length; i += 1000) await t.store.db.transaction().execute((trx) => insertChained(trx, rows.slice(i, i + 1000)));
    const other = await createKey(t.store.db, (await createAccount(t.store.db, 'Other tenant')).id, 'sandbox');
    let exported = false;
    const exporting = t.call('GET', `${AUDIT}/export?format=csv`).then((r) => ((exported = true), r));
    const finishedFirst: boolean[] = [];
    for (let i = 0; i < 3; i++) {
      assert.equal((await t.call('GET', WALLET, { key: other.key })).status, 200);
      finishedFirst.push(!exported);
    }
    const r = await exporting;
    assert.equal(r.status, 200);
    assert.ok(r.text.split('\n').length > 5000);
    assert.deepEqual(finishedFirst, [true, true, true]);
  });

  it('a successful export is audited as ok', async () => {
    const r = await t.call('GET', `${AUDIT}/export?format=ndjson`);
    assert.equal(r.status, 200);
    const row = await auditRowOf(t, String(r.headers['x-request-id']));
    assert.equal(row?.ok, true);
  });
});

describe('audit API: one environment cannot read the other', () => {
  let t: TestApp;
  before(async () => (t = await startApp()));
  after(() => t.close());

  it('a sandbox key lists, reads and exports no live rows, and a live key no sandbox rows', async () => {
    await addEntry(t.store.db, t.accountId, 'live', '127.0.0.1');
    const live = await t.call('GET', WALLET, { key: t.liveKey });
    const sandbox = await t.call('GET', WALLET);
    const liveId = String(live.headers['x-request-id']);
    const sandboxId = String(sandbox.headers['x-request-id']);
    for (const [key, own, other, env] of [
      [t.key, sandboxId, liveId, 'sandbox'],
      [t.liveKey, liveId, sandboxId, 'live'],
    ] as const) {
      const list = await t.call('GET', `${AUDIT}?limit=500`, { key });
      const ids = list.body.data.items.map((i: { request_id: string }) => i.request_id);
      assert.ok(ids.includes(own));
      assert.ok(!ids.includes(other));
      assert.ok(list.body.data.items.every((i: { environment: string }) => i.environment === env));
      assert.equal((await t.call('GET', `${AUDIT}/${other}`, { key })).status, 404);
      assert.equal((await t.call('GET', `${AUDIT}/${own}`, { key })).status, 200);
      const exported = (await t.call('GET', `${AUDIT}/export?format=ndjson`, { key })).text.trim().split('\n').map((l) => JSON.parse(l) as { request_id: string; environment: string });
      assert.ok(exported.some((r) => r.request_id === own) && !exported.some((r) => r.request_id === other));
      assert.ok(exported.every((r) => r.environment === env));
    }
  });
});

describe('identity numbers at rest: a hostile run leaves none in the database or the logs', () => {
  let t: TestApp;
  const lines: string[] = [];
  before(async () => (t = await startApp({ LOG_LEVEL: 'info' }, undefined, true, sinkInto(lines))));
  after(() => t.close());

  const AADHAAR = '234123412346';
  const MOBILE = '9876543210';
  const DEVANAGARI = '२३४१२३४१२३४६';
  const FULLWIDTH = '２３４１２３４１２３４６';

  it('finds 0 of the numbers it sent', async () => {
    const aadhaarForms = [AADHAAR, '2341 2341 2346', '2341-2341-2346', '2341.2341.2346', DEVANAGARI, FULLWIDTH, `uid:${AADHAAR}x`, ...CAMPAIGN_22];
    for (const a of aadhaarForms) {
      await t.call('POST', PATHS.aadhaar, { body: { ...VALID.aadhaar(), aadhaar_number: a } });
      await t.call('POST', PATHS.signature, { body: { ...VALID.signature(), note: `my aadhaar is ${a}`, [`k${a}`]: 1 } });
      await t.call('GET', `${WALLET}?aadhaar=${encodeURIComponent(a)}`);
      await t.call('GET', `${AUDIT}/${encodeURIComponent(a)}`);
    }
    await t.call('POST', PATHS.signature, { body: { ...VALID.signature(), n: 234123412346, f: 2341234123.46, e: 2.34123412346e11 } });
    for (const m of [MOBILE, '98765 43210', '98765-43210']) {
      await t.call('POST', PATHS.bank, { body: { ...VALID.bank(), mobile: m } });
      await t.call('GET', PATHS.upi, { query: { reference_id: `u-${uuid().slice(0, 6)}`, consent: 'true', vpa: `${m.replace(/\D/g, '')}@ybl`, amount: '10', idempotency_key: uuid(), phone: m } });
    }
    await t.services.audit.flush();

    // A dump of every table, row by row as text, on either store.
    const dump = await dumpTables(t.store.db);
    const logs = lines.join('');
    assert.ok(dump.length > 1000 && logs.length > 1000, 'the run left rows and log lines to scan');
    for (const [name, text] of [['database dump', dump], ['logs', logs]] as const) {
      const flat = normalize(text);
      assert.ok(!flat.includes(AADHAAR), `a full Aadhaar number reached the ${name}`);
      if (name === 'logs') assert.ok(!flat.includes(MOBILE), `a full mobile number reached the ${name}`);
    }
    const audit = normalize((await sql<{ row: string }>`select t::text as row from audit_logs t`.execute(t.store.db)).rows.map((r) => r.row).join('\n'));
    assert.ok(!audit.includes(MOBILE), 'a full mobile number reached the audit store');
  });

  // Issue #22, finding 3: every character that is neither a letter nor a digit, of every class, between
  // the digit groups (ASCII digits, and Devanagari ones for the spaces, dashes and format characters).
  for (const cat of ['Zs', 'Zl', 'Zp', 'Cc', 'Cf', 'Pd', 'Po', 'Pc', 'Ps', 'Pe', 'Pi', 'Pf', 'Sm', 'Sc', 'Sk', 'So', 'Mn', 'Me', 'Mc']) {
    it(`an Aadhaar number split by any character of class ${cat} keeps only its last 4 digits in the audit store`, async () => {
      const seps = category(cat);
      const forms = seps.map((c) => `2341${c}2341${c}2346`);
      if (['Zs', 'Zl', 'Zp', 'Cf', 'Pd'].includes(cat)) forms.push(...seps.map((c) => `${DEVANAGARI.slice(0, 4)}${c}${c}${DEVANAGARI.slice(4, 8)}${c}${DEVANAGARI.slice(8)}`));
      const ids: string[] = [];
      for (let i = 0; i < forms.length; i += 400) {
        const notes = Object.fromEntries(forms.slice(i, i + 400).map((f, j) => [`n${i + j}`, f]));
        const r = await t.call('POST', PATHS.signature, { body: { ...VALID.signature(), notes } });
        assert.equal(r.status, 200, r.text);
        ids.push(String(r.headers['x-request-id']));
      }
      await t.services.audit.flush();
      const rows = await t.store.db.selectFrom('audit_logs').select(['request_body']).where('request_id', 'in', ids).execute();
      assert.equal(rows.length, ids.length);
      const stored = rows.flatMap((r) => Object.values(((r.request_body as Record<string, unknown>).notes ?? {}) as Record<string, string>));
      assert.equal(stored.length, forms.length, 'every form was recorded');
      const whole = stored.filter((v) => normalize(v).includes(AADHAAR));
      assert.deepEqual(whole.map((v) => [...v].map((c) => c.codePointAt(0)!.toString(16)).join(' ')), [], `${whole.length} of ${forms.length} kept whole`);
      assert.ok(stored.every((v) => normalize(v).endsWith('2346')), 'the last 4 digits stay');
    });
  }

  it('timestamps (with a date, a time or a UTC offset), amounts and short numbers are not masked', async () => {
    const kept = {
      at: '2026-01-01T12:30:45.123Z',
      pg: '2026-01-01 12:30:45.123456+05:30',
      time: '12:30:45.123',
      price: '1,00,000.50',
      count: 12345678,
      amount: 100.5,
      ref_text: 'order 4521 of 2026-03-31',
    };
    const r = await t.call('POST', PATHS.signature, { body: { ...VALID.signature(), kept } });
    await t.services.audit.flush();
    const row = await auditRowOf(t, String(r.headers['x-request-id']));
    assert.deepEqual((row!.request_body as { kept: unknown }).kept, kept);
  });
});

// Decided with issue #22: an Aadhaar number a client puts in an idempotency key or a webhook URL is
// kept where it must be (the idempotency table matches the key; deliveries go to the URL), and masked
// where it reaches the audit store or the logs.
describe('an Aadhaar number inside an idempotency key or a webhook URL', () => {
  let t: TestApp;
  const lines: string[] = [];
  before(async () => (t = await startApp({ LOG_LEVEL: 'info', SANGAM_WEBHOOK_ALLOW_PRIVATE: '1' }, undefined, true, sinkInto(lines))));
  after(() => t.close());

  const AADHAAR = '234123412346';

  it('reaches neither the audit store nor the logs, and still works as a key and as a URL', async () => {
    const keys = [`kyc-${AADHAAR}`, 'kyc-2341-2341-2346', `${AADHAAR}`];
    for (const k of keys) {
      const body = { ...VALID.recharge(), idempotency_key: k };
      const first = await t.call('POST', PATHS.recharge, { body });
      assert.equal(first.status, 200, first.text);
      const again = await t.call('POST', PATHS.recharge, { body });
      assert.equal(again.headers['idempotent-replayed'], 'true', 'the key still replays');
      const header = { ...VALID.recharge() };
      assert.equal((await t.call('POST', PATHS.recharge, { body: header, headers: { 'idempotency-key': `h${k}` } })).status, 200);
    }
    const url = `https://hooks.example.com/kyc/${AADHAAR}/2341-2341-2346?uid=${AADHAAR}`;
    const hook = await t.call('POST', '/api/v1/webhook-endpoints', { body: { url } });
    assert.equal(hook.status, 200, hook.text);
    assert.equal(hook.body.data.url, url, 'the owner is answered its URL as given');
    const listed = await t.call('GET', '/api/v1/webhook-endpoints');
    assert.ok(listed.body.data.items.some((e: { url: string }) => e.url === url));
    await t.services.audit.flush();

    const audit = normalize((await sql<{ row: string }>`select t::text as row from audit_logs t`.execute(t.store.db)).rows.map((r) => r.row).join('\n'));
    assert.ok(audit.includes('2346'), 'the audit rows are there');
    assert.ok(!audit.includes(AADHAAR), 'a full Aadhaar number reached the audit store');
    assert.ok(!normalize(lines.join('')).includes(AADHAAR), 'a full Aadhaar number reached the logs');
  });

  it('other numbers in an idempotency key, and UUIDs, stay as given in the audit store', async () => {
    // This UUID's digits across its dashes (70 2675 4449 8962 8309098) hold a Verhoeff-valid run.
    for (const [path, k] of [[PATHS.recharge, 'order-123456789012'], [PATHS.upi, '70fbb862-2675-4449-8962-8309098be09f']] as const) {
      const body = path === PATHS.upi ? { ...VALID.upi(), idempotency_key: k } : { ...VALID.recharge(), idempotency_key: k };
      const r = await t.call('POST', path, { body });
      assert.equal(r.status, 200, r.text);
      await t.services.audit.flush();
      const row = await auditRowOf(t, String(r.headers['x-request-id']));
      assert.equal((row!.request_body as { idempotency_key: string }).idempotency_key, k);
    }
  });
});

/** A log stream that keeps its lines in `lines`. */
const sinkInto = (lines: string[]) =>
  new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });

/** The value of a Unicode decimal digit: its offset from the start of its run of digits, modulo 10 (they come in tens from 0). */
function digitValue(d: string): number {
  const cp = d.codePointAt(0)!;
  let zero = cp;
  while (/\p{Nd}/u.test(String.fromCodePoint(zero - 1))) zero--;
  return (cp - zero) % 10;
}

/** Numbers as a reader would see them: every decimal digit as ASCII, whatever is between two digits (not a letter or a digit) removed. */
const normalize = (s: string) => s.replace(/\p{Nd}/gu, (d) => String(digitValue(d))).replace(/(\d)[^\p{L}\p{N}]+(?=\d)/gu, '$1');

/** Issue #22, finding 3: separators the first redaction let through, each leaving a whole Aadhaar number. */
const CAMPAIGN_22 = [
  '2341 - 2341 - 2346',
  '2341  2341  2346',
  '2341\u20132341\u20132346', // en dash
  '2341\u20142341\u20142346', // em dash
  '2341\u00b72341\u00b72346', // middle dot
  '2341\u00a02341\u00a02346', // no-break space
  '2341\u202f2341\u202f2346', // narrow no-break space
  '2341\u200b2341\u200b2346', // zero-width space
  '\u0968\u0969\u096a\u0967 \u2013 \u0968\u0969\u096a\u0967 \u2013 \u0968\u0969\u096a\u096c', // Devanagari, en dash
];

/** Every code point of a Unicode general category (no surrogates, no NUL: the input guard refuses those). */
function category(name: string): string[] {
  const re = new RegExp(`^\\p{${name}}$`, 'u');
  const out: string[] = [];
  for (let cp = 1; cp < 0x110000; cp++) if ((cp < 0xd800 || cp > 0xdfff) && re.test(String.fromCodePoint(cp))) out.push(String.fromCodePoint(cp));
  return out;
}

describe("what Node's HTTP parser refuses is still answered in the envelope", () => {
  let t: TestApp;
  let port: number;
  before(async () => {
    t = await startApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as { port: number }).port;
  });
  after(() => t.close());

  /** Writes `request` and reads until the server closes (the client does not half-close first: a server may drop a half-closed socket before a slow answer). */
  const raw = (request: string) =>
    new Promise<string>((resolve, reject) => {
      const s = connect(port, '127.0.0.1', () => s.write(request));
      let out = '';
      s.on('data', (c) => (out += c.toString('latin1')));
      s.on('end', () => resolve(out));
      s.on('error', reject);
    });

  for (const [name, request, status] of [
    ['a NUL in a header', 'GET /api/v1/account/wallet HTTP/1.1\r\nHost: x\r\nX-A: a\u0000b\r\n\r\n', 400],
    ['Content-Length: -1', 'POST /api/v1/document-ocr/signature-match HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n', 400],
    ['a 20 KB header', `GET /api/v1/account/wallet HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
  ] as const) {
    it(name, async () => {
      const res = await raw(request);
      assert.match(res, new RegExp(`^HTTP/1.1 ${status} `));
      assert.match(res, /\r\nX-Request-Id: req_[0-9A-Za-z]{20}\r\n/);
      const body = JSON.parse(res.slice(res.indexOf('\r\n\r\n') + 4));
      assert.equal(body.statuscode, 'ERR');
      assert.equal(body.data.Errorcode, 103);
    });
  }

  // Issue #22, finding 7: an Expect header other than 100-continue got Node's bare 417 (no envelope,
  // no X-Request-Id, no audit row). It is now a 417 in the envelope, audited, before any key check.
  for (const [name, request] of [
    ['Expect: foo on a GET', `GET /api/v1/account/wallet HTTP/1.1\r\nHost: x\r\nExpect: foo\r\nConnection: close\r\n\r\n`],
    ['Expect: 200-ok with a key and a body', `POST /api/v1/document-ocr/signature-match HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer KEY\r\nContent-Type: application/json\r\nExpect: 200-ok\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`],
    ['an empty Expect', `GET /api/v1/account/wallet HTTP/1.1\r\nHost: x\r\nExpect: \r\nConnection: close\r\n\r\n`],
  ] as const) {
    it(`${name}: 417 in the envelope, with X-Request-Id and an audit row`, async () => {
      const res = await raw(request.replace('KEY', t.key));
      assert.match(res, /^HTTP\/1.1 417 /);
      const id = /\r\nx-request-id: (req_[0-9A-Za-z]{20})\r\n/i.exec(res)?.[1];
      assert.ok(id, res);
      const body = JSON.parse(res.slice(res.indexOf('\r\n\r\n') + 4));
      assert.equal(body.statuscode, 'ERR');
      assert.equal(body.ok, false);
      assert.equal(body.data.Errorcode, 103);
      assert.equal(body.data.request_id, id);
      assert.match(body.message, /Expect/);
      await t.services.audit.flush();
      const row = await auditRowOf(t, id);
      assert.equal(row?.http_status, 417);
      assert.equal(row?.ok, false);
    });
  }

  it('Expect: 100-continue still gets its 100 Continue and the answer', async () => {
    const res = await raw(`GET /api/v1/account/wallet HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${t.key}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`);
    assert.match(res, /^HTTP\/1.1 100 Continue\r\n\r\nHTTP\/1.1 200 /);
  });

  it('an injected request with Expect: foo gets the same 417 (the hook, not only the server, judges it)', async () => {
    const r = await t.call('GET', '/api/v1/account/wallet', { headers: { expect: 'foo' } });
    assert.equal(r.status, 417, r.text);
    assert.equal(r.body.data.Errorcode, 103);
    assert.equal(r.body.data.request_id, r.headers['x-request-id']);
  });
});
