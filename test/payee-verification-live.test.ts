// Payee verification (CONTRACT §14) live, through the reference simulator of §8 (a real process,
// signed callbacks), which answers with the sandbox's table: the fee paid once whatever the check found
// (valid, invalid, unknown), a pending that the late partner answer finalises, and a UPI payout with
// beneficiary_name paid after a vpa-verification, without a validation the simulator cannot give.
import { after, afterEach, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, PATHS, ref, VALID } from './harness.js';
import { startLive, startSim, type LiveApp, type Sim } from './live-harness.js';

const ACCOUNT = '/api/v1/bank-account/account-verification';
const VPA = '/api/v1/upi-payment/vpa-verification';
const FEES = { account: 200, vpa: 100 };

describe('payee verification, live through the reference simulator', () => {
  let t: LiveApp;
  let sim: Sim;
  before(async () => {
    sim = await startSim({ pendingMs: 500 });
    t = await startLive({}, 10_000, sim);
  });
  after(async () => {
    await t.close();
    await sim.stop();
  });
  afterEach(() => t.assertLedger());

  const live = (path: string, body: unknown) => t.call('POST', path, { key: t.liveKey, body });
  const paid = async (run: () => Promise<void>) => {
    const before = await t.wallet();
    await run();
    const after = await t.wallet();
    return Math.round((before.balance - after.balance) * 100);
  };
  const settled = (reference: string) =>
    eventually(async () => {
      const r = await t.call('GET', `/api/v1/transactions/${reference}`, { key: t.liveKey });
      return r.body.data.status !== 'pending' && r.body.data;
    }, 20_000);

  it('account verification: valid, invalid and unknown each pay the fee once; a replay pays nothing', async () => {
    for (const [account_number, status, found] of [['123456789012', 'success', 'valid'], ['123450001', 'success', 'invalid'], ['123450004', 'failed', 'unknown']] as const) {
      const body = { reference_id: ref('acv'), consent: true, account_number, ifsc: 'ICIC0000001', name: 'Priya Sharma' };
      const cost = await paid(async () => {
        const r = await live(ACCOUNT, body);
        assert.equal(r.status, 200, r.text);
        assert.deepEqual([r.body.data.status, r.body.data.account_status], [status, found], account_number);
        assert.deepEqual(r.body.data.bank, { name: 'ICICI Bank', branch: null, ifsc: 'ICIC0000001' });
        if (found === 'valid') {
          assert.equal(r.body.data.method, 'penny_drop');
          assert.match(r.body.data.utr, /^\d{12}$/);
          assert.ok(r.body.data.name_match);
        }
        const replay = await live(ACCOUNT, body);
        assert.equal(replay.headers['idempotent-replayed'], 'true');
      });
      assert.equal(cost, FEES.account, account_number);
    }
  });

  it('a pending verification is unknown until the late partner answer finalises it, with its name match, then pays once', async () => {
    const body = { reference_id: ref('acv'), consent: true, account_number: '123450002', ifsc: 'HDFC0000001', name: 'Priya Sharma' };
    const cost = await paid(async () => {
      const r = await live(ACCOUNT, body);
      assert.equal(r.body.statuscode, 'TUP', r.text);
      assert.equal(r.body.data.account_status, 'unknown');
      assert.equal(r.body.data.name_match, undefined, 'nothing to compare yet');
      // The caller's name waits for the end sealed, never in plain text.
      const note = () => t.store.db.selectFrom('pending_notes as n').innerJoin('transactions as x', 'x.id', 'n.txn_id').select('n.sealed').where('x.reference_id', '=', body.reference_id).executeTakeFirst();
      const kept = await note();
      assert.ok(kept && !kept.sealed.includes('Priya'), 'the name is kept, sealed, until the end');
      const final = await settled(body.reference_id);
      assert.deepEqual([final.status, final.account_status, final.bank.name], ['success', 'valid', 'HDFC Bank']);
      assert.equal(typeof final.name_at_bank, 'string');
      // The late end compares the caller's name with the bank's, as an immediate answer does (CONTRACT §14).
      const direct = (await t.call('POST', '/api/v1/name-match', { key: t.key, body: { reference_id: ref('nm'), consent: true, name_1: body.name, name_2: final.name_at_bank } })).body.data;
      assert.deepEqual([final.name_match.score, final.name_match.decision, final.name_match.algorithm_version], [direct.score, direct.decision, direct.algorithm_version]);
      assert.equal(await note(), undefined, 'the note ends with its pending');
    });
    assert.equal(cost, FEES.account);
    const vpaBody = { reference_id: ref('vpav'), consent: true, vpa: 'pendingfail@sandbox' };
    const vpaCost = await paid(async () => {
      assert.equal((await live(VPA, vpaBody)).body.statuscode, 'TUP');
      const final = await settled(vpaBody.reference_id);
      assert.deepEqual([final.status, final.vpa_status], ['failed', 'unknown'], 'unknown stays unknown');
    });
    assert.equal(vpaCost, FEES.vpa, 'a verification pays whatever it found');
  });

  it('vpa verification: valid with the holder and the account; invalid; a payout with beneficiary_name reuses it', async () => {
    const body = { reference_id: ref('vpav'), consent: true, vpa: 'kavya.nair@okaxis', name: 'Kavya Nair' };
    const r = await live(VPA, body);
    assert.equal(r.status, 200, r.text);
    const d = r.body.data;
    assert.deepEqual([d.status, d.vpa_status, d.name_at_bank, d.account_type, d.name_match.decision], ['success', 'valid', 'Kavya Nair', 'savings', 'approve']);
    assert.match(d.ifsc, /^[A-Z]{4}0[A-Z0-9]{6}$/);
    const invalid = (await live(VPA, { reference_id: ref('vpav'), consent: true, vpa: 'novpa@sandbox' })).body.data;
    assert.deepEqual([invalid.vpa_status, invalid.name_at_bank], ['invalid', null]);
    // The simulator validates no VPA for payouts: only the verification lets this payout be name-checked.
    const payout = await live(PATHS.upi, { ...VALID.upi(), vpa: 'kavya.nair@okaxis', beneficiary_name: 'Kavya Nair', amount: 10 });
    assert.equal(payout.body.data.status, 'success', payout.text);
    assert.equal(payout.body.data.name_match.source, 'vpa-verification');
    assert.equal(payout.body.data.name_match.verification.reference_id, body.reference_id);
  });
});
