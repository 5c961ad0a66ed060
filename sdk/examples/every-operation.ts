// Every operation and helper of the SDK, in a strict TypeScript program, as a client would write it
// (the package imports itself by name). test/sdk.test.ts compiles it with `tsc --strict` and runs it
// against a real server in the sandbox: SANGAM_API_KEY, SANGAM_BASE_URL. It prints one JSON line naming
// what it called, and exits non-zero on the first surprise.
import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { Sangam, SangamError, WebhookVerificationError } from '@sangam/sdk';

const apiKey = process.env.SANGAM_API_KEY;
if (!apiKey) throw new Error('set SANGAM_API_KEY to a sk_test_ key');
const sangam = new Sangam({ apiKey, baseUrl: process.env.SANGAM_BASE_URL ?? 'http://localhost:8080' });

const called: string[] = [];
const ref = (p: string) => `${p}-${randomUUID().slice(0, 8)}`;
/** Reads one field of an answer (the document types `data`; this program only checks what it shows). */
const field = (value: unknown, name: string): unknown => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined);
function expect(what: string, ok: boolean): void {
  if (!ok) throw new Error(`unexpected: ${what}`);
  called.push(what);
}

async function main(): Promise<void> {
  expect('environment', sangam.environment === 'sandbox');

  const sig = await sangam.signatureMatch({ reference_id: ref('sig'), consent: true, input: 'https://example.com/cheque.png', name: 'Priya Sharma' });
  expect('signatureMatch', typeof field(sig, 'name_match_score') === 'number');

  const init = await sangam.doclocker.initialize({ reference_id: ref('init'), consent: true });
  expect('doclocker.initialize', typeof field(init, 'authorization_url') === 'string');
  const aadhaar = await sangam.doclocker.download({ reference_id: ref('aad'), consent: true, doclocker__client__id: 'client-12345678', aadhaar_number: '234123412346' });
  expect('doclocker.download', field(aadhaar, 'status') === 'success');

  const bank = await sangam.mobileToBank({ reference_id: ref('bank'), consent: true, mobile: '9876543210' });
  expect('mobileToBank', field(bank, 'status') === 'success');
  const names = await sangam.nameMatch({ reference_id: ref('names'), consent: true, name_1: 'Shri Ramesh Kumar', name_2: 'RAMESH K' });
  expect('nameMatch', typeof field(names, 'score') === 'number');

  const upi = await sangam.upiPayment({ reference_id: ref('upi'), consent: true, vpa: 'success@sandbox', amount: 100.5 });
  expect('upiPayment', field(upi, 'status') === 'success');
  const pendingRef = ref('upi');
  const pending = await sangam.upiPayment({ reference_id: pendingRef, consent: true, vpa: 'pending@sandbox', amount: 10 });
  expect('upiPayment (pending)', field(pending, 'status') === 'pending');
  const final = await sangam.waitForFinal(pendingRef, { operation: 'upi-payment-status', intervalMs: 100, timeoutMs: 30_000 });
  expect('waitForFinal', field(final, 'status') === 'success');
  expect('transactions.get', field(await sangam.transactions.get(pendingRef), 'status') === 'success');

  const rc = await sangam.mobileRecharge({ reference_id: ref('rc'), consent: true, mobile: '9876543210', operator: 'JIO', amount: 199 });
  expect('mobileRecharge', field(rc, 'status') === 'success');
  const dth = await sangam.dthRecharge({ reference_id: ref('dth'), consent: true, subscriber_id: '1234567890', operator: 'TS', amount: 350 });
  expect('dthRecharge', field(dth, 'status') === 'success');

  expect('recharge.operators', Array.isArray(field(await sangam.recharge.operators(), 'operators')));
  expect('recharge.operatorLookup', typeof field(await sangam.recharge.operatorLookup({ mobile: '9876543210' }), 'operator') === 'string');
  expect('recharge.plans', Array.isArray(field(await sangam.recharge.plans({ operator: 'JIO', circle: 'DL' }), 'plans')));
  expect('dth.operators', Array.isArray(field(await sangam.dth.operators(), 'operators')));
  expect('dth.subscriberInfo', typeof field(await sangam.dth.subscriberInfo({ operator: 'TS', subscriber_id: '1234567890' }), 'name') === 'string');

  expect('wallet.balance', field(await sangam.wallet.balance(), 'currency') === 'INR');
  expect('wallet.statement', Array.isArray(field(await sangam.wallet.statement({ limit: 5 }), 'items')));
  let entries = 0;
  for await (const _ of sangam.wallet.iterateStatement({ limit: 5 })) entries++;
  expect('wallet.iterateStatement', entries >= 0);
  expect('goLive.checklist', (await sangam.goLive.checklist()).operations.length > 0);

  const consent = await sangam.consents.create({
    subject: { mobile: '9876543210' },
    purpose: { code: 'bank-check', text: 'To check the bank account linked to your mobile' },
    operations: ['mobile-to-bank-account'],
    notice: { version: 'v1', language: 'en', text: 'We will check the bank account linked to your mobile number.' },
  });
  expect('consents.create', consent.status === 'active' && consent.receipt.length > 0);
  expect('consents.list', (await sangam.consents.list({ subject_mobile: '9876543210' })).items.some((c) => c.id === consent.id));
  expect('consents.get', (await sangam.consents.get(consent.id)).id === consent.id);
  expect('consents.withdraw', (await sangam.consents.withdraw(consent.id)).status === 'withdrawn');
  expect('consents.publicKey', (await sangam.consents.publicKey()).keys.length > 0);

  const endpoint = await sangam.webhooks.endpoints.create({ url: 'https://example.com/hooks' });
  const id = String(field(endpoint, 'id'));
  const secret = String(field(endpoint, 'secret'));
  expect('webhooks.endpoints.create', secret.startsWith('whsec_'));
  const listed = field(await sangam.webhooks.endpoints.list(), 'items');
  expect('webhooks.endpoints.list', Array.isArray(listed) && listed.some((e) => field(e, 'id') === id));
  expect('webhooks.endpoints.deliveries', Array.isArray(field(await sangam.webhooks.endpoints.deliveries(id, { limit: 10 }), 'items')));
  expect('webhooks.endpoints.replay', typeof field(await sangam.webhooks.endpoints.replay(id, { since: '2026-01-01T00:00:00Z' }), 'replayed') === 'number');
  const rotated = await sangam.webhooks.endpoints.rotateSecret(id, { overlap_seconds: 0 });
  expect('webhooks.endpoints.rotateSecret', String(field(rotated, 'secret')).startsWith('whsec_'));
  expect('webhooks.endpoints.delete', field(await sangam.webhooks.endpoints.delete(id), 'deleted') === true);

  // A delivery signed as Sangam signs it, verified; then the same delivery altered.
  const body = JSON.stringify({ type: 'transaction.success', timestamp: new Date().toISOString(), data: { reference_id: pendingRef } });
  const msgId = `msg_${randomUUID().replace(/-/g, '').slice(0, 24)}`;
  const at = new Date();
  const headers = { 'webhook-id': msgId, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': new Webhook(secret).sign(msgId, at, body) };
  expect('webhooks.verify', sangam.webhooks.verify(body, headers, secret).type === 'transaction.success');
  try {
    sangam.webhooks.verify(body.replace('success', 'failed'), headers, secret);
    expect('webhooks.verify (tampered)', false);
  } catch (err) {
    expect('webhooks.verify (tampered)', err instanceof WebhookVerificationError);
  }

  const page = await sangam.auditLogs.list({ limit: 2 });
  const items = field(page, 'items');
  expect('auditLogs.list', Array.isArray(items) && items.length === 2);
  const first = Array.isArray(items) ? String(field(items[0], 'request_id')) : '';
  expect('auditLogs.get', field(await sangam.auditLogs.get(first), 'request_id') === first);
  let rows = 0;
  for await (const _ of sangam.auditLogs.iterate({ limit: 3, operation: 'upi-payment-status' })) rows++;
  expect('auditLogs.iterate', rows >= 2);
  expect('auditLogs.export', (await sangam.auditLogs.export({ format: 'ndjson' })).trim().split('\n').length > 1);
  const erasure = await sangam.erasures.create(ref('nothing'));
  expect('erasures.create', erasure.audit_rows_erased === 0);

  try {
    await sangam.transactions.get(ref('nothing'));
    expect('SangamError', false);
  } catch (err) {
    expect('SangamError', err instanceof SangamError && err.status === 404 && err.errorcode === 109 && typeof err.requestId === 'string');
  }
}

await main();
console.log(JSON.stringify({ ok: true, called }));
