// The Cashfree Payouts V2 emulator over real HTTP on loopback: x-client-id/x-client-secret auth, the
// documented validation errors, transfer_id idempotency, the status lifecycle steered by magic VPAs,
// Webhooks V2 verified with node:crypto exactly as Cashfree documents (base64 HMAC-SHA256 of timestamp +
// raw body under the client secret), and every fault switch. No database: the emulator is in-memory.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import { type Received, startCli, waitFor, emulatorWithReceiver, type Receiver } from '../common/testing.js';
import { startCashfreePayoutsEmulator, type CashfreePayoutsEmulator } from './index.js';

const CLIENT_SECRET = 'test_client_secret';
const RECEIVED_DESCRIPTION =
  'The transfer has been received by Cashfree successfully for further processing. You should use Check Status API response or Webhooks to know the terminal state of the transfer request.';

/** Exactly the documented recipe: signatureData = timestamp + rawBody; HMAC SHA256; Base64. */
const verify = (r: Received, secret = CLIENT_SECRET) =>
  createHmac('sha256', secret).update(String(r.headers['x-webhook-timestamp']) + r.raw).digest('base64') === r.headers['x-webhook-signature'];

let seq = 0;
const newTransferId = () => `SANGAM_${Date.now().toString(36)}_${++seq}_${randomBytes(3).toString('hex')}`;

