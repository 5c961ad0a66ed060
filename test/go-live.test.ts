// The self-serve go-live checklist (issue #26 item 5) over HTTP: the checklist's items turn done as the
// account fills them in (profile, consent notice, live allow-list, a verified live webhook endpoint,
// a successful sandbox call); submitting; maker-checker (the submitter cannot approve); a second admin's
// approval lets the live call through; a rejection with its reason shows in GET /api/v1/account/go-live;
// bad input is a 422 naming the field; every step is in the audit trail.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { runCommand } from '../src/admin/run.js';
import { eventually, PATHS, startApp, VALID, type TestApp } from './harness.js';
import { tlsReceiver, type TlsReceiver } from './tls-receiver.js';

type Session = { cookie: string; csrf: string };
type Item = { id: string; done: boolean; detail: string };
type OpState = { operation: string; status: string; ready: boolean; items: Item[]; submission: Record<string, string | null> | null };

const PROFILE = {
  legal_name: 'Acme Fintech Private Limited',
  address: '12 MG Road, Bengaluru 560001',
  website: 'https://acme.example',
  contact_name: 'Asha Rao',
  contact_email: 'compliance@acme.example',
  contact_phone: '+91 98450 00000',
  use_case: 'We compare the name a borrower typed with the name on their bank account before disbursing a loan.',
};

