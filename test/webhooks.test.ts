// Outbound webhooks against a real local HTTP receiver: Standard Webhooks signatures, retries with the
// same webhook-id, receivers down then up, 410, Retry-After, rotation, filters, replay, the SSRF guard,
// two workers competing, and a crash between the state change and the delivery.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { Webhook } from 'standardwebhooks';
import { WebhookWorker } from '../src/webhooks/worker.js';
import { eventually, freshStoreLocation, PATHS, sleep, startApp, VALID, type TestApp } from './harness.js';

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A receiver whose answers are scripted: a queue of statuses (then 200), or down. */
async function receiver() {
  const got: Received[] = [];
  let script: Array<number | { status: number; headers: Record<string, string> }> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const next = script.shift() ?? 200;
      const { status, headers } = typeof next === 'number' ? { status: next, headers: {} } : next;
      res.writeHead(status, headers).end(status === 200 ? 'ok' : `nope ${status}`);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    got,
    script: (s: typeof script) => (script = s),
    close: () => new Promise<void>((r) => server.close(() => r())),
    server,
  };
}

const WEBHOOK_ENV = { SANGAM_WEBHOOK_ALLOW_PRIVATE: '1', SANGAM_WEBHOOK_POLL_MS: '30', SANGAM_WEBHOOK_RETRY_SCHEDULE: '0,0.2,0.2,0.2' };

async function pendingToFinal(t: TestApp, vpa = 'pending@sandbox') {
  const body = { ...VALID.upi(), vpa };
  const r = await t.call('POST', PATHS.upi, { body });
  assert.equal(r.body.data.status, 'pending');
  return { reference: body.reference_id, txn: r.body.data.txn_id as string };
}

