// The razorpayx connector's payee verifications (account-verification, vpa-verification; CONTRACT §14)
// against the RazorpayX emulator over real loopback HTTP, called directly (no Sangam core): every
// verdict of fund account validation, a pending settled by its signed webhook and by a status enquiry,
// a 5xx after the validation was made (pending, never sent again, found by our reference), refusals.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { person } from '../../../shared/people.js';
import { startRazorpayxEmulator, type RazorpayxEmulator } from '../../../partner-sim/razorpayx/index.js';
import { NoAnswer, PartnerError, type Connector, type OperationRequest, type PartnerContext, type PartnerOutcome, type PayeeResult } from '../connector.js';
import { createRazorpayx } from './index.js';

type Hook = { headers: IncomingHttpHeaders; raw: string };

describe('razorpayx connector: payee verification by fund account validation', () => {
  let emu: RazorpayxEmulator;
  let hooks: Server;
  const delivered: Hook[] = [];
  let n = 0;
  const txn = () => `txn_payee${Date.now().toString(36)}${n++}`;

  const ctxFor = (vars: Record<string, string> = {}): PartnerContext => {
    const s = emu.settings;
    return {
      name: 'rzp',
      url: emu.url,
      vars: { KEY_ID: s.keyId, KEY_SECRET: s.keySecret, ACCOUNT_NUMBER: s.accountNumber, FAV_ACCOUNT_NUMBER: s.liteAccountNumber, WEBHOOK_SECRET: s.webhookSecret, VALIDATION_WAIT_MS: '400', ...vars },
      webhookUrl: '',
      oauthCallbackUrl: '',
      timeoutFor: () => 2000,
      sessions: { get: async () => undefined, put: async () => undefined, delete: async () => undefined, keys: async () => [] },
    };
  };
  let rzp: Connector;
  const account = (accountNumber: string, ifsc = 'HDFC0000053'): OperationRequest => ({ operation: 'account-verification', txnId: txn(), accountNumber, ifsc });
  const vpa = (v: string): OperationRequest => ({ operation: 'vpa-verification', txnId: txn(), vpa: v });
  const bankOf = (o: PartnerOutcome): PayeeResult => (o as { bankAccount: PayeeResult }).bankAccount;
  const vpaOf = (o: PartnerOutcome): PayeeResult => (o as { vpa: PayeeResult }).vpa;
  const validationsMade = () => emu.requests().filter((q) => q.method === 'POST' && q.path === '/v1/fund_accounts/validations').length;
  const faults = (body: unknown) => fetch(`${emu.url}/_sim/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  before(async () => {
    hooks = createServer((req, res) => {
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
      req.on('end', () => {
        delivered.push({ headers: req.headers, raw });
        res.writeHead(200).end('{}');
      });
    });
    await new Promise<void>((r) => hooks.listen(0, '127.0.0.1', r));
    emu = await startRazorpayxEmulator({ latencyMs: 0, validationMs: 0, slowValidationMs: 1200, webhookUrl: `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/hooks` });
    rzp = createRazorpayx(ctxFor());
  });
  after(async () => {
    await rzp?.close?.();
    await emu?.close();
    await new Promise((r) => hooks?.close(r));
  });

  it('serves both verifications beside the UPI payout', () => {
    assert.deepEqual([...rzp.serves].sort(), ['account-verification', 'upi-payment-status', 'vpa-verification']);
  });

  it('a bank account that exists: success, valid, the bank’s name for its holder, a penny drop with its UTR', async () => {
    const o = await rzp.execute(account('50100012345678'));
    assert.equal(o.status, 'success');
    assert.match(o.partnerRef!, /^fav_/);
    const b = bankOf(o);
    assert.equal(b.status, 'valid');
    assert.equal(b.nameAtBank, person('account:HDFC0000053:50100012345678').name);
    assert.equal(b.method, 'penny_drop');
    assert.match(b.utr!, /^\d{12}$/);
  });

  it('a bank account that does not exist: success (the check was made, its fee paid), invalid with the reason, no UTR', async () => {
    const o = await rzp.execute(account('50100012345000'));
    assert.equal(o.status, 'success');
    const b = bankOf(o);
    assert.equal(b.status, 'invalid');
    assert.equal(b.nameAtBank, null);
    assert.match(b.reason!, /invalid/);
    assert.equal(b.utr, undefined);
  });

  it('a validation RazorpayX could not make: failed, status unknown, with its reason (never a guess)', async () => {
    const o = await rzp.execute(account('50100012345999'));
    assert.equal(o.status, 'failed');
    assert.equal(bankOf(o).status, 'unknown');
    assert.match(bankOf(o).reason!, /technical error/);
    const v = await rzp.execute(vpa('favfail@ybl'));
    assert.equal(v.status, 'failed');
    assert.equal(vpaOf(v).status, 'unknown');
  });

  it('a VPA: valid with its holder and the account behind it; invalid', async () => {
    const o = await rzp.execute(vpa('ramesh.kumar@okaxis'));
    assert.equal(o.status, 'success');
    assert.deepEqual({ ...vpaOf(o), ifsc: typeof vpaOf(o).ifsc }, { status: 'valid', nameAtBank: 'Ramesh Kumar', ifsc: 'string', accountType: 'savings' });
    const bad = await rzp.execute(vpa('invalid.user@ybl'));
    assert.equal(bad.status, 'success');
    assert.equal(vpaOf(bad).status, 'invalid');
  });

  it('still `created` after the wait: pending with the validation id; its signed webhook settles it', async () => {
    const req = vpa('favslow.meera@okhdfc');
    const o = await rzp.execute(req);
    assert.equal(o.status, 'pending');
    assert.equal(vpaOf(o).status, 'unknown');
    const id = o.partnerRef!;
    let hook: Hook | undefined;
    for (let i = 0; i < 60 && !hook; i++) {
      await new Promise((r) => setTimeout(r, 100));
      hook = delivered.find((h) => h.raw.includes(id));
    }
    assert.ok(hook, 'the emulator delivered fund_account.validation.completed');
    const events = await rzp.parseCallback!({ headers: hook.headers, rawBody: hook.raw });
    assert.equal(events.length, 1);
    assert.equal(events[0]!.txnId, req.txnId);
    assert.equal(events[0]!.partnerRef, id);
    assert.equal(events[0]!.eventId, hook.headers['x-razorpay-event-id']);
    assert.equal(events[0]!.outcome.status, 'success');
    assert.equal(vpaOf(events[0]!.outcome).nameAtBank, 'Favslow Meera');
    await assert.rejects(async () => rzp.parseCallback!({ headers: { ...hook.headers, 'x-razorpay-signature': '0'.repeat(64) }, rawBody: hook.raw }), /does not verify/);
  });

  it('still `created` after the wait: a status enquiry by the validation id settles it', async () => {
    const req = account('50100012345888');
    const o = await rzp.execute(req);
    assert.equal(o.status, 'pending');
    const ref = { txnId: req.txnId, operation: req.operation, partnerRef: o.partnerRef!, amountPaise: null, commissionPaise: 0 };
    assert.equal((await rzp.status!(ref))!.outcome.status, 'pending');
    await new Promise((r) => setTimeout(r, 1300));
    const r = (await rzp.status!(ref))!;
    assert.equal(r.txnId, req.txnId);
    assert.equal(r.outcome.status, 'success');
    assert.equal(bankOf(r.outcome).status, 'valid');
  });

  it('a 5xx after RazorpayX made the validation: NoAnswer (pending), never sent again; the enquiry finds it by our reference', async () => {
    await faults({ error_after_accept_next: 1, error_status: 503, scope: 'validate' });
    const before = validationsMade();
    const req = account('50100099990001');
    await assert.rejects(
      () => rzp.execute(req),
      (e: unknown) => e instanceof NoAnswer && e.outcome.status === 'pending' && bankOf(e.outcome).status === 'unknown',
    );
    assert.equal(validationsMade(), before + 1, 'one create, no replay');
    const r = (await rzp.status!({ txnId: req.txnId, operation: req.operation, partnerRef: null, amountPaise: null, commissionPaise: 0 }))!;
    assert.equal(r.outcome.status, 'success');
    assert.match(r.partnerRef!, /^fav_/);
    assert.equal(validationsMade(), before + 1, 'the enquiry made nothing');
  });

  it('nothing under our reference, or an unknown validation id (the documented 400): null', async () => {
    assert.equal(await rzp.status!({ txnId: 'txn_neverSent', operation: 'vpa-verification', partnerRef: null, amountPaise: null, commissionPaise: 0 }), null);
    assert.equal(await rzp.status!({ txnId: 'txn_neverSent', operation: 'vpa-verification', partnerRef: 'fav_00000000000000', amountPaise: null, commissionPaise: 0 }), null);
  });

  it('refusals are PartnerErrors with nothing validated: wrong credentials (401), an IFSC RazorpayX refuses (400), an input it documents it refuses', async () => {
    const before = emu.validations().length;
    const wrong = createRazorpayx(ctxFor({ KEY_SECRET: 'not_the_secret' }));
    try {
      await assert.rejects(() => wrong.execute(vpa('ramesh.kumar@okaxis')), (e: unknown) => e instanceof PartnerError && /HTTP 401/.test(e.message));
    } finally {
      await wrong.close?.();
    }
    await assert.rejects(() => rzp.execute(account('50100012345678', 'ABCD0999999')), (e: unknown) => e instanceof PartnerError && /HTTP 400: The IFSC/.test(e.message));
    await assert.rejects(() => rzp.execute(account('12-34')), (e: unknown) => e instanceof PartnerError && /5 to 35/.test(e.message));
    assert.equal(emu.validations().length, before, 'no validation was made');
  });
});
