// The Cashfree Mobile Penny Drop emulator over real HTTP on loopback: header auth, the documented request
// and response (real IFSC codes and bank names), Cashfree's error shape for every bad field, one penny drop
// per verification_id, the status call, the magic numbers and every fault. No database: it is in-memory.
import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { bankNameOf, ifscExists } from '../../shared/ifsc.js';
import { refusedCli, startCli, waitFor } from '../common/testing.js';
import { startCashfreeVerificationEmulator, type CashfreeVerificationEmulator } from './index.js';

const SAMPLE_KEYS = ['verification_id', 'reference_id', 'status', 'ifsc', 'vpa', 'mobile_number', 'account_type', 'name_at_bank', 'utr', 'bank_account', 'name_match_score', 'name_match_result', 'ifsc_details'];
const IFSC_DETAIL_KEYS = ['bank', 'neft', 'imps', 'rtgs', 'upi', 'address', 'city', 'state', 'branch', 'category', 'swift_code', 'micr', 'nbin'];

describe('Cashfree Mobile Penny Drop emulator', () => {
  let emu: CashfreeVerificationEmulator;
  let headers: Record<string, string>;

  before(async () => {
    emu = await startCashfreeVerificationEmulator({ latencyMs: 0, pendingMs: 60 });
    headers = { 'x-client-id': emu.settings.clientId, 'x-client-secret': emu.settings.clientSecret, 'x-api-version': '2024-12-01' };
  });
  after(() => emu.close());
  beforeEach(() => emu.setFaults({}));

  async function call(method: string, path: string, body?: unknown, extra: Record<string, string> = {}): Promise<{ status: number; body: any; headers: Headers }> {
    const res = await fetch(emu.url + path, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...extra },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: res.status, body: await res.json(), headers: res.headers };
  }
  const consent = { obtained: true, type: 'EXPLICIT', timestamp: '2025-10-27T09:24:36Z', purpose: 'Verify the payout account' };
  const request = (mobile: string | number, extra: Record<string, unknown> = {}) => ({ verification_id: `v_${randomUUID().slice(0, 8)}`, mobile_number: mobile, user_consent: consent, ...extra });
  const pennyDrop = (body: unknown, extra?: Record<string, string>) => call('POST', '/mobile/penny-drop', body, extra);
  /** What the emulator holds for a verification_id (Cashfree documents no status call: this reads the emulator's own record). */
  const status = async (q: string) => {
    const id = new URLSearchParams(q).get('verification_id');
    const rec = emu.verifications().find((v) => v.view.verification_id === id);
    return rec ? { status: 200, body: rec.view as any } : { status: 404, body: { code: 'verification_id_not_found' } as any };
  };
  const admin = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(emu.origin + path, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as any };
  };

  describe('authentication', () => {
    it('answers 401 authentication_error for missing or wrong keys, and requires x-api-version', async () => {
      for (const bad of [{ 'x-client-id': '' }, { 'x-client-id': 'other' }, { 'x-client-secret': 'wrong' }] as Record<string, string>[]) {
        const res = await fetch(`${emu.url}/mobile/penny-drop`, { method: 'POST', headers: { ...headers, ...bad, 'content-type': 'application/json' }, body: JSON.stringify(request('9876543210')) });
        assert.equal(res.status, 401);
        const body = (await res.json()) as any;
        assert.deepEqual(Object.keys(body).sort(), ['code', 'message', 'type']);
        assert.equal(body.type, 'authentication_error');
      }
      const { 'x-api-version': _, ...noVersion } = headers;
      const res = await fetch(`${emu.url}/mobile/penny-drop`, { method: 'POST', headers: { ...noVersion, 'content-type': 'application/json' }, body: JSON.stringify(request('9876543210')) });
      assert.equal(res.status, 400);
      assert.deepEqual(await res.json(), { type: 'invalid_request_error', code: 'x-api-version_missing', message: 'x-api-version is missing in the request' });
      assert.equal((await pennyDrop(request('9876543210'), { 'x-api-version': 'v2' })).body.code, 'x-api-version_invalid');
      assert.equal(emu.verifications().length, 0, 'nothing done without auth');
    });

    it('echoes x-request-id, on errors too', async () => {
      assert.equal((await pennyDrop(request('9876543210'), { 'x-request-id': 'req-1' })).headers.get('x-request-id'), 'req-1');
      assert.equal((await pennyDrop({}, { 'x-request-id': 'req-2' })).headers.get('x-request-id'), 'req-2');
    });
  });

  describe('penny drop', () => {
    it('answers VALID with the sample fields, a real IFSC and its bank, the full account number and a 12-digit utr', async () => {
      const req = request(9876543210, { name: 'Someone Else' });
      const res = await pennyDrop(req);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const b = res.body;
      assert.deepEqual(Object.keys(b), SAMPLE_KEYS);
      assert.deepEqual(Object.keys(b.ifsc_details), IFSC_DETAIL_KEYS);
      assert.equal(b.verification_id, req.verification_id);
      assert.equal(b.status, 'VALID');
      assert.equal(b.mobile_number, '9876543210', 'a number in the request, a string in the answer');
      assert.equal(typeof b.reference_id, 'number');
      assert.ok(ifscExists(b.ifsc), `${b.ifsc} is in the IFSC directory`);
      assert.equal(b.ifsc_details.bank, bankNameOf(b.ifsc));
      assert.match(b.bank_account, /^[1-9][0-9]{9,17}$/);
      assert.match(b.utr, /^[0-9]{12}$/);
      assert.equal(b.vpa, `9876543210@${b.vpa.split('@')[1]}`);
      assert.ok(['SAVINGS', 'CURRENT'].includes(b.account_type));
      assert.match(b.name_at_bank, /^[A-Z]+ [A-Z]+$/);
      assert.equal(typeof b.ifsc_details.micr, 'number');
      assert.equal(typeof b.name_match_score, 'string');
    });

    it('finds the same account for the same mobile every time, and different ones for other mobiles', async () => {
      const a = (await pennyDrop(request('9123456780'))).body;
      const b = (await pennyDrop(request('9123456780'))).body;
      for (const k of ['ifsc', 'vpa', 'name_at_bank', 'bank_account', 'account_type', 'ifsc_details']) assert.deepEqual(b[k], a[k], k);
      assert.notEqual(b.reference_id, a.reference_id);
      const banks = new Set<string>();
      for (let i = 0; i < 12; i++) {
        const r = (await pennyDrop(request(`98000000${String(i).padStart(2, '0')}`))).body;
        assert.ok(ifscExists(r.ifsc), r.ifsc);
        banks.add(r.ifsc.slice(0, 4));
      }
      assert.ok(banks.size >= 3, `several banks: ${[...banks].join(',')}`);
    });

    it('scores the name sent against the name at the bank; no name, no score', async () => {
      const atBank = (await pennyDrop(request('9988123456'))).body;
      assert.equal(atBank.name_match_score, null);
      assert.equal(atBank.name_match_result, null);
      const [first, last] = atBank.name_at_bank.split(' ');
      const exact = (await pennyDrop(request('9988123456', { name: `${first.toLowerCase()} ${last.toLowerCase()}` }))).body;
      assert.deepEqual([exact.name_match_score, exact.name_match_result], ['100', 'DIRECT_MATCH']);
      const swapped = (await pennyDrop(request('9988123456', { name: `${last} ${first}` }))).body;
      assert.equal(swapped.name_match_result, 'DIRECT_MATCH');
      const typo = (await pennyDrop(request('9988123456', { name: `${first}X ${last}` }))).body;
      assert.equal(typo.name_match_result, 'GOOD_PARTIAL_MATCH');
      const other = (await pennyDrop(request('9988123456', { name: 'Q' }))).body;
      assert.equal(other.name_match_result, 'NO_MATCH');
      assert.ok(Number(other.name_match_score) < 50);
    });

    it('refuses each bad field with its Cashfree code', async () => {
      const base = request('9876543210');
      const cases: Array<[unknown, string]> = [
        [{ ...base, verification_id: undefined }, 'verification_id_missing'],
        [{ ...base, verification_id: 'has space' }, 'verification_id_invalid'],
        [{ ...base, verification_id: 'x'.repeat(51) }, 'verification_id_invalid'],
        [{ ...base, mobile_number: undefined }, 'mobile_number_missing'],
        [{ ...base, mobile_number: '999999999' }, 'mobile_number_invalid'],
        [{ ...base, mobile_number: '+919876543210' }, 'mobile_number_invalid'],
        [{ ...base, mobile_number: 5876543210 }, 'mobile_number_invalid'],
        [{ ...base, name: 42 }, 'name_invalid'],
        [{ ...base, user_consent: undefined }, 'user_consent_missing'],
        [{ ...base, user_consent: 'yes' }, 'user_consent_invalid'],
        [{ ...base, user_consent: { ...consent, obtained: false } }, 'user_consent.obtained_invalid'],
        [{ ...base, user_consent: { ...consent, obtained: undefined } }, 'user_consent.obtained_missing'],
        [{ ...base, user_consent: { ...consent, type: 'IMPLIED' } }, 'user_consent.type_invalid'],
        [{ ...base, user_consent: { ...consent, timestamp: '27/10/2025' } }, 'user_consent.timestamp_invalid'],
        [{ ...base, user_consent: { ...consent, purpose: '' } }, 'user_consent.purpose_missing'],
        [[base], 'request_invalid'],
      ];
      for (const [body, code] of cases) {
        const res = await pennyDrop(body);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(res.body.type, 'invalid_request_error');
        assert.equal(res.body.code, code, JSON.stringify(body));
        assert.equal(typeof res.body.message, 'string');
      }
      assert.equal((await pennyDrop('{"verification_id":')).body.code, 'request_invalid');
      const text = await fetch(`${emu.url}/mobile/penny-drop`, { method: 'POST', headers: { ...headers, 'content-type': 'text/plain' }, body: 'hi' });
      assert.equal(text.status, 415);
      assert.equal(((await text.json()) as any).type, 'invalid_request_error');
      const unknown = await call('GET', '/mobile/penny-drops');
      assert.equal(unknown.status, 404);
      assert.deepEqual(Object.keys(unknown.body).sort(), ['code', 'message', 'type']);
      // Cashfree documents no status call: a GET on the penny-drop path is a route the gateway does not have
      const get = await call('GET', `/mobile/penny-drop?verification_id=${base.verification_id}`);
      assert.equal(get.status, 404);
      assert.equal(get.body.code, 'request_url_not_found');
      assert.equal(emu.verifications().filter((v) => v.input.verification_id === base.verification_id).length, 0);
    });
  });

  describe('one penny drop per verification_id', () => {
    it('answers 409 for a reused verification_id without a second penny drop; the record keeps the first answer', async () => {
      const req = request('9812345678');
      const first = await pennyDrop(req);
      const again = await pennyDrop(req);
      assert.equal(again.status, 409);
      assert.deepEqual(again.body, { type: 'invalid_request_error', code: 'verification_id_already_exists', message: `verification_id ${req.verification_id} already exists` });
      const ledger = (await admin('GET', '/_sim/verifications')).body;
      const mine = ledger.verifications.filter((v: any) => v.verification_id === req.verification_id);
      assert.equal(mine.length, 1);
      assert.equal(mine[0].requests, 2);
      assert.equal(mine[0].penny_drops, 1);
      assert.deepEqual((await status(`verification_id=${req.verification_id}`)).body, first.body);
      assert.equal((await status('verification_id=never_seen')).status, 404);
    });
  });

  describe('magic mobiles', () => {
    it('9000000000 has no linked account: INVALID with no account fields', async () => {
      const res = await pennyDrop(request('9000000000', { name: 'John Doe' }));
      assert.equal(res.status, 200);
      assert.deepEqual(Object.keys(res.body), SAMPLE_KEYS);
      assert.equal(res.body.status, 'INVALID');
      for (const k of ['ifsc', 'vpa', 'account_type', 'name_at_bank', 'utr', 'bank_account', 'name_match_score', 'name_match_result', 'ifsc_details']) assert.equal(res.body[k], null, k);
    });

    it('9000000001 errors with the documented 500, every time, and creates nothing', async () => {
      const req = request('9000000001');
      for (let i = 0; i < 2; i++) {
        const res = await pennyDrop(req);
        assert.equal(res.status, 500);
        assert.deepEqual(res.body, { type: 'api_error', code: 'internal_server_error', message: "Error at cashfree's server" });
      }
      assert.equal((await status(`verification_id=${req.verification_id}`)).status, 404);
    });

    it('9000000002 is PENDING, then VALID; 9000000003 is PENDING, then INVALID', async () => {
      const ok = request('9000000002');
      const no = request('9000000003');
      for (const r of [ok, no]) {
        const res = await pennyDrop(r);
        assert.equal(res.body.status, 'PENDING');
        assert.equal(res.body.ifsc, null);
        assert.equal(res.body.utr, null);
      }
      const done = await waitFor(async () => {
        const b = (await status(`verification_id=${ok.verification_id}`)).body;
        return b.status !== 'PENDING' && b;
      });
      assert.equal(done.status, 'VALID');
      assert.ok(ifscExists(done.ifsc));
      const failed = await waitFor(async () => {
        const b = (await status(`verification_id=${no.verification_id}`)).body;
        return b.status !== 'PENDING' && b;
      });
      assert.equal(failed.status, 'INVALID');
      const hist = (await admin('GET', '/_sim/verifications')).body.verifications.find((v: any) => v.verification_id === ok.verification_id).history;
      assert.deepEqual(hist.map((h: any) => h.status), ['PENDING', 'VALID']);
      assert.deepEqual((await admin('GET', '/_sim/magic')).body['9000000002'], { kind: 'pending', then: 'valid' });
    });
  });

  describe('faults', () => {
    it('error_next answers the 5xx before doing anything; error_status picks it', async () => {
      await admin('POST', '/_sim/faults', { error_next: 1, error_status: 503 });
      const req = request('9876500001');
      const res = await pennyDrop(req);
      assert.equal(res.status, 503);
      assert.deepEqual(res.body, { type: 'api_error', code: 'internal_server_error', message: "Error at cashfree's server" });
      assert.equal((await status(`verification_id=${req.verification_id}`)).status, 404, 'nothing was done');
      assert.equal((await pennyDrop(req)).status, 200, 'a retry goes through');
    });

    it('error_after_accept_next does the penny drop, then answers 500: the retry is a 409 and the status call has the answer', async () => {
      emu.setFaults({ error_after_accept_next: 1 });
      const req = request('9876500002');
      const res = await pennyDrop(req);
      assert.equal(res.status, 500);
      assert.equal((await pennyDrop(req)).status, 409);
      const b = (await status(`verification_id=${req.verification_id}`)).body;
      assert.equal(b.status, 'VALID');
      const mine = emu.verifications().filter((v) => v.input.verification_id === req.verification_id);
      assert.equal(mine.length, 1);
      assert.equal(mine[0]!.requests, 2);
    });

    it('timeout_next hangs for timeout_ms then answers; throttle_next answers 429; scope create spares other calls', async () => {
      await admin('POST', '/_sim/faults', { timeout_next: 1, timeout_ms: 150 });
      const t0 = Date.now();
      const slow = await pennyDrop(request('9876500003'));
      assert.ok(Date.now() - t0 >= 140, 'hung for timeout_ms');
      assert.equal(slow.status, 200);

      await admin('POST', '/_sim/faults', { throttle_next: 1, scope: 'create' });
      assert.equal((await call('GET', '/mobile/penny-drops')).status, 404, 'another call does not consume a create-scoped fault');
      const limited = await pennyDrop(request('9876500004'));
      assert.equal(limited.status, 429);
      assert.deepEqual(Object.keys(limited.body).sort(), ['code', 'message', 'type']);
      assert.equal((await admin('GET', '/_sim/faults')).body.throttle_next, 0);

      assert.equal((await admin('POST', '/_sim/faults', { nonsense: 1 })).status, 400);
      assert.equal((await admin('POST', '/_sim/faults', { error_status: 418 })).status, 400);
      assert.equal((await admin('POST', '/_sim/faults', { timeout_ms: -1 })).status, 400);
    });
  });

  it('runs from the CLI and prints the URL, keys and SANGAM_PARTNER_CASHFREEVRS_* variables', async () => {
    const { child, printed } = await startCli(['--kind', 'cashfree-verification', '--port', '0', '--client-id', 'cli_id', '--latency-ms', '0']);
    try {
      assert.equal(printed.kind, 'cashfree-verification');
      assert.match(printed.url, /^http:\/\/127\.0\.0\.1:\d+\/verification$/);
      assert.deepEqual(printed.env, {
        SANGAM_PARTNER_CASHFREEVRS_KIND: 'cashfree-verification',
        SANGAM_PARTNER_CASHFREEVRS_URL: printed.url,
        SANGAM_PARTNER_CASHFREEVRS_CLIENT_ID: 'cli_id',
        SANGAM_PARTNER_CASHFREEVRS_CLIENT_SECRET: printed.client_secret,
        SANGAM_PARTNER_CASHFREEVRS_API_VERSION: '2024-12-01',
      });
      const res = await fetch(`${printed.url}/mobile/penny-drop`, {
        method: 'POST',
        headers: { 'x-client-id': 'cli_id', 'x-client-secret': printed.client_secret, 'x-api-version': printed.api_version, 'content-type': 'application/json' },
        body: JSON.stringify(request('9876543210')),
      });
      assert.equal(((await res.json()) as any).status, 'VALID');
    } finally {
      child.kill('SIGTERM');
    }
    assert.equal((await refusedCli(['--kind', 'cashfree-verification', '--token', 'x'])).code, 2, '--token belongs to surepass-signature');
  });
});
