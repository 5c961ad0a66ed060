// The cashfree-verification connector's payee verifications (account-verification by BAV V2, sync and
// async; vpa-verification by UPI V2) called directly, against the Cashfree Verification emulator over real
// loopback HTTP, with its sessions in memory: valid, invalid (a completed check: success), a bank-side
// failure (failed, unknown), pending then settled by the documented status call, a 5xx after the work
// (pending, never sent again), the documented "never executed" 404, and wrong credentials (a PartnerError:
// nothing charged, failover allowed).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { startCashfreeVerificationEmulator, type CashfreeVerificationEmulator } from '../../../partner-sim/cashfree-verification/index.js';
import { NoAnswer, PartnerError, type Connector, type TxRef } from '../connector.js';
import { connectorFor } from '../../../test/cashfree-vrs.js';

const txn = () => `txn_${randomBytes(8).toString('hex')}`;
const ref = (txnId: string, operation: TxRef['operation'], partnerRef: string | null = null): TxRef => ({ txnId, operation, partnerRef, amountPaise: null, commissionPaise: 0 });
const IFSC = 'HDFC0000001';

describe('cashfree-verification payee verifications against the emulator', () => {
  let emu: CashfreeVerificationEmulator;
  let sync: Connector;
  let async: Connector;
  before(async () => {
    emu = await startCashfreeVerificationEmulator({ latencyMs: 0, pendingMs: 100 });
    sync = connectorFor(emu);
    async = connectorFor(emu, { BAV_MODE: 'async' });
  });
  after(async () => {
    await sync?.close?.();
    await async?.close?.();
    await emu?.close();
  });
  const posts = (path: string) => emu.requests().filter((q) => q.method === 'POST' && q.path === `/verification${path}`);

  it('serves the three operations; BAV_MODE must be sync or async', () => {
    assert.deepEqual([...sync.serves], ['mobile-to-bank-account', 'account-verification', 'vpa-verification']);
    assert.throws(() => connectorFor(emu, { BAV_MODE: 'bulk' }), /SANGAM_PARTNER_CFV_BAV_MODE must be sync or async/);
  });

  it('BAV sync, VALID: success, the holder, a penny drop with its UTR; only bank_account and ifsc are sent', async () => {
    const o = await sync.execute({ operation: 'account-verification', txnId: txn(), accountNumber: '50100012345678', ifsc: IFSC, name: 'Someone Else' });
    assert.equal(o.status, 'success');
    assert.ok('bankAccount' in o);
    assert.equal(o.bankAccount.status, 'valid');
    assert.match(o.bankAccount.nameAtBank!, /^[A-Z]+ [A-Z]+$/);
    assert.equal(o.bankAccount.method, 'penny_drop');
    assert.match(o.bankAccount.utr!, /^\d{12}$/);
    assert.match(o.partnerRef!, /^\d+$/);
    assert.deepEqual(posts('/bank-account/sync').at(-1)!.body, { bank_account: '50100012345678', ifsc: IFSC });
  });

  it('BAV sync, INVALID (each documented code): success with account_status invalid and its reason', async () => {
    for (const [acct, reason] of [
      ['000000000001', /does not exist/],
      ['000000000002', /blocked/],
      ['000000000003', /NRE/],
    ] as const) {
      const o = await sync.execute({ operation: 'account-verification', txnId: txn(), accountNumber: acct, ifsc: IFSC });
      assert.equal(o.status, 'success', acct);
      assert.ok('bankAccount' in o);
      assert.equal(o.bankAccount.status, 'invalid');
      assert.match(o.bankAccount.reason!, reason);
      assert.equal(o.bankAccount.nameAtBank, null);
    }
    const unknownIfsc = await sync.execute({ operation: 'account-verification', txnId: txn(), accountNumber: '123456789', ifsc: 'ZZZZ0000001' });
    assert.ok('bankAccount' in unknownIfsc);
    assert.equal(unknownIfsc.bankAccount.status, 'invalid');
    assert.match(unknownIfsc.bankAccount.reason!, /IFSC/);
  });

  it('BAV: a bank-side 422 or a FAILED status is failed with account_status unknown (never a guess)', async () => {
    for (const acct of ['000000000005', '000000000007']) {
      const o = await sync.execute({ operation: 'account-verification', txnId: txn(), accountNumber: acct, ifsc: IFSC });
      assert.equal(o.status, 'failed', acct);
      assert.ok('bankAccount' in o);
      assert.equal(o.bankAccount.status, 'unknown');
    }
  });

  it('BAV sync pending (RECEIVED): pending with Cashfree’s reference, then settled by GET /bank-account?reference_id', async () => {
    const txnId = txn();
    const o = await sync.execute({ operation: 'account-verification', txnId, accountNumber: '000000000004', ifsc: IFSC });
    assert.equal(o.status, 'pending');
    assert.ok(o.partnerRef);
    await new Promise((r) => setTimeout(r, 250));
    const r = await sync.status!(ref(txnId, 'account-verification', o.partnerRef!));
    assert.equal(r?.outcome.status, 'success');
    assert.ok(r && 'bankAccount' in r.outcome && r.outcome.bankAccount.status === 'valid');
    assert.ok(emu.requests().some((q) => q.method === 'GET' && q.url.includes(`reference_id=${o.partnerRef}`)));
  });

  it('BAV async: RECEIVED → pending, then GET /bank-account?user_id=<txnId> settles it; user_id is our transaction id', async () => {
    const txnId = txn();
    const o = await async.execute({ operation: 'account-verification', txnId, accountNumber: '50100087654321', ifsc: IFSC });
    assert.equal(o.status, 'pending');
    assert.deepEqual(posts('/bank-account/async').at(-1)!.body, { bank_account: '50100087654321', ifsc: IFSC, user_id: txnId });
    await new Promise((r) => setTimeout(r, 250));
    const r = await async.status!(ref(txnId, 'account-verification'));
    assert.equal(r?.outcome.status, 'success');
    assert.ok(emu.requests().some((q) => q.method === 'GET' && q.url.includes(`user_id=${txnId}`)));
  });

  it('UPI V2: VALID, INVALID, EXPIRED, NPCI_NAME_INCORRECT; verification_id is our transaction id', async () => {
    const txnId = txn();
    const ok = await sync.execute({ operation: 'vpa-verification', txnId, vpa: 'ramesh.kumar@okhdfc', name: 'Ramesh' });
    assert.equal(ok.status, 'success');
    assert.ok('vpa' in ok && ok.vpa.status === 'valid' && ok.vpa.nameAtBank);
    assert.deepEqual(posts('/upi').at(-1)!.body, { verification_id: txnId, vpa: 'ramesh.kumar@okhdfc' });
    const cases = [
      ['invalid@upi', 'success', 'invalid'],
      ['expired@upi', 'success', 'invalid'],
      ['invalidname@upi', 'failed', 'unknown'],
    ] as const;
    for (const [vpa, status, found] of cases) {
      const o = await sync.execute({ operation: 'vpa-verification', txnId: txn(), vpa });
      assert.equal(o.status, status, vpa);
      assert.ok('vpa' in o && o.vpa.status === found, vpa);
    }
  });

  it('UPI pending, then settled by GET /upi?verification_id', async () => {
    const txnId = txn();
    const o = await sync.execute({ operation: 'vpa-verification', txnId, vpa: 'pending@upi' });
    assert.equal(o.status, 'pending');
    await new Promise((r) => setTimeout(r, 250));
    const r = await sync.status!(ref(txnId, 'vpa-verification'));
    assert.equal(r?.outcome.status, 'success');
  });

  it('a 5xx after the work: NoAnswer (pending, fee held), never sent again; the status call then finds the outcome', async () => {
    for (const [op, c] of [
      ['vpa-verification', sync],
      ['account-verification', async],
    ] as const) {
      const txnId = txn();
      emu.setFaults({ error_after_accept_next: 1, scope: 'create' });
      const before = emu.requests().filter((q) => q.method === 'POST').length;
      const req = op === 'vpa-verification' ? { operation: op, txnId, vpa: 'someone@okicici' } : { operation: op, txnId, accountNumber: '50100011112222', ifsc: IFSC };
      await assert.rejects(c.execute(req), (e: unknown) => e instanceof NoAnswer && e.outcome.status === 'pending');
      emu.setFaults({});
      assert.equal(emu.requests().filter((q) => q.method === 'POST').length, before + 1, 'sent once');
      await new Promise((r) => setTimeout(r, 250));
      const r = await c.status!(ref(txnId, op));
      assert.equal(r?.outcome.status, 'success', op);
    }
  });

  it('a sync BAV never answered stays pending for a person (no id of ours to ask by)', async () => {
    const txnId = txn();
    emu.setFaults({ error_after_accept_next: 1, scope: 'create' });
    await assert.rejects(sync.execute({ operation: 'account-verification', txnId, accountNumber: '50100033334444', ifsc: IFSC }), NoAnswer);
    emu.setFaults({});
    const r = await sync.status!(ref(txnId, 'account-verification'));
    assert.equal(r?.outcome.status, 'pending');
    assert.match(r!.outcome.message, /person/);
  });

  it('never sent (no record) or the documented 404 of the status call: null, never executed', async () => {
    assert.equal(await sync.status!(ref(txn(), 'vpa-verification')), null);
    const txnId = txn();
    emu.setFaults({ error_next: 1, scope: 'create' }); // refused before the work: a 5xx all the same, so pending
    await assert.rejects(sync.execute({ operation: 'vpa-verification', txnId, vpa: 'nobody@okaxis' }), NoAnswer);
    emu.setFaults({});
    assert.equal(await sync.status!(ref(txnId, 'vpa-verification')), null, 'Cashfree answers 404 verification_id_not_found');
  });

  it('wrong credentials, throttling, a refused body: PartnerError, nothing charged, failover allowed', async () => {
    const wrong = connectorFor(emu, { CLIENT_SECRET: 'wrong' });
    await assert.rejects(wrong.execute({ operation: 'vpa-verification', txnId: txn(), vpa: 'a@okaxis' }), (e: unknown) => e instanceof PartnerError && /credentials \(HTTP 401/.test(e.message));
    await assert.rejects(wrong.execute({ operation: 'account-verification', txnId: txn(), accountNumber: '50100011112222', ifsc: IFSC }), PartnerError);
    await wrong.close?.();
    emu.setFaults({ throttle_next: 1, scope: 'create' });
    await assert.rejects(sync.execute({ operation: 'vpa-verification', txnId: txn(), vpa: 'a@okaxis' }), (e: unknown) => e instanceof PartnerError && /throttling/.test(e.message));
    emu.setFaults({});
    await assert.rejects(sync.execute({ operation: 'account-verification', txnId: txn(), accountNumber: '12-34', ifsc: IFSC }), /6 to 40 letters and digits only; nothing was sent/);
  });
});