describe('webhooks', () => {
  let t: TestApp;
  let rx: Awaited<ReturnType<typeof receiver>>;
  let endpoint: { id: string; secret: string };
  before(async () => {
    t = await startApp(WEBHOOK_ENV);
    rx = await receiver();
    const r = await t.call('POST', '/api/v1/webhook-endpoints', { body: { url: rx.url } });
    assert.equal(r.status, 200, r.text);
    assert.match(r.body.data.secret, /^whsec_/);
    endpoint = r.body.data;
  });
  after(async () => {
    await t.close();
    await rx.close();
  });

  it('a pending payment that becomes final is announced, verifiable with standardwebhooks', async () => {
    const { reference, txn } = await pendingToFinal(t);
    const msg = await eventually(async () => rx.got.find((g) => g.body.includes(txn)));
    const event = new Webhook(endpoint.secret).verify(msg.body, msg.headers as Record<string, string>) as { type: string; timestamp: string; data: Record<string, unknown> };
    assert.equal(event.type, 'transaction.success');
    assert.ok(!Number.isNaN(Date.parse(event.timestamp)));
    assert.equal(event.data.status, 'success');
    assert.equal(event.data.reference_id, reference);
    assert.equal(event.data.txn_id, txn);
    assert.match(String(event.data.utr), /^\d{12}$/);
    assert.equal(event.data.operation, 'upi-payment-status');
    assert.equal(event.data.environment, 'sandbox');
    assert.ok(event.data.verified_at);
    assert.match(String(msg.headers['webhook-id']), /^msg_/);
  });

  it('a tampered body fails verification', async () => {
    const { txn } = await pendingToFinal(t, 'pendingfail@sandbox');
    const msg = await eventually(async () => rx.got.find((g) => g.body.includes(txn)));
    assert.match(msg.body, /transaction\.failed/);
    assert.throws(() => new Webhook(endpoint.secret).verify(msg.body.replace('failed', 'success'), msg.headers as Record<string, string>));
  });

  it('500, 500, then 200: delivered with the same webhook-id, every attempt logged', async () => {
    rx.script([500, 500]);
    const { txn } = await pendingToFinal(t);
    const mine = await eventually(async () => {
      const m = rx.got.filter((g) => g.body.includes(txn));
      return m.length === 3 && m;
    });
    assert.equal(new Set(mine.map((m) => m.headers['webhook-id'])).size, 1);
    // The receiver has the third attempt; the worker records it once it has the answer: wait for that.
    const d = await eventually(async () => {
      const log = await t.call('GET', `/api/v1/webhook-endpoints/${endpoint.id}/deliveries`);
      return log.body.data.items.find((x: { attempts_log: Array<{ http_status: number }>; status: string }) => x.attempts_log.length === 3 && x.status === 'delivered');
    });
    assert.equal(d.status, 'delivered');
    assert.deepEqual(d.attempts_log.map((a: { http_status: number }) => a.http_status), [500, 500, 200]);
    assert.match(d.attempts_log[0].response_excerpt, /nope 500/);
  });

  it('honours Retry-After', async () => {
    rx.script([{ status: 503, headers: { 'retry-after': '1' } }]);
    const { txn } = await pendingToFinal(t);
    const first = await eventually(async () => rx.got.find((g) => g.body.includes(txn)));
    const firstAt = Date.now();
    await eventually(async () => rx.got.filter((g) => g.body.includes(txn)).length === 2, 30_000);
    assert.ok(Date.now() - firstAt >= 800, 'waited for Retry-After');
    assert.ok(first);
  });

  it('rotation: both signatures during the overlap, each verifies', async () => {
    const rot = await t.call('POST', `/api/v1/webhook-endpoints/${endpoint.id}/rotate-secret`, { body: { overlap_seconds: 60 } });
    assert.equal(rot.status, 200, rot.text);
    const { txn } = await pendingToFinal(t);
    const msg = await eventually(async () => rx.got.find((g) => g.body.includes(txn)));
    assert.equal(String(msg.headers['webhook-signature']).split(' ').length, 2);
    new Webhook(rot.body.data.secret).verify(msg.body, msg.headers as Record<string, string>);
    new Webhook(endpoint.secret).verify(msg.body, msg.headers as Record<string, string>);
    endpoint = { ...endpoint, secret: rot.body.data.secret };
  });

  it('endpoints filter by event type; sandbox and live endpoints are separate; other accounts see 404', async () => {
    const only = await receiver();
    try {
      const r = await t.call('POST', '/api/v1/webhook-endpoints', { body: { url: only.url, event_types: ['transaction.failed'] } });
      assert.equal(r.status, 200, r.text);
      const ok = await pendingToFinal(t);
      const failed = await pendingToFinal(t, 'pendingfail@sandbox');
      await eventually(async () => only.got.some((g) => g.body.includes(failed.txn)));
      await eventually(async () => rx.got.some((g) => g.body.includes(ok.txn)));
      assert.ok(!only.got.some((g) => g.body.includes(ok.txn)));
      const list = await t.call('GET', '/api/v1/webhook-endpoints');
      assert.equal(list.body.data.items.length, 2);
      assert.equal(list.body.data.items[0].secret, undefined, 'the secret is shown once');
      const { addEntry } = await import('../src/access/allowlist.js');
      await addEntry(t.store.db, t.accountId, 'live', '127.0.0.1');
      assert.equal((await t.call('GET', '/api/v1/webhook-endpoints', { key: t.liveKey })).body.data.items.length, 0);
      assert.equal((await t.call('DELETE', `/api/v1/webhook-endpoints/${r.body.data.id}`, { key: t.liveKey })).status, 404);
      assert.equal((await t.call('DELETE', `/api/v1/webhook-endpoints/${r.body.data.id}`)).status, 200);
    } finally {
      await only.close();
    }
  });

  it('validates endpoints: bad URL, unknown event type; live endpoints must be https', async () => {
    for (const body of [{ url: 'not a url' }, { url: 'ftp://example.com/x' }, { url: rx.url, event_types: ['payment.created'] }, {}]) {
      const r = await t.call('POST', '/api/v1/webhook-endpoints', { body });
      assert.equal(r.status, 422, JSON.stringify(body));
    }
    const live = await t.call('POST', '/api/v1/webhook-endpoints', { key: t.liveKey, body: { url: 'http://example.com/hooks' } });
    assert.equal(live.status, 422);
    assert.match(live.body.data.errors[0].message, /https/);
  });

  it('410 Gone disables the endpoint; replay re-enables it and sends the event again', async () => {
    const gone = await receiver();
    try {
      const ep = (await t.call('POST', '/api/v1/webhook-endpoints', { body: { url: gone.url } })).body.data;
      gone.script([410]);
      const { txn } = await pendingToFinal(t);
      await eventually(async () => gone.got.some((g) => g.body.includes(txn)));
      const disabled = await eventually(async () => {
        const l = await t.call('GET', '/api/v1/webhook-endpoints');
        const e = l.body.data.items.find((x: { id: string }) => x.id === ep.id);
        return e.disabled_at && e;
      });
      assert.match(disabled.disabled_reason, /410/);
      const eventId = String(gone.got.find((g) => g.body.includes(txn))!.headers['webhook-id']);
      const r = await t.call('POST', `/api/v1/webhook-endpoints/${ep.id}/replay`, { body: { event_id: eventId } });
      assert.equal(r.body.data.replayed, 1);
      await eventually(async () => gone.got.filter((g) => g.headers['webhook-id'] === eventId).length === 2);
      await t.call('DELETE', `/api/v1/webhook-endpoints/${ep.id}`);
    } finally {
      await gone.close();
    }
  });
});

