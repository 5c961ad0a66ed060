import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PATHS, ref, startApp, type TestApp } from '../../../test/harness.js';
import { addEntry } from '../../access/allowlist.js';
import { approve } from '../../access/approvals.js';
import { topUp } from '../../ledger/ledger.js';
import { CATEGORIES, REASON_CODES } from '../../namematch/index.js';
import { accounts } from '../../admin/actions/index.js';
import { VALID } from '../../../test/harness.js';

/** Lets the seeded account call `operation` live (allow-listed, approved, `paise` topped up); reads its live wallet. */
async function goLive(t: TestApp, operation: string, paise: number) {
  await addEntry(t.store.db, t.accountId, 'live', '127.0.0.1');
  await approve(t.store.db, t.accountId, [operation]);
  await topUp(t.store.db, t.accountId, paise, null);
  return async () => (await t.call('GET', '/api/v1/account/wallet', { key: t.liveKey })).body.data;
}

const names = (name_1: unknown, name_2: unknown, reference_id = ref('names')) => ({ reference_id, consent: true, name_1, name_2 });

describe('name-match (CONTRACT §11)', () => {
  let t: TestApp;
  before(async () => (t = await startApp()));
  after(() => t.close());

  const match = (body: Record<string, unknown>, key = t.key) => t.call('POST', PATHS.names, { body, key });

  it('answers the contract shape: scores, category, decision, match, reasons and version', async () => {
    const r = await match(names('Shri Ramesh Kumar S/O Late Mohan Lal', 'RAMESH KUMAR'));
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.statuscode, 'TXN');
    const d = r.body.data;
    assert.equal(d.status, 'success');
    assert.match(d.verified_at, /^\d{4}-\d\d-\d\dT/);
    for (const k of ['score', 'optimistic_score', 'pessimistic_score']) assert.ok(d[k] >= 0 && d[k] <= 100, `${k} = ${d[k]}`);
    assert.ok(d.pessimistic_score <= d.score && d.score <= d.optimistic_score);
    assert.ok((CATEGORIES as readonly string[]).includes(d.category), d.category);
    assert.equal(d.decision, 'approve');
    assert.equal(d.match, true);
    const codes = d.reasons.map((x: { code: string }) => x.code);
    assert.ok(codes.includes('HONORIFIC_REMOVED'), codes.join());
    assert.ok(codes.includes('RELATION_REMOVED'), codes.join());
    for (const c of codes) assert.ok(c in REASON_CODES, c);
    assert.match(d.algorithm_version, /^sangam-name-match\//);
  });

  it('reads Indian scripts against Latin: Devanagari, Tamil, Bengali, Telugu, Gujarati', async () => {
    const pairs: Array<[string, string]> = [
      ['राहुल शर्मा', 'Rahul Sharma'],
      ['சுரேஷ் குமார்', 'Suresh Kumar'],
      ['সৌরভ গাঙ্গুলী', 'Sourav Ganguly'],
      ['వెంకట రమణ', 'Venkata Ramana'],
      ['હિતેશ પટેલ', 'Hitesh Patel'],
    ];
    for (const [a, b] of pairs) {
      const r = await match(names(a, b));
      assert.equal(r.status, 200, r.text);
      assert.notEqual(r.body.data.decision, 'reject', `${a} / ${b}: ${JSON.stringify(r.body.data)}`);
      assert.ok(r.body.data.reasons.some((x: { code: string }) => x.code === 'TRANSLITERATED'), `${a}: ${JSON.stringify(r.body.data.reasons)}`);
    }
  });

  it('tells two people who share a surname apart, and is the same for the same names', async () => {
    const first = await match(names('Amit Singh', 'Rohit Singh'));
    assert.equal(first.body.data.decision, 'reject', first.text);
    assert.equal(first.body.data.match, false);
    const again = await match(names('Amit Singh', 'Rohit Singh'));
    const { reference_id: _a, verified_at: _b, ...x } = first.body.data;
    const { reference_id: _c, verified_at: _d, ...y } = again.body.data;
    assert.deepEqual(x, y);
  });

  it('answers a name of honorifics only clearly, and refuses one with no letters as a 422 naming it', async () => {
    const honorifics = await match(names('Mr. Dr.', 'Ramesh Kumar'));
    assert.equal(honorifics.status, 200, honorifics.text);
    assert.equal(honorifics.body.data.decision, 'reject');
    assert.ok(honorifics.body.data.reasons.some((x: { code: string }) => x.code === 'NO_NAME_LEFT'), honorifics.text);
    const refused = names('Ramesh Kumar', '12345');
    const digits = await match(refused);
    assert.equal(digits.status, 422);
    assert.deepEqual(digits.body.data.errors.map((e: { field: string }) => e.field), ['name_2']);
    // Refused before anything was recorded: the reference is free, and nothing is on record under it.
    const lookup = await t.call('GET', `/api/v1/transactions/${refused.reference_id}`);
    assert.equal(lookup.status, 404);
  });

  it('replays the first answer for the same reference, and refuses another payload under it', async () => {
    const body = names('Sai Krishna', 'Saikrishna');
    const first = await match(body);
    const replay = await match(body);
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    assert.equal(replay.text, first.text);
    const other = await match({ ...body, name_2: 'Someone Else' });
    assert.equal(other.status, 422);
    assert.equal(other.body.data.Errorcode, 107);
    const polled = await t.call('GET', `/api/v1/transactions/${body.reference_id}`);
    assert.equal(polled.body.data.operation, 'name-match');
    assert.equal(polled.body.data.score, first.body.data.score);
  });

  it('in live it is the same answer, charged its declared fee once, with no partner configured', async () => {
    const wallet = await goLive(t, 'name-match', 10_000);
    const before = await wallet();
    const body = names('Lakshmi Devi', 'Laxmi Devi');
    const r = await match(body, t.liveKey);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.data.decision, 'approve');
    const sandbox = await match({ ...body, reference_id: ref('names') });
    assert.equal(sandbox.body.data.score, r.body.data.score);
    await match(body, t.liveKey); // a replay costs nothing
    const after = await wallet();
    assert.equal(Math.round((before.balance - after.balance) * 100), 50);
    assert.equal(after.held, 0);
  });
});

