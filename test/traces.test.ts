// Traces (issue #41 item 5): with OTEL_EXPORTER_OTLP_ENDPOINT set, spans reach an OTLP/HTTP receiver
// (a tiny one here, on 127.0.0.1, taking the JSON encoding): the request's span, a child of the
// caller's `traceparent`, with its operation and environment; store statements and group commits
// under it; the partner call of a live request with partner and outcome; a webhook delivery; a
// background worker's tick. The trace id is on the audit row and in the request's log lines, and no
// span carries an Aadhaar number, a mobile number or a key.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import http from 'node:http';
import { PassThrough } from 'node:stream';
import { randomBytes } from 'node:crypto';
import { eventually, PATHS, VALID } from './harness.js';
import { freePort, startPartnerApp, startSim, type PartnerApp, type Sim } from './live-harness.js';

interface OtlpValue { stringValue?: string; intValue?: number | string; boolValue?: boolean; doubleValue?: number }
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes?: Array<{ key: string; value: OtlpValue }>;
}

/** An id as hex, whether the encoding sent it as hex or base64. */
const hex = (id: string | undefined) => (!id ? '' : /^[0-9a-f]+$/.test(id) ? id : Buffer.from(id, 'base64').toString('hex'));
const attr = (s: OtlpSpan, key: string) => {
  const v = s.attributes?.find((a) => a.key === key)?.value;
  return v ? (v.stringValue ?? v.intValue ?? v.boolValue ?? v.doubleValue) : undefined;
};

