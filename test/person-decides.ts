// Owns how a test has a PERSON settle a pending transaction, the way production does when a partner gives
// no documented answer: two administrators in the console's Needs attention queue, one proposing (with a
// reason and evidence), the other approving (maker-checker, src/attention/). Used where a connector
// rightly leaves a transaction pending (an answer the partner does not document) and the test must end it.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { runCommand } from '../src/admin/run.js';
import type { TestApp } from './harness.js';

const PASSWORD = `Pw-${randomBytes(9).toString('base64url')}`;
const made = new WeakMap<TestApp, Promise<Record<'maker' | 'checker', { cookie: string; csrf: string }>>>();

async function admins(t: TestApp) {
  const tag = randomBytes(4).toString('hex');
  const sessions = {} as Record<'maker' | 'checker', { cookie: string; csrf: string }>;
  for (const who of ['maker', 'checker'] as const) {
    const email = `${who}-${tag}@ops.sangam.test`;
    assert.equal((await runCommand(t.store.db, ['users', 'create', '--email', email, '--password', PASSWORD, '--admin'])).code, 0);
    const r = await t.app.inject({ method: 'POST', url: '/console/api/login', payload: { email, password: PASSWORD } });
    assert.equal(r.statusCode, 200, r.body);
    sessions[who] = { cookie: String(r.headers['set-cookie']).split(';')[0]!, csrf: (JSON.parse(r.body) as { data: { csrf_token: string } }).data.csrf_token };
  }
  return sessions;
}

/** A person settles pending `txnId` as `action` ('success' or 'failed'): proposed by one admin, approved by another. */
export async function personDecides(t: TestApp, txnId: string, action: 'success' | 'failed', evidence = 'Partner dashboard checked by hand'): Promise<void> {
  if (!made.has(t)) made.set(t, admins(t));
  const s = await made.get(t)!;
  const call = async (who: 'maker' | 'checker', url: string, payload: object) => {
    const r = await t.app.inject({ method: 'POST', url: `/console/api${url}`, payload, headers: { cookie: s[who].cookie, 'x-csrf-token': s[who].csrf } });
    assert.equal(r.statusCode, 200, r.body);
    return JSON.parse(r.body) as { data: { id: string } };
  };
  const proposed = await call('maker', `/admin/attention/${txnId}/resolutions`, { action, reason: 'No documented answer from the partner', evidence });
  await call('checker', `/admin/resolutions/${proposed.data.id}/approve`, {});
}