describe('name match where it is used: thresholds per account, bank accounts, signatures, payouts', () => {
  let t: TestApp;
  before(async () => (t = await startApp()));
  after(() => t.close());

  const decide = async (a: string, b: string) => (await t.call('POST', PATHS.names, { body: names(a, b) })).body.data;

  it("takes the account's thresholds: the same pair is decided by them, and a bad change is a 422 naming the field", async () => {
    const pair = ['Ramesh Kumar Sharma', 'Ramesh Sharma'] as const;
    const before = await decide(...pair);
    await accounts.setNameMatch(t.store.db, 'cli', { accountId: t.accountId, approve_at: 100, review_at: 100 });
    const strict = await decide(...pair);
    assert.equal(strict.score, before.score, 'the score does not move with the thresholds');
    assert.equal(strict.decision, before.score >= 100 ? 'approve' : 'reject');
    const refusedOn = (field: string) => (err: { code?: string; extra?: { errors?: Array<{ field: string }> } }) =>
      err.code === 'validation' && err.extra?.errors?.[0]?.field === field;
    await assert.rejects(accounts.setNameMatch(t.store.db, 'cli', { accountId: t.accountId, review_at: 101 }), refusedOn('review_at'));
    // 40 would put approval below the stored review_at of 100.
    await assert.rejects(accounts.setNameMatch(t.store.db, 'cli', { accountId: t.accountId, approve_at: 40 }), refusedOn('review_at'));
    await accounts.setNameMatch(t.store.db, 'cli', { accountId: t.accountId, approve_at: null, review_at: null });
    assert.equal((await decide(...pair)).decision, before.decision);
    const audit = await t.store.db.selectFrom('audit_logs').select('request_body').where('method', '=', 'ADMIN').where('path', '=', 'accounts name-match').execute();
    assert.equal(audit.length, 2, 'each change is in the audit trail (the refused ones are not)');
    assert.ok(audit.some((r) => JSON.stringify(r.request_body).includes(`approve_at`)), JSON.stringify(audit[0]?.request_body));
  });

  it('mobile-to-bank-account with name answers data.name_match against the account holder', async () => {
    const plain = await t.call('POST', PATHS.bank, { body: VALID.bank() });
    const holder = plain.body.data.account.account_holder_name as string;
    assert.equal(plain.body.data.name_match, undefined);
    const same = await t.call('POST', PATHS.bank, { body: { ...VALID.bank(), name: holder.toUpperCase() } });
    assert.equal(same.body.data.name_match.decision, 'approve', same.text);
    assert.equal(same.body.data.name_match.match, true);
    assert.equal(same.body.data.name_match.status, undefined, 'the object has no standard fields');
    const other = await t.call('POST', PATHS.bank, { body: { ...VALID.bank(), name: 'Zorawar Venkataraghavan' } });
    assert.equal(other.body.data.name_match.decision, 'reject', other.text);
    const bad = await t.call('POST', PATHS.bank, { body: { ...VALID.bank(), name: '1234' } });
    assert.equal(bad.status, 422);
    assert.deepEqual(bad.body.data.errors.map((e: { field: string }) => e.field), ['name']);
  });

  it('signature-match with name adds data.name_match beside name_match_score, whose meaning stays', async () => {
    const r = await t.call('POST', PATHS.signature, { body: VALID.signature() });
    assert.equal(typeof r.body.data.name_match_score, 'number');
    assert.equal(typeof r.body.data.name_match.score, 'number', r.text);
    assert.ok((CATEGORIES as readonly string[]).includes(r.body.data.name_match.category));
    const extracted = r.body.data.extracted_name as string;
    const same = await t.call('POST', PATHS.signature, { body: { ...VALID.signature(), input: 'https://example.com/cheque.png', name: extracted } });
    assert.equal(same.body.data.name_match.decision, 'approve', same.text);
  });

  it('a payout with beneficiary_name is paid on a match and refused on a mismatch, nothing paid (sandbox)', async () => {
    const pay = (vpa: string, beneficiary_name: string) => t.call('POST', PATHS.upi, { body: { ...VALID.upi(), vpa, beneficiary_name } });
    const ok = await pay('ramesh.kumar@okbank', 'Shri Ramesh Kumar');
    assert.equal(ok.body.data.status, 'success', ok.text);
    assert.equal(ok.body.data.name_match.decision, 'approve');
    assert.match(ok.body.data.utr, /^\d{12}$/);
    const no = await pay('ramesh.kumar@okbank', 'Suresh Patel');
    assert.equal(no.status, 200);
    assert.equal(no.body.statuscode, 'ERR');
    assert.equal(no.body.data.status, 'failed');
    assert.match(no.body.data.message, /does not match/);
    assert.equal(no.body.data.name_match.decision, 'reject');
    assert.equal(no.body.data.utr, null);
    const none = await pay('novpa@sandbox', 'Ramesh Kumar');
    assert.equal(none.body.data.status, 'failed');
    assert.match(none.body.data.message, /does not exist/);
  });

  it("a review follows the account's setting: held (the default) or paid", async () => {
    await accounts.setNameMatch(t.store.db, 'cli', { accountId: t.accountId, approve_at: 100, review_at: 0 });
    const pay = () => t.call('POST', PATHS.upi, { body: { ...VALID.upi(), vpa: 'ramesh.kumar@okbank', beneficiary_name: 'Ramesh K' } });
    const held = await pay();
    assert.equal(held.body.data.status, 'failed', held.text);
    assert.equal(held.body.data.name_match.decision, 'review');
    assert.match(held.body.data.message, /review/);
    await accounts.setNameMatch(t.store.db, 'cli', { accountId: t.accountId, on_review: 'pay' });
    const paid = await pay();
    assert.equal(paid.body.data.status, 'success', paid.text);
    assert.equal(paid.body.data.name_match.decision, 'review');
    await accounts.setNameMatch(t.store.db, 'cli', { accountId: t.accountId, approve_at: null, review_at: null, on_review: null });
  });

  it('live: a refused payout pays and charges nothing, a matched one pays once; the wallet is right to the paisa', async () => {
    const wallet = await goLive(t, 'upi-payment-status', 100_000);
    const start = await wallet();
    // This server has no partner network configured: the check cannot be made, so nothing is paid (502).
    const r = await t.call('POST', PATHS.upi, { key: t.liveKey, body: { ...VALID.upi(), vpa: 'ramesh.kumar@okbank', beneficiary_name: 'Ramesh Kumar' } });
    assert.equal(r.status, 502, r.text);
    assert.deepEqual(await wallet(), start);
  });
});
