// Identity numbers at rest in batches (issue #37 item 4), through the HTTP surface and the CLI: a batch
// row of an identity operation keeps a whole Aadhaar number only while it still has to run — once
// final, the retention sweep replaces its stored input by the redacted form and masks any whole number
// in its answer, which stays readable; past the identity retention (`sangam audit purge
// --identity-days N`) its content is erased, the money facts kept. A console upload's file name reaches
// the audit store redacted.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { runCommand } from '../src/admin/run.js';
import { verhoeffValid } from '../src/contract/verhoeff.js';
import { eventually, startApp, VALID, type TestApp } from './harness.js';

const AADHAAR = '234123412346';

/** Every run of 12 digits (first 2-9, Verhoeff-valid) or 16 (Verhoeff-valid) in `text`: whole Aadhaar numbers and VIDs. */
const wholeNumbers = (text: string) =>
  [...text.matchAll(/\d{12,}/g)].flatMap(([run]) => {
    const found: string[] = [];
    for (let i = 0; i + 12 <= run.length; i++) {
      if (run[i]! >= '2' && verhoeffValid(run.slice(i, i + 12))) found.push(run.slice(i, i + 12));
      if (i + 16 <= run.length && verhoeffValid(run.slice(i, i + 16))) found.push(run.slice(i, i + 16));
    }
    return found;
  });

describe('batches: identity numbers at rest', () => {
  let t: TestApp;
  before(async () => (t = await startApp({ SANGAM_BATCH_POLL_MS: '50', SANGAM_BATCH_IDENTITY_SWEEP_MS: '100' })));
  after(() => t.close());

  const stored = async (batchId: string) =>
    (await sql<{ row_no: number; status: string; input: string | null; result: string | null }>`
      SELECT row_no, status, input::text AS input, result::text AS result FROM batch_items WHERE batch_id = ${batchId} ORDER BY row_no`.execute(t.store.db)).rows;

  async function aadhaarBatch() {
    const items = [VALID.aadhaar(), VALID.aadhaar(), { ...VALID.aadhaar(), aadhaar_number: AADHAAR }];
    const r = await t.call('POST', '/api/v1/batches', { body: { operation: 'doclocker-download-aadhaar', items } });
    assert.equal(r.status, 200, r.text);
    const id = r.body.data.id as string;
    await eventually(async () => (await t.call('GET', `/api/v1/batches/${id}`)).body.data.status === 'completed', 20_000);
    return { id, refs: items.map((i) => i.reference_id) };
  }

  it('once a row is final, the sweep leaves no whole Aadhaar number in batch_items; the results stay readable', async () => {
    const { id, refs } = await aadhaarBatch();
    await eventually(async () => (await stored(id)).every((r) => r.input !== null && wholeNumbers(`${r.input} ${r.result}`).length === 0), 10_000);
    const rows = await stored(id);
    assert.ok(!rows.some((r) => `${r.input}${r.result}`.includes(AADHAAR)));
    const input = JSON.parse(rows[0]!.input!) as Record<string, unknown>;
    assert.deepEqual([input.aadhaar_number, input.reference_id, input.doclocker__client__id], ['XXXXXXXX2346', refs[0], 'client-12345678'], 'masked, the references kept');
    const batch = (await sql<{ identity_redacted_through: number }>`SELECT identity_redacted_through FROM batches WHERE id = ${id}`.execute(t.store.db)).rows[0]!;
    assert.equal(batch.identity_redacted_through, 3);

    const items = await t.call('GET', `/api/v1/batches/${id}/items`);
    assert.equal(items.status, 200, items.text);
    const got = items.body.data.items as Array<{ row: number; reference_id: string; status: string; result: Record<string, unknown> }>;
    assert.deepEqual(got.map((i) => [i.row, i.reference_id]), refs.map((r, i) => [i + 1, r]));
    assert.ok(got.every((i) => i.status === 'success' && i.result.status === 'success' && /2346$/.test(String(i.result.Masked_Aadhaar ?? '2346'))), items.text);
    const csv = await t.call('GET', `/api/v1/batches/${id}/results?format=csv`);
    assert.equal(csv.status, 200);
    assert.equal(wholeNumbers(csv.text).length, 0);
    // The operation's own record is the transaction's (erased by POST /api/v1/erasures): still found by its reference.
    assert.equal((await t.call('GET', `/api/v1/transactions/${refs[2]}`)).body.data.status, 'success');
  });

  it('past the identity retention (audit purge --identity-days), a row keeps its money facts only', async () => {
    const { id, refs } = await aadhaarBatch();
    const purged = await runCommand(t.store.db, ['audit', 'purge', '--identity-days', '0']);
    assert.equal(purged.code, 0, JSON.stringify(purged.output));
    assert.ok((purged.output.batch_rows as { erased: number }).erased >= 3, JSON.stringify(purged.output));
    const rows = await stored(id);
    assert.ok(rows.every((r) => r.input === null), 'inputs gone');
    for (const r of rows) {
      const result = JSON.parse(r.result!) as Record<string, unknown>;
      assert.deepEqual(Object.keys(result).sort(), ['Errorcode', 'Status', 'erased_at', 'message', 'reference_id', 'status', 'verified_at'].filter((k) => k in result).sort());
      assert.equal(result.status, 'success');
      assert.equal(result.Masked_Aadhaar, undefined);
      assert.equal(result.Aadhaar_Xml_Data, undefined);
    }
    const items = await t.call('GET', `/api/v1/batches/${id}/items`);
    assert.deepEqual((items.body.data.items as Array<{ reference_id: string; status: string }>).map((i) => [i.reference_id, i.status]), refs.map((r) => [r, 'success']));
    assert.equal((await t.call('GET', `/api/v1/batches/${id}`)).body.data.counts.success, 3);
  });

  it("a console upload's file name reaches the audit store redacted", async () => {
    assert.equal((await runCommand(t.store.db, ['users', 'create', '--email', 'dev@acme.test', '--password', 'correct horse', '--account', t.accountId])).code, 0);
    const login = await t.app.inject({ method: 'POST', url: '/console/api/login', payload: { email: 'dev@acme.test', password: 'correct horse' } });
    const headers = { cookie: String(login.headers['set-cookie']).split(';')[0]!, 'x-csrf-token': JSON.parse(login.body).data.csrf_token as string, 'content-type': 'text/csv' };
    const csv = `reference_id,consent,name_1,name_2\nfile-name-1,true,Priya Sharma,PRIYA SHARMA\n`;
    const r = await t.app.inject({ method: 'POST', url: `/console/api/batches?environment=sandbox&operation=name-match&file_name=kyc-${AADHAAR}.csv`, payload: csv, headers });
    assert.equal(r.statusCode, 200, r.body);
    await t.services.audit.flush();
    const rows = await sql<{ body: string }>`SELECT request_body::text AS body FROM audit_logs WHERE path = 'batch submit'`.execute(t.store.db);
    assert.equal(rows.rows.length, 1);
    assert.ok(!rows.rows[0]!.body.includes(AADHAAR), rows.rows[0]!.body);
    assert.equal((JSON.parse(rows.rows[0]!.body) as { file: string }).file, 'kyc-XXXXXXXX2346.csv');
  });
});
