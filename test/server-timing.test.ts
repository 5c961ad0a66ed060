// Every /api/v1 answer says where its time went (issue #41, #42): `Server-Timing` with Sangam's own
// time and, for a live call, the partner's, plus the phases of an operation call; the same phases as
// the histogram sangam_call_phase_seconds at /metrics.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { PATHS, startApp, VALID } from './harness.js';
import { startLive } from './live-harness.js';

/** The header's entries by name: their durations in milliseconds. */
function entries(header: unknown): Map<string, number> {
  assert.equal(typeof header, 'string', 'a Server-Timing header');
  const out = new Map<string, number>();
  for (const part of (header as string).split(',')) {
    const [name, ...params] = part.trim().split(';');
    const dur = params.find((p) => p.startsWith('dur='));
    assert.ok(dur, `${part}: a duration`);
    out.set(name!, Number(dur.slice(4)));
  }
  return out;
}

describe('Server-Timing', () => {
  it('a sandbox call: Sangam, its checks and its record; an error and a read carry their total', async () => {
    const t = await startApp();
    try {
      const r = await t.call('POST', PATHS.upi, { body: VALID.upi() });
      assert.equal(r.status, 200, r.text);
      const e = entries(r.headers['server-timing']);
      for (const name of ['sangam', 'checks', 'record', 'total']) assert.ok(e.get(name)! >= 0, `${name} in ${r.headers['server-timing']}`);
      assert.ok(!e.has('partner'), 'no partner in the sandbox');
      assert.ok(e.get('total')! >= e.get('record')!);
      const unauth = await t.call('GET', '/api/v1/account/wallet', { key: null });
      assert.equal(unauth.status, 401);
      assert.ok(entries(unauth.headers['server-timing']).has('total'));
      const metrics = await t.app.inject({ method: 'GET', url: '/metrics' });
      assert.match(metrics.body, /sangam_call_phase_seconds_count\{operation="upi-payment-status",environment="sandbox",phase="record"\} 1/);
    } finally {
      await t.close();
    }
  });

  it("a live call: the partner's time apart from Sangam's", async () => {
    const t = await startLive({}, 1_000);
    try {
      const r = await t.call('POST', PATHS.upi, { key: t.liveKey, body: { reference_id: `st-${randomUUID().slice(0, 8)}`, consent: true, vpa: 'success@sandbox', amount: 1, idempotency_key: randomUUID() } });
      assert.equal(r.status, 200, r.text);
      const e = entries(r.headers['server-timing']);
      for (const name of ['sangam', 'partner', 'checks', 'record', 'outcome', 'answer', 'total']) assert.ok(e.has(name), `${name} in ${r.headers['server-timing']}`);
      // Rounded to 0.1 ms each: Sangam's time and the partner's make the whole, and so do the five phases.
      assert.ok(Math.abs(e.get('sangam')! + e.get('partner')! - e.get('total')!) <= 0.2, r.headers['server-timing'] as string);
      const phases = ['checks', 'record', 'partner', 'outcome', 'answer'].reduce((sum, p) => sum + e.get(p)!, 0);
      assert.ok(Math.abs(phases - e.get('total')!) <= 0.3, r.headers['server-timing'] as string);
      const metrics = await t.app.inject({ method: 'GET', url: '/metrics' });
      for (const phase of ['partner', 'answer']) assert.match(metrics.body, new RegExp(`sangam_call_phase_seconds_count\\{operation="upi-payment-status",environment="live",phase="${phase}"\\} 1`));
    } finally {
      await t.close();
    }
  });
});