describe('go-live checklist', () => {
  let t: TestApp;
  let rx: TlsReceiver;
  let owner: Session; // the account's own admin: submits
  let dev: Session; // the account's user, not an admin
  let checker: Session; // a second admin
  before(async () => {
    rx = await tlsReceiver();
    t = await startApp({ SANGAM_WEBHOOK_ALLOW_PRIVATE: '1', SANGAM_WEBHOOK_POLL_MS: '30', SANGAM_WEBHOOK_CA_FILE: rx.caFile });
    const users = [
      ['owner@acme.test', '--admin', '--account', t.accountId],
      ['dev@acme.test', '--account', t.accountId],
      ['checker@sangam.test', '--admin'],
    ];
    for (const [email, ...rest] of users) assert.equal((await runCommand(t.store.db, ['users', 'create', '--email', email!, '--password', 'long password', ...rest])).code, 0);
    [owner, dev, checker] = (await Promise.all(users.map(([email]) => login(email!)))) as [Session, Session, Session];
  });
  after(async () => {
    await t.close();
    await rx.close();
  });

  async function login(email: string): Promise<Session> {
    const r = await t.app.inject({ method: 'POST', url: '/console/api/login', payload: { email, password: 'long password' } });
    assert.equal(r.statusCode, 200, r.body);
    return { cookie: String(r.headers['set-cookie']).split(';')[0]!, csrf: JSON.parse(r.body).data.csrf_token };
  }
  const as = async (s: Session, method: string, url: string, payload?: unknown) => {
    const r = await t.app.inject({ method: method as 'GET', url, payload: payload as object, headers: { cookie: s.cookie, 'x-csrf-token': s.csrf } });
    return { status: r.statusCode, body: JSON.parse(r.body) };
  };
  const state = async (op: string): Promise<OpState> => {
    const r = await t.call('GET', '/api/v1/account/go-live');
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.statuscode, 'TXN');
    return r.body.data.operations.find((o: OpState) => o.operation === op);
  };
  const done = async (op: string) => Object.fromEntries((await state(op)).items.map((i) => [i.id, i.done]));
  const fieldOf = (b: { data: { errors?: Array<{ field: string }> } }) => b.data.errors?.map((e) => e.field);

  it('starts with nothing done and the live call refused', async () => {
    const s = await state('name-match');
    assert.equal(s.status, 'not_submitted');
    assert.equal(s.ready, false);
    assert.deepEqual(s.items.map((i) => i.id), ['business_details', 'use_case', 'consent_notice', 'allowlist', 'webhook', 'sandbox_calls']);
    assert.ok(s.items.every((i) => !i.done && i.detail.length > 0));
    // Either key reads the same account-wide answer.
    assert.equal((await t.call('GET', '/api/v1/account/go-live', { key: t.liveKey })).status, 403, 'a live key with an empty allow-list is refused');
  });

  it('bad profile input is a 422 naming the field', async () => {
    for (const [body, field] of [
      [{ contact_email: 'not-an-address' }, 'contact_email'],
      [{ website: 'ftp://acme' }, 'website'],
      [{ legal_name: 42 }, 'legal_name'],
      [{ use_case: 'x'.repeat(4001) }, 'use_case'],
    ] as const) {
      const r = await as(dev, 'PUT', '/console/api/go-live/profile', body);
      assert.equal(r.status, 422, JSON.stringify(r.body));
      assert.equal(r.body.data.Errorcode, 104);
      assert.ok(fieldOf(r.body)?.includes(field), JSON.stringify(r.body));
    }
    const extra = await as(dev, 'PUT', '/console/api/go-live/profile', { nickname: 'x' });
    assert.equal(extra.status, 422);
  });

  it('items turn done as the account fills them in', async () => {
    const saved = await as(dev, 'PUT', '/console/api/go-live/profile', PROFILE);
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    assert.equal(saved.body.data.updated_by, 'dev@acme.test');
    let d = await done('name-match');
    assert.equal(d.business_details && d.use_case, true);
    assert.equal(d.consent_notice, false);

    const consent = await t.call('POST', '/api/v1/consents', {
      body: { subject: { mobile: '9876543210' }, purpose: { code: 'loan-kyc', text: 'Loan eligibility' }, operations: ['name-match'], notice: { version: 'v3', language: 'en', text: 'We compare your name with your bank record.' } },
    });
    assert.equal(consent.status, 200, consent.text);
    const notice = (await state('name-match')).items.find((i) => i.id === 'consent_notice')!;
    assert.equal(notice.done, true);
    assert.match(notice.detail, new RegExp(`version v3 .*${consent.body.data.id}`));
    assert.equal((await done('signature-match')).consent_notice, false, 'that consent does not cover signature-match');

    assert.equal((await runCommand(t.store.db, ['allowlist', 'add', '--account', t.accountId, '--env', 'live', '127.0.0.1'])).code, 0);
    assert.equal((await done('name-match')).allowlist, true);

    const ep = await t.call('POST', '/api/v1/webhook-endpoints', { key: t.liveKey, body: { url: rx.url } });
    assert.equal(ep.status, 200, ep.text);
    const webhook = (await state('name-match')).items.find((i) => i.id === 'webhook')!;
    assert.deepEqual([webhook.done, /none has acknowledged/.test(webhook.detail)], [false, true]);
    const ping = await as(dev, 'POST', `/console/api/webhooks/${ep.body.data.id}/test`, { environment: 'live' });
    assert.equal(ping.status, 200, JSON.stringify(ping.body));
    await eventually(async () => (await done('name-match')).webhook);
    assert.equal(JSON.parse(rx.got[0]!.body).type, 'webhook.test');
    assert.ok(rx.got[0]!.headers['webhook-signature']);

    assert.equal((await done('name-match')).sandbox_calls, false);
    const call = await t.call('POST', PATHS.names, { body: VALID.names() });
    assert.equal(call.body.data.status, 'success', call.text);
    const s = await state('name-match');
    assert.ok(s.items.every((i) => i.done), JSON.stringify(s.items));
    assert.equal(s.ready, true);
  });

  it('a sandbox key reads the progress but not the live set-up or the profile; a live key reads everything', async () => {
    const sandbox = await t.call('GET', '/api/v1/account/go-live');
    const live = await t.call('GET', '/api/v1/account/go-live', { key: t.liveKey });
    assert.equal(live.status, 200, live.text);
    assert.equal(live.body.data.profile.legal_name, PROFILE.legal_name);
    assert.equal(sandbox.body.data.profile, null);
    const text = JSON.stringify(sandbox.body.data);
    for (const secret of ['127.0.0.1', rx.url, PROFILE.legal_name, PROFILE.contact_email]) {
      assert.ok(JSON.stringify(live.body.data).includes(secret), `a live key sees ${secret}`);
      assert.ok(!text.includes(secret), `a sandbox key does not see ${secret}`);
    }
    // The same progress either way: statuses, readiness, which items are done.
    const progress = (b: { data: { operations: OpState[] } }) => b.data.operations.map((o) => [o.operation, o.status, o.items.map((i) => `${i.id}:${i.done}`)]);
    assert.deepEqual(progress(sandbox.body), progress(live.body));
    const nm = sandbox.body.data.operations.find((o: OpState) => o.operation === 'name-match');
    assert.match(nm.items.find((i: { id: string }) => i.id === 'allowlist').detail, /has entries/);
  });

  it('submission refuses what is unknown or not ready, naming operations', async () => {
    for (const body of [{ operations: ['no-such-op'] }, { operations: ['upi-payment-status'] }, { operations: 'name-match' }, { operations: [] }, {}]) {
      const r = await as(owner, 'POST', '/console/api/go-live/submissions', body);
      assert.equal(r.status, 422, JSON.stringify(r.body));
      assert.deepEqual(fieldOf(r.body), ['operations'], JSON.stringify(r.body));
    }
    const notReady = await as(owner, 'POST', '/console/api/go-live/submissions', { operations: ['upi-payment-status'] });
    assert.match(notReady.body.data.errors[0].message, /sandbox_calls/);
  });

  it('submit; the submitter and a non-admin cannot approve; a second admin can, and the live call goes through', async () => {
    const live = () => t.call('POST', PATHS.names, { key: t.liveKey, body: VALID.names() });
    const before = await live();
    assert.equal(before.status, 403);
    assert.match(before.body.data.Message, /not approved/);

    const sub = await as(owner, 'POST', '/console/api/go-live/submissions', { operations: ['name-match'] });
    assert.equal(sub.status, 200, JSON.stringify(sub.body));
    const id = sub.body.data.submissions[0].id;
    const s = await state('name-match');
    assert.equal(s.status, 'submitted');
    assert.equal(s.submission!.submitted_by, 'owner@acme.test');
    assert.equal((await as(owner, 'POST', '/console/api/go-live/submissions', { operations: ['name-match'] })).status, 422, 'already submitted');

    const queue = await as(checker, 'GET', '/console/api/admin/go-live');
    const row = queue.body.data.items.find((i: { id: string }) => i.id === id);
    assert.equal(row.account_name, 'Test Fintech');
    assert.equal(row.profile.legal_name, PROFILE.legal_name);
    assert.equal(row.items.length, 6);
    assert.equal((await as(dev, 'GET', '/console/api/admin/go-live')).status, 403);

    const self = await as(owner, 'POST', `/console/api/admin/go-live/${id}/approve`);
    assert.equal(self.status, 403);
    assert.match(self.body.data.Message, /Maker-checker: owner@acme\.test proposed go-live submission/);
    assert.equal((await as(dev, 'POST', `/console/api/admin/go-live/${id}/approve`)).status, 403);
    assert.equal((await state('name-match')).status, 'submitted');
    assert.equal((await live()).status, 403);

    const ok = await as(checker, 'POST', `/console/api/admin/go-live/${id}/approve`);
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.ok(ok.body.data.approved.includes('name-match'));
    const approved = await state('name-match');
    assert.equal(approved.status, 'approved');
    assert.equal(approved.submission!.decided_by, 'checker@sangam.test');
    assert.equal((await as(checker, 'POST', `/console/api/admin/go-live/${id}/approve`)).status, 422, 'already decided');

    assert.equal((await runCommand(t.store.db, ['wallet', 'topup', '--account', t.accountId, '--amount', '100'])).code, 0);
    const after = await live();
    assert.equal(after.status, 200, after.text);
    assert.equal(after.body.data.status, 'success');
  });

  it('a rejection carries its reason and its reviewer into GET /api/v1/account/go-live', async () => {
    await t.call('POST', '/api/v1/consents', {
      body: { subject: { reference: 'cust-1' }, purpose: { code: 'sig', text: 'Cheque signature' }, operations: ['signature-match'], notice: { version: 'v1', language: 'en', text: 'We compare your signature.' } },
    });
    assert.equal((await t.call('POST', PATHS.signature, { body: VALID.signature() })).body.data.status, 'success');
    const sub = await as(dev, 'POST', '/console/api/go-live/submissions', { operations: ['signature-match'] });
    assert.equal(sub.status, 200, JSON.stringify(sub.body));
    const id = sub.body.data.submissions[0].id;
    for (const body of [{}, { reason: '   ' }, { reason: 7 }]) {
      const r = await as(checker, 'POST', `/console/api/admin/go-live/${id}/reject`, body);
      assert.equal(r.status, 422, JSON.stringify(r.body));
      assert.deepEqual(fieldOf(r.body), ['reason']);
    }
    assert.equal((await as(checker, 'POST', '/console/api/admin/go-live/glv_nosuch/approve')).status, 404);
    const r = await as(checker, 'POST', `/console/api/admin/go-live/${id}/reject`, { reason: 'The use case does not mention cheques' });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const s = await state('signature-match');
    assert.equal(s.status, 'rejected');
    assert.deepEqual([s.submission!.reason, s.submission!.decided_by], ['The use case does not mention cheques', 'checker@sangam.test']);
    assert.ok(s.submission!.decided_at);
    assert.equal((await t.call('POST', PATHS.signature, { key: t.liveKey, body: VALID.signature() })).status, 403);
    // A rejected operation can be submitted again, once: of two racing submissions one is a 422, never a 500.
    const again = await Promise.all([0, 1].map(() => as(dev, 'POST', '/console/api/go-live/submissions', { operations: ['signature-match'] })));
    assert.deepEqual(again.map((r) => r.status).sort(), [200, 422], JSON.stringify(again.map((r) => r.body)));
  });

  it('every step is an ADMIN row of the audit trail, naming who acted', async () => {
    const rows = await t.store.db.selectFrom('audit_logs').select(['path', 'request_body']).where('method', '=', 'ADMIN').where('path', 'like', 'go-live%').orderBy('id').execute();
    const seen = rows.map((r) => [r.path, (r.request_body as { actor: string }).actor]);
    assert.deepEqual(seen, [
      ['go-live profile', 'console:dev@acme.test'],
      ['go-live submit', 'console:owner@acme.test'],
      ['go-live approve', 'console:checker@sangam.test'],
      ['go-live submit', 'console:dev@acme.test'],
      ['go-live reject', 'console:checker@sangam.test'],
      ['go-live submit', 'console:dev@acme.test'],
    ]);
    assert.equal((await runCommand(t.store.db, ['audit', 'verify'])).code, 0);
  });

  // Issue #37: an admin submitted, made `puppet@…` an admin from the console, signed in as it and approved.
  it('an admin the submitter makes cannot approve: it waits for another admin, and never checks what was submitted before its rights took effect', async () => {
    const open = (await state('signature-match')).submission!;
    assert.equal((await as(checker, 'POST', `/console/api/admin/go-live/${open.id}/reject`, { reason: 'Resubmitted below' })).status, 200);
    const sub = await as(owner, 'POST', '/console/api/go-live/submissions', { operations: ['signature-match'] });
    assert.equal(sub.status, 200, JSON.stringify(sub.body));
    const id = sub.body.data.submissions[0].id;

    const made = await as(owner, 'POST', '/console/api/admin/users', { email: 'puppet@acme.test', password: 'long password', is_admin: true, account_id: null });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    assert.equal(made.body.data.admin, 'pending');
    const puppetId = made.body.data.id;
    const puppet = await login('puppet@acme.test');
    const refused = await as(puppet, 'POST', `/console/api/admin/go-live/${id}/approve`);
    assert.equal(refused.status, 403, JSON.stringify(refused.body));
    assert.match(refused.body.data.Message, /wait for approval/);
    assert.equal((await state('signature-match')).status, 'submitted');

    assert.equal((await as(owner, 'POST', `/console/api/admin/users/${puppetId}/approve-admin`)).status, 403, 'its maker cannot approve it');
    const approved = await as(checker, 'POST', `/console/api/admin/users/${puppetId}/approve-admin`);
    assert.equal(approved.status, 200, JSON.stringify(approved.body));
    const late = await as(puppet, 'POST', `/console/api/admin/go-live/${id}/approve`);
    assert.equal(late.status, 403, JSON.stringify(late.body));
    assert.match(late.body.data.Message, /took effect .* after go-live submission/);
    assert.equal((await state('signature-match')).status, 'submitted');
    assert.equal((await t.call('POST', PATHS.signature, { key: t.liveKey, body: VALID.signature() })).status, 403);

    // Submitted after its rights took effect: the approved admin may check it.
    assert.equal((await as(checker, 'POST', `/console/api/admin/go-live/${id}/reject`, { reason: 'Resubmit' })).status, 200);
    const next = await as(owner, 'POST', '/console/api/go-live/submissions', { operations: ['signature-match'] });
    assert.equal(next.status, 200, JSON.stringify(next.body));
    const ok = await as(puppet, 'POST', `/console/api/admin/go-live/${next.body.data.submissions[0].id}/approve`);
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal((await state('signature-match')).status, 'approved');

    const users = Object.fromEntries((await t.store.db.selectFrom('console_users').select(['id', 'email']).execute()).map((u) => [u.email, u.id]));
    const rows = await t.store.db.selectFrom('audit_logs').select('request_body').where('path', '=', 'go-live approve').execute();
    const row = rows.map((r) => r.request_body as Record<string, unknown>).find((b) => b.submission_id === next.body.data.submissions[0].id)!;
    assert.deepEqual(
      [row.submitted_by_user, row.checker_user, row.checker_admin_created_by, row.checker_admin_approved_by, row.actor],
      [users['owner@acme.test'], puppetId, users['owner@acme.test'], users['checker@sangam.test'], 'console:puppet@acme.test'],
    );
  });
});
