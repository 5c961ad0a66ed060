// Emulators keep their books across a restart (common/persist.ts, issue #38): `sangam partner-sim` is
// started on a data dir, payouts are made, the process is killed with SIGKILL (no chance to flush), and
// a new process on the same data dir still finds every payout with the same outcome — one that was
// mid-lifecycle carries on to its outcome, an idempotent replay answers the same payout, the balance is
// what it was. In-process emulators (the test harness's) take no data dir and keep everything in memory.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { refusedCli, startCli, waitFor } from './testing.js';
import { startRazorpayxEmulator } from '../razorpayx/index.js';

async function killHard(child: import('node:child_process').ChildProcess): Promise<void> {
  const gone = once(child, 'exit');
  child.kill('SIGKILL');
  await gone;
}

const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as any });

describe('partner emulators keep their books across kill -9', () => {
  it('razorpayx: a processed payout, one mid-lifecycle, the balance and an idempotent replay survive', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sangam-rzp-'));
    const args = ['--kind', 'razorpayx', '--port', '0', '--latency-ms', '0', '--pending-ms', '300', '--data-dir', dir];
    let { child, printed } = await startCli(args);
    const auth = () => ({ authorization: `Basic ${Buffer.from(`${printed.key_id}:${printed.key_secret}`).toString('base64')}`, 'content-type': 'application/json' });
    const call = (method: string, path: string, body?: unknown, h: Record<string, string> = {}) =>
      fetch(`${printed.url}${path}`, { method, headers: { ...auth(), ...h }, body: body === undefined ? undefined : JSON.stringify(body) }).then(json);
    const body = (address: string) => ({
      account_number: printed.account_number,
      amount: 12_345,
      currency: 'INR',
      mode: 'UPI',
      purpose: 'payout',
      fund_account: { account_type: 'vpa', vpa: { address }, contact: { name: 'Gaurav Kumar', type: 'employee' } },
    });
    try {
      const done = await call('POST', '/v1/payouts', body('gaurav.kumar@exampleupi'), { 'x-payout-idempotency': 'restart-key-0001' });
      assert.equal(done.status, 200, JSON.stringify(done.body));
      const processed = await waitFor(async () => {
        const p = await call('GET', `/v1/payouts/${done.body.id}`);
        return p.body.status === 'processed' && p.body;
      });
      const balance = (await fetch(`${printed.url.replace(/\/v1$/, '')}/_sim/balance`).then(json)).body;
      const midway = await call('POST', '/v1/payouts', body('asha.rao@exampleupi'), { 'x-payout-idempotency': 'restart-key-0002' });
      assert.equal(midway.body.status, 'processing');
      await killHard(child);
      assert.ok(existsSync(join(dir, 'state.json')));

      ({ child, printed } = await startCli(args));
      const again = await call('GET', `/v1/payouts/${done.body.id}`);
      assert.equal(again.status, 200, 'the status lookup still finds it');
      assert.deepEqual([again.body.status, again.body.utr, again.body.amount], [processed.status, processed.utr, 12_345]);
      const replay = await call('POST', '/v1/payouts', body('gaurav.kumar@exampleupi'), { 'x-payout-idempotency': 'restart-key-0001' });
      assert.equal(replay.body.id, done.body.id, 'an idempotent replay answers the same payout, not a second one');
      const byRef = await call('GET', `/v1/payouts?account_number=${printed.account_number}`);
      assert.equal(byRef.body.items.length, 2);
      const resumed = await waitFor(async () => {
        const p = await call('GET', `/v1/payouts/${midway.body.id}`);
        return p.body.status === 'processed' && p.body;
      });
      assert.ok(resumed.utr, 'the payout caught mid-lifecycle reached its outcome after the restart');
      const after = (await fetch(`${printed.url.replace(/\/v1$/, '')}/_sim/balance`).then(json)).body;
      assert.deepEqual(after, { ...balance, balance: balance.balance - 12_345 }, 'the balance as it was, less the payout that completed after the restart');
    } finally {
      await killHard(child);
    }
  });

  it('cashfree-payouts: a transfer and its outcome survive', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sangam-cf-'));
    const args = ['--kind', 'cashfree-payouts', '--port', '0', '--latency-ms', '0', '--pending-ms', '100', '--client-id', 'CLI_ID', '--client-secret', 'cli_secret', '--data-dir', dir];
    let { child, printed } = await startCli(args);
    const headers = { 'x-client-id': 'CLI_ID', 'x-client-secret': 'cli_secret', 'x-api-version': '2024-01-01', 'content-type': 'application/json' };
    const status = () => fetch(`${printed.url}/transfers?transfer_id=RESTART_0001`, { headers }).then(json);
    try {
      const res = await fetch(`${printed.url}/transfers`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ transfer_id: 'RESTART_0001', transfer_amount: 1, transfer_mode: 'upi', beneficiary_details: { beneficiary_name: 'John Doe', beneficiary_instrument_details: { vpa: 'success@upi' } } }),
      });
      assert.equal(res.status, 200);
      const final = await waitFor(async () => {
        const s = await status();
        return s.body.status === 'SUCCESS' && s.body.status_code === 'COMPLETED' && s.body;
      });
      await killHard(child);
      ({ child, printed } = await startCli(args));
      const again = await status();
      assert.equal(again.status, 200, 'the status lookup still finds it');
      assert.deepEqual(again.body, final);
    } finally {
      await killHard(child);
    }
  });

  it('setu-recharge: a recharge and its outcome survive (a new token is needed: tokens are not books)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sangam-setu-'));
    const args = ['--kind', 'setu-recharge', '--port', '0', '--latency-ms', '0', '--data-dir', dir];
    let { child, printed } = await startCli(args);
    const call = async (path: string, body: unknown) => {
      const login = await fetch(`${printed.url}/v1/users/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ClientID: printed.client_id, Secret: printed.client_secret, grant_type: 'client_credentials' }) }).then(json);
      const headers = { authorization: `Bearer ${login.body.access_token}`, 'x-product-instance-id': printed.env.SANGAM_PARTNER_SETU_PRODUCT_INSTANCE_ID, 'content-type': 'application/json' };
      return fetch(`${printed.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) }).then(json);
    };
    try {
      const made = await call('/recharge/request', {
        customer: { billParameters: [{ name: 'Mobile Number', value: '9876543210' }, { name: 'Operator', value: 'vi' }, { name: 'Location', value: 'Maharashtra' }], mobile: '6291400475' },
        paymentDetails: { amount: 1900, mode: 'Internet Banking', paymentParams: [], paymentRefId: 'SANGAMRESTART0001', timestamp: '2024-02-07T13:54:00+05:30' },
      });
      assert.equal(made.status, 200, JSON.stringify(made.body));
      const before = await call('/recharge/status', { paymentRefId: 'SANGAMRESTART0001' });
      assert.ok(before.body.data?.status, JSON.stringify(before.body));
      await killHard(child);
      ({ child, printed } = await startCli(args));
      const after = await call('/recharge/status', { paymentRefId: 'SANGAMRESTART0001' });
      assert.equal(after.status, 200, 'the status lookup still finds it');
      assert.deepEqual(after.body.data, before.body.data);
    } finally {
      await killHard(child);
    }
  });

  it('a state file that is not one refuses the start, naming it; in-process emulators keep nothing on disk', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sangam-bad-'));
    writeFileSync(join(dir, 'state.json'), '{ not json');
    const r = await refusedCli(['--kind', 'razorpayx', '--port', '0', '--data-dir', dir]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /state\.json is not a readable emulator state file/);
    assert.equal(readFileSync(join(dir, 'state.json'), 'utf8'), '{ not json', 'the books are never overwritten');
    const emu = await startRazorpayxEmulator({ latencyMs: 0 });
    await emu.close();
  });
});