/** An OTLP/HTTP receiver: POST /v1/traces, JSON; every export's raw text and its spans. */
async function otlpReceiver() {
  const spans: OtlpSpan[] = [];
  const raw: string[] = [];
  const arrived = new EventEmitter();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      assert.equal(req.url, '/v1/traces');
      assert.match(String(req.headers['content-type']), /json/);
      raw.push(text);
      const body = JSON.parse(text) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: OtlpSpan[] }> }> };
      for (const rs of body.resourceSpans) for (const ss of rs.scopeSpans) for (const s of ss.spans) spans.push({ ...s, traceId: hex(s.traceId), spanId: hex(s.spanId), parentSpanId: hex(s.parentSpanId) });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      arrived.emit('spans');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    spans,
    raw,
    /** Resolves with the spans `pick` finds, once an export brings them (waits on arrivals, never a fixed sleep). */
    async until<T>(pick: (all: OtlpSpan[]) => T | undefined, timeoutMs = 20_000): Promise<T> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = pick(spans);
        if (found !== undefined) return found;
        const left = deadline - Date.now();
        assert.ok(left > 0, `no such span arrived; got: ${[...new Set(spans.map((s) => s.name))].join(', ')}`);
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, left);
          arrived.once('spans', () => {
            clearTimeout(t);
            resolve();
          });
        });
      }
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** A webhook receiver that answers 200. */
async function webhookReceiver() {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200).end('ok'));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hooks`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const traceparent = () => {
  const traceId = randomBytes(16).toString('hex');
  const parentId = randomBytes(8).toString('hex');
  return { traceId, parentId, header: `00-${traceId}-${parentId}-01` };
};

describe('traces: OpenTelemetry spans to an OTLP receiver', () => {
  let t: PartnerApp;
  let sim: Sim;
  let otlp: Awaited<ReturnType<typeof otlpReceiver>>;
  let hooks: Awaited<ReturnType<typeof webhookReceiver>>;
  const lines: string[] = [];
  const MOBILE = '9812345678';
  const AADHAAR = VALID.aadhaar().aadhaar_number;

  before(async () => {
    otlp = await otlpReceiver();
    hooks = await webhookReceiver();
    sim = await startSim();
    const logStream = new PassThrough();
    logStream.on('data', (c: Buffer) => lines.push(...c.toString('utf8').split('\n').filter(Boolean)));
    t = await startPartnerApp(
      {
        SANGAM_PARTNER_URL: sim.url,
        SANGAM_PARTNER_SECRET: sim.secret,
        SANGAM_PARTNER_TIMEOUT_MS: '2000',
        SANGAM_WEBHOOK_ALLOW_PRIVATE: '1',
        SANGAM_WEBHOOK_POLL_MS: '30',
        OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
        OTEL_BSP_SCHEDULE_DELAY: '50',
        LOG_LEVEL: 'info',
      },
      { port: await freePort(), logStream },
    );
  });
  after(async () => {
    await t?.close();
    await sim?.stop();
    await hooks?.close();
    await otlp?.close();
  });

  it('a sandbox call: its span is the traceparent’s child, with operation and environment; store statements and a group commit under it; a webhook delivery and a worker tick; the trace id on the audit row and in the log', async () => {
    assert.equal((await t.call('POST', '/api/v1/webhook-endpoints', { body: { url: hooks.url } })).status, 200);
    const tp = traceparent();
    const r = await t.call('POST', PATHS.recharge, { body: { ...VALID.recharge(), mobile: MOBILE }, headers: { traceparent: tp.header } });
    assert.equal(r.status, 200, r.text);
    const requestId = String(r.headers['x-request-id']);

    const request = await otlp.until((all) => all.find((s) => s.traceId === tp.traceId && s.parentSpanId === tp.parentId));
    assert.equal(request.name, `POST ${PATHS.recharge}`);
    assert.equal(attr(request, 'sangam.operation'), 'recharge-commission');
    assert.equal(attr(request, 'sangam.environment'), 'sandbox');
    assert.equal(attr(request, 'sangam.request_id'), requestId);
    assert.equal(Number(attr(request, 'http.response.status_code')), 200);
    const inTrace = (all: OtlpSpan[]) => all.filter((s) => s.traceId === tp.traceId);
    const statement = await otlp.until((all) => inTrace(all).find((s) => attr(s, 'db.system') === 'postgresql'));
    assert.ok(statement.parentSpanId, 'a statement is a child in the request’s trace');
    const commit = await otlp.until((all) => inTrace(all).find((s) => s.name === 'group commit'));
    assert.equal(commit.parentSpanId, request.spanId);

    // A sandbox pending that becomes final is announced to the webhook endpoint.
    assert.equal((await t.call('POST', PATHS.upi, { body: { ...VALID.upi(), vpa: 'pending@sandbox' } })).body.data.status, 'pending');
    const delivery = await otlp.until((all) => all.find((s) => s.name === 'webhook delivery' && attr(s, 'sangam.webhook.verdict') === 'delivered'));
    assert.equal(Number(attr(delivery, 'http.response.status_code')), 200);
    const tick = await otlp.until((all) => all.find((s) => s.spanId === delivery.parentSpanId));
    assert.equal(tick.name, 'worker webhook delivery');
    assert.equal(tick.parentSpanId, '', 'a worker tick is the root of a trace of its own');
    // The finalizer's scan that made it final: a root too, with its statements under it.
    const scan = await otlp.until((all) => all.find((s) => s.name === 'worker finalizer' && Number(attr(s, 'sangam.finalizer.settled')) > 0));
    assert.equal(scan.parentSpanId, '');
    await otlp.until((all) => all.find((s) => s.parentSpanId === scan.spanId && attr(s, 'db.collection.name') === 'transactions'));

    const row = await t.store.db.selectFrom('audit_logs').select('trace_id').where('request_id', '=', requestId).executeTakeFirstOrThrow();
    assert.equal(row.trace_id, tp.traceId);
    const logged = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.reqId === requestId);
    // Fastify logs `incoming request` before any hook; from the span's start on, the request's logger binds it.
    const completed = logged.find((l) => l.msg === 'request completed');
    assert.deepEqual({ trace_id: completed?.trace_id, span_id: completed?.span_id }, { trace_id: tp.traceId, span_id: request.spanId }, JSON.stringify(logged));
  });

  it('a live call: a partner span with the partner and the outcome, under the request', async () => {
    const tp = traceparent();
    const r = await t.call('POST', PATHS.recharge, { key: t.liveKey, body: { ...VALID.recharge(), mobile: MOBILE }, headers: { traceparent: tp.header } });
    assert.equal(r.status, 200, r.text);
    const request = await otlp.until((all) => all.find((s) => s.traceId === tp.traceId && s.parentSpanId === tp.parentId));
    assert.equal(attr(request, 'sangam.environment'), 'live');
    const partner = await otlp.until((all) => all.find((s) => s.traceId === tp.traceId && s.name === 'partner recharge-commission'));
    assert.equal(attr(partner, 'sangam.partner'), 'primary');
    assert.equal(attr(partner, 'sangam.partner.outcome'), r.body.data.status);
    const call = await otlp.until((all) => all.find((s) => s.traceId === tp.traceId && s.parentSpanId === partner.spanId && s.name.startsWith('partner HTTP')));
    assert.equal(attr(call, 'http.request.method'), 'POST');
  });

  it('a batch row: its audit row carries the trace id of its batch’s run, a trace of its own', async () => {
    const reference = `trace-batch-${randomBytes(4).toString('hex')}`;
    const submitted = await t.call('POST', '/api/v1/batches', { body: { operation: 'recharge-commission', items: [{ ...VALID.recharge(), reference_id: reference, mobile: MOBILE }] } });
    assert.equal(submitted.status, 200, submitted.text);
    const row = await eventually(() =>
      t.store.db.selectFrom('audit_logs').select(['trace_id', 'path']).where('reference_id', '=', reference).where('path', 'like', '/api/v1/batches/%').executeTakeFirst(),
    );
    assert.match(row.trace_id ?? '', /^[0-9a-f]{32}$/);
    // The batch's run: a trace of its own, whoever woke the worker.
    const root = await otlp.until((all) => all.find((s) => s.traceId === row.trace_id && !s.parentSpanId));
    assert.equal(root.name, 'batch run');
    assert.equal(attr(root, 'sangam.batch.id'), submitted.body.data.id);
  });

  it('no span carries an Aadhaar number, a mobile number or a key', async () => {
    const tp = traceparent();
    // An identity call whose input holds an Aadhaar number, whatever the sandbox answers it.
    await t.call('POST', PATHS.aadhaar, { body: VALID.aadhaar(), headers: { traceparent: tp.header } });
    await otlp.until((all) => all.find((s) => s.traceId === tp.traceId && s.parentSpanId === tp.parentId));
    const everything = otlp.raw.join('\n');
    for (const secret of [AADHAAR, MOBILE, t.key, t.liveKey, sim.secret]) assert.ok(!everything.includes(secret), `a span carries ${secret.slice(0, 6)}…`);
  });
});