describe('webhooks: receivers down, private addresses, several workers, crashes', () => {
  it('a receiver that is down, then up, gets everything', async () => {
    const t = await startApp({ ...WEBHOOK_ENV, SANGAM_WEBHOOK_RETRY_SCHEDULE: '0,0.3,0.3,0.3,0.3,0.3,0.3' });
    const rx = await receiver();
    try {
      await t.call('POST', '/api/v1/webhook-endpoints', { body: { url: rx.url } });
      await rx.close(); // down
      const txns = [(await pendingToFinal(t)).txn, (await pendingToFinal(t, 'pendingfail@sandbox')).txn];
      await sleep(700);
      await new Promise<void>((r) => rx.server.listen(rx.port, '127.0.0.1', r)); // up again
      await eventually(async () => txns.every((x) => rx.got.some((g) => g.body.includes(x))), 30_000);
    } finally {
      await t.close();
      await rx.close().catch(() => {});
    }
  });

  it('an endpoint deleted while an attempt to it is on its way gets nothing more: its delivery stays failed', async () => {
    const t = await startApp(WEBHOOK_ENV);
    // A receiver that holds the first attempt until the endpoint is deleted, then answers 500 (a retry, were it still there).
    let arrived!: () => void;
    let release!: () => void;
    const seen = new Promise<void>((r) => (arrived = r));
    const go = new Promise<void>((r) => (release = r));
    let requests = 0;
    const held = http.createServer((req, res) => {
      requests++;
      req.resume();
      arrived();
      void go.then(() => res.writeHead(500).end('nope'));
    });
    await new Promise<void>((r) => held.listen(0, '127.0.0.1', r));
    const other = await receiver();
    try {
      const url = `http://127.0.0.1:${(held.address() as { port: number }).port}/hooks`;
      const deleted = (await t.call('POST', '/api/v1/webhook-endpoints', { body: { url } })).body.data.id as string;
      assert.equal((await t.call('POST', '/api/v1/webhook-endpoints', { body: { url: other.url } })).status, 200);
      await pendingToFinal(t);
      await seen;
      assert.equal((await t.call('DELETE', `/api/v1/webhook-endpoints/${deleted}`)).status, 200);
      release();
      const deliveries = () => t.store.db.selectFrom('webhook_deliveries').select(['id', 'status']).where('endpoint_id', '=', deleted).execute();
      const [delivery] = await deliveries();
      // The attempt is logged, and the delivery is not put back to pending by it.
      await eventually(() => t.store.db.selectFrom('webhook_attempts').select('id').where('delivery_id', '=', delivery!.id).executeTakeFirst());
      assert.deepEqual((await deliveries()).map((d) => d.status), ['failed']);
      // Another event later reaches the endpoint still there, and nothing more the deleted one.
      const second = await pendingToFinal(t);
      await eventually(async () => other.got.find((g) => g.body.includes(second.txn)));
      assert.equal(requests, 1);
    } finally {
      await t.close();
      await other.close();
      await new Promise((r) => held.close(r));
    }
  });

  it('without the knob, a private address is refused at registration and at delivery', async () => {
    const t = await startApp({ SANGAM_WEBHOOK_POLL_MS: '30', SANGAM_WEBHOOK_RETRY_SCHEDULE: '0' });
    const rx = await receiver();
    try {
      for (const url of [rx.url, 'http://169.254.169.254/latest/meta-data', 'http://[::1]:9/x', 'http://10.0.0.8/hook']) {
        const r = await t.call('POST', '/api/v1/webhook-endpoints', { body: { url } });
        assert.equal(r.status, 422, url);
        assert.match(r.body.data.errors[0].message, /private|reserved/);
      }
      // The name resolved to a public address when it was registered, and to a private one now.
      await t.store.db
        .insertInto('webhook_endpoints')
        .values({ id: 'we_rebinding0000000000', account_id: t.accountId, environment: 'sandbox', url: `http://localhost:${rx.port}/hooks`, secret: 'whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', event_types: null })
        .execute();
      await pendingToFinal(t);
      const d = await eventually(async () => {
        const r = await t.store.db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', 'we_rebinding0000000000').executeTakeFirst();
        return r && r.status !== 'pending' && r;
      });
      assert.equal(d.status, 'failed');
      assert.match(String(d.last_error), /private or reserved/);
      assert.equal(rx.got.length, 0, 'nothing reached the private address');
    } finally {
      await t.close();
      await rx.close();
    }
  });

  it('two workers on one store: each due attempt is made once', async () => {
    const t = await startApp({ ...WEBHOOK_ENV, SANGAM_WEBHOOK_POLL_MS: '20' });
    const second = new WebhookWorker(t.store.db, t.config.webhooks, t.app.log);
    second.start();
    const rx = await receiver();
    try {
      await t.call('POST', '/api/v1/webhook-endpoints', { body: { url: rx.url } });
      const txns = await Promise.all(Array.from({ length: 12 }, (_, i) => pendingToFinal(t, i % 2 ? 'pending@sandbox' : 'pendingfail@sandbox')));
      await eventually(async () => txns.every((x) => rx.got.some((g) => g.body.includes(x.txn))), 30_000);
      await sleep(300);
      const ids = rx.got.map((g) => g.headers['webhook-id']);
      assert.equal(ids.length, new Set(ids).size, 'no event delivered twice');
      assert.equal(ids.length, 12);
    } finally {
      await second.stop();
      await t.close();
      await rx.close();
    }
  });

  it('a crash between the state change and the delivery loses nothing', async () => {
    const location = await freshStoreLocation();
    const rx = await receiver();
    const env = { ...WEBHOOK_ENV, SANGAM_WEBHOOK_POLL_MS: '60000' }; // the first process never delivers
    const first = await startApp(env, location);
    await first.call('POST', '/api/v1/webhook-endpoints', { body: { url: rx.url } });
    const { txn } = await pendingToFinal(first);
    await eventually(async () => (await first.store.db.selectFrom('webhook_events').select('id').where('txn_id', '=', txn).executeTakeFirst()) !== undefined);
    const key = first.key;
    await first.stop(); // gone before any delivery
    assert.equal(rx.got.length, 0);
    const second = await startApp(WEBHOOK_ENV, location, false);
    try {
      await eventually(async () => rx.got.some((g) => g.body.includes(txn)));
      assert.ok(key);
    } finally {
      await second.close();
      await rx.close();
    }
  });
});