describe('Cashfree Payouts V2 emulator', () => {
  let emu: CashfreePayoutsEmulator;
  let hook: Receiver;
  let creds: Record<string, string>;

  emulatorWithReceiver('/partners/cashfree/webhooks', (url) => startCashfreePayoutsEmulator({ latencyMs: 0, pendingMs: 40, clientSecret: CLIENT_SECRET, webhookUrl: url, webhookRetryBaseMs: 20, webhookAttempts: 3, rateLimitPerMinute: 10_000 }), async (e, h) => {
    emu = e;
    hook = h;
    creds = { 'x-client-id': emu.settings.clientId, 'x-client-secret': CLIENT_SECRET, 'x-api-version': '2024-01-01' };
  });

  async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = creds): Promise<{ status: number; body: any; headers: Headers }> {
    const res = await fetch(emu.origin + path, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: res.status, body: await res.json(), headers: res.headers };
  }
  const admin = (method: string, path: string, body?: unknown) => call(method, path, body, {});
  const transferBody = (vpa: string, extra: Record<string, unknown> = {}) => ({
    transfer_id: newTransferId(),
    transfer_amount: 1,
    transfer_mode: 'upi',
    beneficiary_details: { beneficiary_name: 'John Doe', beneficiary_instrument_details: { vpa } },
    transfer_remarks: 'sangam payout',
    ...extra,
  });
  const create = (body: unknown) => call('POST', '/payout/transfers', body);
  const status = (q: string) => call('GET', `/payout/transfers?${q}`);
  const eventsOf = (id: string) => hook.got.filter((g) => g.body.data.transfer_id === id);
  const ledgerOf = async (id: string) => (await admin('GET', '/_sim/transfers')).body.transfers.filter((t: any) => t.transfer_id === id);

  describe('authentication and headers', () => {
    it('answers 401 authentication_error without or with wrong x-client-id / x-client-secret', async () => {
      for (const headers of [{}, { 'x-client-id': emu.settings.clientId }, { ...creds, 'x-client-secret': 'wrong' }, { ...creds, 'x-client-id': 'other' }] as Record<string, string>[]) {
        const res = await call('GET', '/payout/transfers?transfer_id=X1', undefined, headers);
        assert.equal(res.status, 401, JSON.stringify(headers));
        assert.equal(res.body.type, 'authentication_error');
        assert.deepEqual(Object.keys(res.body).sort(), ['code', 'message', 'type']);
      }
      // Bearer tokens (V1) are not V2 credentials
      assert.equal((await call('GET', '/payout/transfers?transfer_id=X1', undefined, { authorization: 'Bearer eyJ0eXA' })).status, 401);
    });

    it('echoes x-request-id, sends the rate-limit headers, and refuses a malformed x-api-version', async () => {
      const res = await call('GET', '/payout/transfers?transfer_id=NOPE', undefined, { ...creds, 'x-request-id': 'req-123' });
      assert.equal(res.status, 404);
      assert.equal(res.headers.get('x-request-id'), 'req-123');
      assert.equal(res.headers.get('x-ratelimit-limit'), '10000');
      assert.match(String(res.headers.get('x-ratelimit-remaining')), /^\d+$/);
      assert.equal(res.headers.get('x-ratelimit-retry'), '0');
      // [P] Cashfree's OpenAPI: "blank or null if no x-request-id is sent" — never one made up.
      assert.equal((await call('GET', '/payout/transfers?transfer_id=NOPE')).headers.get('x-request-id') ?? '', '');
      const bad = await call('GET', '/payout/transfers?transfer_id=NOPE', undefined, { ...creds, 'x-api-version': 'v2' });
      assert.equal(bad.status, 400);
      assert.equal(bad.body.type, 'invalid_request_error');
      const { 'x-api-version': _omitted, ...noVersion } = creds;
      assert.equal((await call('GET', '/payout/transfers?transfer_id=NOPE', undefined, noVersion)).status, 404, 'a missing version means the default');
    });
  });

  describe('Standard Transfer V2: validation', () => {
    it('answers the documented 400 bodies, first broken rule first, and creates nothing', async () => {
      const before = (await admin('GET', '/_sim/transfers')).body.count;
      const ok = transferBody('john@upi');
      const { transfer_id: _id, ...noId } = ok;
      assert.deepEqual((await create(noId)).body, { type: 'invalid_request_error', code: 'transfer_id_missing', message: 'transfer_id is missing in the request' });
      const cases: Array<[Record<string, unknown>, string, string?]> = [
        [{ transfer_id: 'has-dash' }, 'transfer_id_invalid', 'transfer_id should be alphanumeric'],
        [{ transfer_id: 'X'.repeat(41) }, 'transfer_id_invalid'],
        [{ transfer_amount: undefined }, 'transfer_amount_missing'],
        [{ transfer_amount: 0.99 }, 'transfer_amount_invalid', 'transfer_amount should be greater then 1.00'],
        [{ transfer_amount: '10' }, 'transfer_amount_invalid'],
        [{ transfer_amount: 10.005 }, 'transfer_amount_invalid'],
        [{ transfer_currency: 'USD' }, 'transfer_currency_invalid'],
        [{ transfer_mode: 'UPI_FAST' }, 'transfer_mode_invalid', 'transfer_mode is invalid, allowed values are : bank, imps, neft, rtgs, upi, paytm, amazonpay, card and cardupi'],
        [{ beneficiary_details: undefined }, 'beneficiary_details_missing'],
        [{ beneficiary_details: { beneficiary_instrument_details: { vpa: 'john@upi' } } }, 'beneficiary_details.beneficiary_name_missing'],
        [{ beneficiary_details: { beneficiary_name: 'John 2', beneficiary_instrument_details: { vpa: 'john@upi' } } }, 'beneficiary_details.beneficiary_name_invalid'],
        [{ beneficiary_details: { beneficiary_name: 'John' } }, 'beneficiary_details.beneficiary_instrument_details.vpa_missing'],
        [{ beneficiary_details: { beneficiary_name: 'John', beneficiary_instrument_details: { vpa: 'john@up-i' } } }, 'beneficiary_details.beneficiary_instrument_details.vpa_invalid', 'vpa is in invalid format'],
        [{ beneficiary_details: { beneficiary_name: 'John', beneficiary_instrument_details: { vpa: 'no-at-sign' } } }, 'beneficiary_details.beneficiary_instrument_details.vpa_invalid'],
        [{ beneficiary_details: { beneficiary_id: 'bad-id' } }, 'beneficiary_details.beneficiary_id_invalid'],
        [{ beneficiary_details: { beneficiary_id: 'UNKNOWN1' } }, 'beneficiary_details.beneficiary_id_invalid'],
        [{ beneficiary_details: { ...ok.beneficiary_details, beneficiary_contact_details: { beneficiary_phone: '12345' } } }, 'beneficiary_details.beneficiary_contact_details.beneficiary_phone_invalid'],
        [{ beneficiary_details: { ...ok.beneficiary_details, beneficiary_contact_details: { beneficiary_postal_code: '5600' } } }, 'beneficiary_details.beneficiary_contact_details.beneficiary_postal_code_invalid'],
        [{ transfer_remarks: 'x'.repeat(71) }, 'transfer_remarks_invalid'],
        [{ transfer_remarks: 'no-dashes' }, 'transfer_remarks_invalid'],
        [{ fundsource_id: 'OTHER_1' }, 'fundsource_id_invalid'],
      ];
      for (const [extra, code, message] of cases) {
        const res = await create({ ...ok, ...extra });
        assert.equal(res.status, 400, JSON.stringify(extra));
        assert.equal(res.body.type, 'invalid_request_error');
        assert.equal(res.body.code, code, JSON.stringify(extra));
        if (message) assert.equal(res.body.message, message);
      }
      const notJson = await create('{"transfer_id": ');
      assert.equal(notJson.status, 400);
      assert.equal(notJson.body.type, 'invalid_request_error');
      assert.equal((await admin('GET', '/_sim/transfers')).body.count, before);
    });
  });

  describe('Standard Transfer V2: create, status and idempotency', () => {
    it('answers RECEIVED with the documented fields; status by transfer_id and by cf_transfer_id', async () => {
      const body = transferBody('john.doe@okaxis', { transfer_amount: 12.5 });
      const res = await create(body);
      assert.equal(res.status, 200);
      const t = res.body;
      assert.equal(t.transfer_id, body.transfer_id);
      assert.match(t.cf_transfer_id, /^[1-9]\d{7}$/);
      assert.equal(t.status, 'RECEIVED');
      assert.equal(t.status_code, 'RECEIVED');
      assert.equal(t.status_description, RECEIVED_DESCRIPTION);
      assert.deepEqual(t.beneficiary_details, { beneficiary_instrument_details: { vpa: 'john.doe@okaxis' } });
      assert.equal(t.transfer_amount, 12.5);
      assert.equal(t.transfer_mode, 'upi');
      assert.equal(t.fundsource_id, 'CASHFREE_1');
      assert.match(t.added_on, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      assert.equal(t.transfer_utr, undefined);
      assert.deepEqual((await status(`transfer_id=${t.transfer_id}`)).body, t);
      assert.deepEqual((await status(`cf_transfer_id=${t.cf_transfer_id}`)).body.transfer_id, t.transfer_id);
      assert.equal((await status(`transfer_id=${t.transfer_id}&cf_transfer_id=1`)).status, 404, 'both ids must name the same transfer');
      const none = await status('');
      assert.equal(none.status, 400);
      assert.equal(none.body.code, 'transfer_id_missing');
      const unknown = await status('transfer_id=NEVER_MADE');
      assert.equal(unknown.status, 404);
      assert.deepEqual(Object.keys(unknown.body).sort(), ['code', 'message', 'type']);
      const [listed] = await ledgerOf(t.transfer_id);
      assert.equal(listed.api_version, '2024-01-01');
      assert.equal(listed.beneficiary_name, 'John Doe');
      assert.equal(listed.transfer_remarks, 'sangam payout');
    });

    it('same transfer_id and body answers the same transfer; a different body is 409; it is paid once', async () => {
      const body = transferBody('same.id@ybl');
      const first = await create(body);
      await waitFor(async () => (await status(`transfer_id=${body.transfer_id}`)).body.status_code === 'COMPLETED');
      const replay = await create(body);
      assert.equal(replay.status, 200);
      assert.equal(replay.body.cf_transfer_id, first.body.cf_transfer_id);
      assert.equal(replay.body.status_code, 'COMPLETED', 'the transfer as it is now');
      // key order does not matter, values do
      const reordered = Object.fromEntries(Object.entries(body).reverse());
      assert.equal((await create(reordered)).body.cf_transfer_id, first.body.cf_transfer_id);
      const conflict = await create({ ...body, transfer_amount: 2 });
      assert.equal(conflict.status, 409);
      assert.deepEqual(conflict.body, { type: 'invalid_request_error', code: 'transfer_id_already_exists', message: `Transfer with transfer_id ${body.transfer_id} already exists` });
      const rows = await ledgerOf(body.transfer_id);
      assert.equal(rows.length, 1);
      assert.equal(rows[0].requests, 4);
      assert.equal(rows[0].transfer_amount, 1);
      assert.equal(eventsOf(body.transfer_id).filter((e) => e.body.type === 'TRANSFER_SUCCESS').length, 1);
    });

    it('conflict_on_replay makes a same-body repeat a 409 too; a refused request records nothing', async () => {
      const body = transferBody('strict@ybl');
      assert.equal((await create({ ...body, transfer_amount: 0.5 })).status, 400);
      assert.equal((await create(body)).status, 200, 'a corrected retry under the same id goes through');
      await admin('POST', '/_sim/faults', { conflict_on_replay: true });
      const again = await create(body);
      assert.equal(again.status, 409);
      assert.equal(again.body.code, 'transfer_id_already_exists');
      assert.equal((await ledgerOf(body.transfer_id)).length, 1);
    });

    it('pays a pre-created beneficiary by beneficiary_id; a VPA that does not match it is the documented error', async () => {
      assert.equal((await admin('POST', '/_sim/beneficiaries', { beneficiary_id: 'JOHN18011', beneficiary_name: 'John Doe', vpa: 'john18011@upi' })).status, 201);
      const byId = await create({ transfer_id: newTransferId(), transfer_amount: 1, transfer_mode: 'upi', beneficiary_details: { beneficiary_id: 'JOHN18011' } });
      assert.equal(byId.status, 200);
      assert.deepEqual(byId.body.beneficiary_details, { beneficiary_id: 'JOHN18011', beneficiary_instrument_details: { vpa: 'john18011@upi' } });
      const mismatch = await create({ transfer_id: newTransferId(), transfer_amount: 1, transfer_mode: 'upi', beneficiary_details: { beneficiary_id: 'JOHN18011', beneficiary_instrument_details: { vpa: 'other@upi' } } });
      assert.equal(mismatch.status, 400);
      assert.deepEqual(mismatch.body, {
        type: 'invalid_request_error',
        code: 'beneficiary_details.beneficiary_instrument_details.vpa_invalid',
        message: 'Vpa passed in the request does not match with the beneficiary with beneficiary_id :: JOHN18011',
      });
    });
  });

  describe('lifecycle and Webhooks V2', () => {
    it('an ordinary VPA: RECEIVED → SUCCESS/SENT_TO_BENEFICIARY (utr) → SUCCESS/COMPLETED, with signed TRANSFER_SUCCESS and TRANSFER_ACKNOWLEDGED', async () => {
      const body = transferBody('success@upi');
      const created = (await create(body)).body;
      const events = await waitFor(() => eventsOf(body.transfer_id).length >= 2 && eventsOf(body.transfer_id));
      assert.deepEqual(events.map((e) => e.body.type), ['TRANSFER_SUCCESS', 'TRANSFER_ACKNOWLEDGED']);
      assert.deepEqual(events.map((e) => [e.body.data.status, e.body.data.status_code]), [['SUCCESS', 'SENT_TO_BENEFICIARY'], ['SUCCESS', 'COMPLETED']]);
      for (const e of events) {
        assert.ok(verify(e), 'base64 HMAC-SHA256 of timestamp + raw body under the client secret');
        assert.match(String(e.headers['x-webhook-timestamp']), /^\d{13}$/);
        assert.ok(Math.abs(Number(e.headers['x-webhook-timestamp']) - Date.now()) < 5000);
        assert.equal(e.headers['x-webhook-attempt'], '1');
        assert.equal(e.headers['x-webhook-version'], '2024-01-01');
        assert.equal(e.headers['content-type'], 'application/json');
        assert.deepEqual(Object.keys(e.body), ['data', 'event_time', 'type']);
        assert.match(e.body.event_time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
        assert.equal(e.body.data.cf_transfer_id, created.cf_transfer_id);
        assert.equal(e.body.data.transfer_amount, 1);
        assert.equal(e.body.data.transfer_mode, 'upi');
      }
      const done = (await status(`transfer_id=${body.transfer_id}`)).body;
      assert.equal(done.status_code, 'COMPLETED');
      assert.match(done.transfer_utr, /^\d{16}$/);
      assert.equal(events[0]!.body.data.transfer_utr, done.transfer_utr);
      assert.equal(done.transfer_service_charge, 0);
      const history = (await ledgerOf(body.transfer_id))[0].history.map((h: any) => h.status_code);
      assert.deepEqual(history, ['RECEIVED', 'SENT_TO_BENEFICIARY', 'COMPLETED']);
    });

    it('steers outcomes by VPA username, by transfer_mode and by balance', async () => {
      const cases: Array<[string, Record<string, unknown>, string[], string[], string]> = [
        ['pending.1@ybl', {}, ['PENDING', 'SENT_TO_BENEFICIARY', 'COMPLETED'], ['TRANSFER_SUCCESS', 'TRANSFER_ACKNOWLEDGED'], 'SUCCESS'],
        ['pendingfail@ybl', {}, ['PENDING', 'IMPS_MODE_FAIL'], ['TRANSFER_FAILED'], 'FAILED'],
        ['failure@ybl', {}, ['IMPS_MODE_FAIL'], ['TRANSFER_FAILED'], 'FAILED'],
        ['Invalid-x@ybl', {}, ['INVALID_BENE_VPA'], ['TRANSFER_FAILED'], 'FAILED'],
        ['reverse@ybl', {}, ['SENT_TO_BENEFICIARY', 'INVALID_ACCOUNT_FAIL'], ['TRANSFER_SUCCESS', 'TRANSFER_REVERSED'], 'REVERSED'],
        ['rejected@ybl', {}, ['BENE_BLACKLISTED'], ['TRANSFER_REJECTED'], 'REJECTED'],
        ['velocity@ybl', {}, ['VELOCITY_CHECK_FAILED'], ['TRANSFER_REJECTED'], 'REJECTED'],
        ['approval@ybl', {}, ['APPROVAL_PENDING', 'QUEUED', 'SENT_TO_BENEFICIARY', 'COMPLETED'], ['TRANSFER_APPROVED', 'TRANSFER_SUCCESS', 'TRANSFER_ACKNOWLEDGED'], 'SUCCESS'],
        ['denied@ybl', {}, ['APPROVAL_PENDING', 'MANUALLY_REJECTED'], ['TRANSFER_REJECTED'], 'MANUALLY_REJECTED'],
        ['bankmode@ybl', { transfer_mode: undefined }, ['INVALID_MODE_FOR_PYID'], ['TRANSFER_REJECTED'], 'REJECTED'],
        ['rich@ybl', { transfer_amount: 200_000_000 }, ['INSUFFICIENT_BALANCE'], ['TRANSFER_FAILED'], 'FAILED'],
      ];
      await Promise.all(
        cases.map(async ([vpa, extra, codes, events, final]) => {
          const body = transferBody(vpa, extra);
          assert.equal((await create(body)).body.status, 'RECEIVED', vpa);
          const got = await waitFor(() => eventsOf(body.transfer_id).length >= events.length && eventsOf(body.transfer_id));
          assert.deepEqual(got.map((e) => e.body.type), events, vpa);
          assert.ok(got.every((e) => verify(e)), vpa);
          const now = (await status(`transfer_id=${body.transfer_id}`)).body;
          assert.equal(now.status, final, vpa);
          assert.equal(now.status_code, codes.at(-1), vpa);
          assert.equal(typeof now.status_description, 'string');
          const history = (await ledgerOf(body.transfer_id))[0].history.map((h: any) => h.status_code);
          assert.deepEqual(history, ['RECEIVED', ...codes], vpa);
        }),
      );
    });

    it('refunds the fund source on failure and reversal, never on success', async () => {
      const start = (await admin('GET', '/_sim/balance')).body.balance_paise;
      const ok = transferBody('refund.ok@ybl', { transfer_amount: 100.25 });
      const rev = transferBody('reverse.refund@ybl', { transfer_amount: 50 });
      await create(ok);
      await create(rev);
      assert.equal((await admin('GET', '/_sim/balance')).body.balance_paise, start - 10025 - 5000);
      await waitFor(async () => (await status(`transfer_id=${rev.transfer_id}`)).body.status === 'REVERSED');
      await waitFor(async () => (await status(`transfer_id=${ok.transfer_id}`)).body.status_code === 'COMPLETED');
      assert.equal((await admin('GET', '/_sim/balance')).body.balance_paise, start - 10025);
    });

    it('hold@ stays PENDING until /_sim settles it; impossible moves are 409', async () => {
      const body = transferBody('hold@ybl');
      await create(body);
      await new Promise((r) => setTimeout(r, 150));
      assert.equal((await status(`transfer_id=${body.transfer_id}`)).body.status, 'PENDING');
      assert.equal((await admin('POST', `/_sim/transfers/${body.transfer_id}/settle`, { status: 'REVERSED' })).status, 409);
      const settled = await admin('POST', `/_sim/transfers/${body.transfer_id}/settle`, { status: 'FAILED', status_code: 'INVALID_BENE_VPA' });
      assert.equal(settled.status, 200);
      assert.equal(settled.body.status_code, 'INVALID_BENE_VPA');
      const [e] = await waitFor(() => eventsOf(body.transfer_id).length >= 1 && eventsOf(body.transfer_id));
      assert.equal(e!.body.type, 'TRANSFER_FAILED');
      assert.equal((await admin('POST', `/_sim/transfers/${body.transfer_id}/settle`, { status: 'SUCCESS' })).status, 409);
      assert.equal((await admin('POST', '/_sim/transfers/NOPE/settle', { status: 'SUCCESS' })).status, 404);
      assert.equal((await admin('POST', `/_sim/transfers/${body.transfer_id}/settle`, { status: 'DONE' })).status, 400);
    });
  });

  describe('faults', () => {
    it('error_next answers the documented 500 before doing anything; the retry creates the transfer once', async () => {
      await admin('POST', '/_sim/faults', { error_next: 1, scope: 'create_transfer' });
      assert.equal((await status('transfer_id=SPARED')).status, 404, 'scope create_transfer spares the status API');
      const body = transferBody('err.next@ybl');
      const failed = await create(body);
      assert.equal(failed.status, 500);
      assert.deepEqual(failed.body, { type: 'api_error', code: 'internal_server_error', message: "Error at cashfree's server" });
      assert.equal((await ledgerOf(body.transfer_id)).length, 0, 'nothing happened');
      assert.equal((await create(body)).status, 200);
      assert.equal((await ledgerOf(body.transfer_id))[0].requests, 1);
    });

    it('error_after_accept_next creates the transfer, answers 5xx; the same transfer_id then answers that transfer', async () => {
      await admin('POST', '/_sim/faults', { error_after_accept_next: 1, error_status: 503 });
      const body = transferBody('after.accept@ybl');
      assert.equal((await create(body)).status, 503);
      const [made] = await ledgerOf(body.transfer_id);
      assert.ok(made, 'the transfer exists although the client saw an error');
      const checked = await status(`transfer_id=${body.transfer_id}`);
      assert.equal(checked.body.cf_transfer_id, made.cf_transfer_id, 'check status first, as the docs say');
      const retry = await create(body);
      assert.equal(retry.status, 200);
      assert.equal(retry.body.cf_transfer_id, made.cf_transfer_id);
      const rows = await ledgerOf(body.transfer_id);
      assert.equal(rows.length, 1);
      assert.equal(rows[0].requests, 2);
    });

    it('timeout_next hangs for timeout_ms; throttle_next answers 429 with x-ratelimit-retry; apis_not_enabled is the documented 403', async () => {
      await admin('POST', '/_sim/faults', { timeout_next: 1, timeout_ms: 150 });
      const t0 = Date.now();
      assert.equal((await status('transfer_id=SLOW')).status, 404);
      assert.ok(Date.now() - t0 >= 140, 'hung for timeout_ms');
      await admin('POST', '/_sim/faults', { throttle_next: 1 });
      const throttled = await status('transfer_id=T');
      assert.equal(throttled.status, 429);
      assert.equal(throttled.body.type, 'rate_limit_error');
      assert.match(String(throttled.headers.get('x-ratelimit-retry')), /^([1-9]|[1-5]\d)$/);
      assert.equal((await status('transfer_id=T')).status, 404);
      await admin('POST', '/_sim/faults', { apis_not_enabled: true });
      const off = await create(transferBody('off@ybl'));
      assert.equal(off.status, 403);
      assert.equal(off.body.type, 'invalid_request_error');
      assert.equal(off.body.code, 'apis_not_enabled');
      assert.match(off.body.message, /^APIs not enabled\. Please fill out the \[Support Form\]\(/);
      assert.equal((await admin('POST', '/_sim/faults', { nonsense: 1 })).status, 400);
      assert.equal((await admin('POST', '/_sim/faults', { error_status: 418 })).status, 400);
      assert.equal((await admin('GET', '/_sim/faults')).body.apis_not_enabled, true);
    });

    it('duplicate_webhooks delivers each event twice byte for byte; bad_signature fails verification', async () => {
      await admin('POST', '/_sim/faults', { duplicate_webhooks: true, bad_signature: true });
      const body = transferBody('dupes@ybl');
      await create(body);
      const got = await waitFor(() => eventsOf(body.transfer_id).length >= 4 && eventsOf(body.transfer_id));
      assert.deepEqual(got.map((e) => e.body.type), ['TRANSFER_SUCCESS', 'TRANSFER_SUCCESS', 'TRANSFER_ACKNOWLEDGED', 'TRANSFER_ACKNOWLEDGED']);
      assert.equal(got[0]!.raw, got[1]!.raw);
      assert.equal(got[0]!.headers['x-webhook-signature'], got[1]!.headers['x-webhook-signature']);
      assert.ok(got.every((e) => !verify(e)));
    });

    it('out_of_order delivers the final event first; webhook_delay_ms delays; webhook_timestamp_skew_ms backdates a valid signature', async () => {
      await admin('POST', '/_sim/faults', { out_of_order: true, webhook_delay_ms: 100, webhook_timestamp_skew_ms: 600_000 });
      const t0 = Date.now();
      const body = transferBody('reverse.shuffled@ybl');
      await create(body);
      const got = await waitFor(() => eventsOf(body.transfer_id).length >= 2 && eventsOf(body.transfer_id));
      assert.deepEqual(got.map((e) => e.body.type), ['TRANSFER_REVERSED', 'TRANSFER_SUCCESS']);
      assert.equal(got[1]!.body.data.status, 'SUCCESS', 'the stale event carries the old state');
      assert.ok(Date.now() - t0 >= 180, 'two stages plus the delay');
      assert.ok(got.every((e) => verify(e)));
      assert.ok(got.every((e) => Date.now() - Number(e.headers['x-webhook-timestamp']) >= 600_000));
    });

    it('drop_webhooks sends nothing; a receiver answering non-2xx gets retries with attempt + 1 and a fresh signature', async () => {
      await admin('POST', '/_sim/faults', { drop_webhooks: true });
      const dropped = transferBody('dropped@ybl');
      await create(dropped);
      await waitFor(async () => (await status(`transfer_id=${dropped.transfer_id}`)).body.status_code === 'COMPLETED');
      const log = (await admin('GET', '/_sim/webhooks')).body.deliveries.filter((d: any) => d.transfer_id === dropped.transfer_id);
      assert.deepEqual(log.map((d: any) => d.outcome), ['dropped', 'dropped']);
      assert.equal(eventsOf(dropped.transfer_id).length, 0);

      emu.setFaults({});
      hook.status.code = 500;
      const refused = transferBody('refused@ybl');
      await create(refused);
      const tries = await waitFor(() => {
        const e = eventsOf(refused.transfer_id).filter((x) => x.body.type === 'TRANSFER_SUCCESS');
        return e.length >= 3 && e;
      });
      assert.deepEqual(tries.map((e) => e.headers['x-webhook-attempt']), ['1', '2', '3']);
      assert.ok(tries.every((e) => verify(e) && e.raw === tries[0]!.raw));
      const attempts = (await admin('GET', '/_sim/webhooks')).body.deliveries.filter((d: any) => d.transfer_id === refused.transfer_id && d.type === 'TRANSFER_SUCCESS');
      assert.deepEqual(attempts.map((d: any) => [d.attempt, d.outcome, d.http_status]).slice(0, 3), [[1, 'rejected', 500], [2, 'rejected', 500], [3, 'rejected', 500]]);
    });

    it('POST /_sim/webhook changes where events go', async () => {
      assert.equal((await admin('POST', '/_sim/webhook', { url: null })).status, 200);
      const body = transferBody('nowhere@ybl');
      await create(body);
      await waitFor(async () => (await admin('GET', '/_sim/webhooks')).body.deliveries.some((d: any) => d.transfer_id === body.transfer_id && d.outcome === 'no_url'));
      await admin('POST', '/_sim/webhook', { url: hook.url });
      assert.equal((await admin('POST', '/_sim/webhook', { url: 'not a url' })).status, 400);
      assert.equal((await admin('GET', '/_sim/webhook')).body.url, hook.url);
    });
  });

  it('enforces the per-minute rate limit with x-ratelimit-* headers', async () => {
    const small = await startCashfreePayoutsEmulator({ latencyMs: 0, rateLimitPerMinute: 2 });
    try {
      const headers = { 'x-client-id': small.settings.clientId, 'x-client-secret': small.settings.clientSecret };
      const get = () => fetch(`${small.url}/transfers?transfer_id=X`, { headers });
      const a = await get();
      assert.equal(a.headers.get('x-ratelimit-remaining'), '1');
      assert.equal((await get()).headers.get('x-ratelimit-remaining'), '0');
      const c = await get();
      assert.equal(c.status, 429);
      assert.match(String(c.headers.get('x-ratelimit-retry')), /^([1-9]|[1-5]\d)$/);
      assert.equal(((await c.json()) as any).type, 'rate_limit_error');
    } finally {
      await small.close();
    }
  });
});

describe('sangam partner-sim --kind cashfree-payouts', () => {
  it('starts the emulator and prints its settings and the SANGAM_PARTNER_CASHFREE_* variables', async () => {
    const { child, printed: out } = await startCli(['--kind', 'cashfree-payouts', '--port', '0', '--client-id', 'CLI_ID', '--client-secret', 'cli_secret', '--latency-ms', '0']);
    try {
      assert.equal(out.kind, 'cashfree-payouts');
      assert.match(out.url, /\/payout$/);
      assert.deepEqual(out.env, {
        SANGAM_PARTNER_CASHFREE_KIND: 'cashfree-payouts',
        SANGAM_PARTNER_CASHFREE_URL: out.url,
        SANGAM_PARTNER_CASHFREE_CLIENT_ID: 'CLI_ID',
        SANGAM_PARTNER_CASHFREE_CLIENT_SECRET: 'cli_secret',
      });
      const res = await fetch(`${out.url}/transfers`, {
        method: 'POST',
        headers: { 'x-client-id': 'CLI_ID', 'x-client-secret': 'cli_secret', 'x-api-version': '2024-01-01', 'content-type': 'application/json' },
        body: JSON.stringify({ transfer_id: 'CLI_0001', transfer_amount: 1, transfer_mode: 'upi', beneficiary_details: { beneficiary_name: 'John Doe', beneficiary_instrument_details: { vpa: 'success@upi' } } }),
      });
      assert.equal(res.status, 200);
      assert.equal(((await res.json()) as any).status, 'RECEIVED');
    } finally {
      child.kill('SIGTERM');
    }
  });
});
