// Owns how a test has a PERSON settle a pending transaction, the way production does when a partner gives
// no documented answer: two administrators in the console's Needs attention queue, one proposing (with a
// reason and evidence), the other approving (maker-checker, src/attention/). Used where a connector
// rightly leaves a transaction pending (an answer the partner does not document) and the test must end it:
// in-process (`personDecides`, through the app's inject) or against a server process over HTTP
// (`consolePeople` + `decideOverHttp`, the bank test's operations team).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { runCommand } from '../src/admin/run.js';
import type { Db } from '../src/db/client.js';
import type { TestApp } from './harness.js';

type Who = 'maker' | 'checker';
type Session = { cookie: string; csrf: string };
/** One console call: POST `url` (under /console/api) with `headers`; its status, body and Set-Cookie. */
type Post = (url: string, payload: object, headers: Record<string, string>) => Promise<{ status: number; body: string; setCookie: string }>;

const PASSWORD = `Pw-${randomBytes(9).toString('base64url')}`;

/** Two administrators (maker and checker) made in `db` with the CLI's command; their emails. */
export async function consolePeople(db: Db): Promise<Record<Who, string>> {
  const tag = randomBytes(4).toString('hex');
  const emails = { maker: `maker-${tag}@ops.sangam.test`, checker: `checker-${tag}@ops.sangam.test` };
  for (const email of Object.values(emails)) assert.equal((await runCommand(db, ['users', 'create', '--email', email, '--password', PASSWORD, '--admin'])).code, 0);
  return emails;
}

async function signIn(post: Post, people: Record<Who, string>): Promise<Record<Who, Session>> {
  const sessions = {} as Record<Who, Session>;
  for (const who of ['maker', 'checker'] as const) {
    const r = await post('/login', { email: people[who], password: PASSWORD }, {});
    assert.equal(r.status, 200, r.body);
    sessions[who] = { cookie: r.setCookie.split(';')[0]!, csrf: (JSON.parse(r.body) as { data: { csrf_token: string } }).data.csrf_token };
  }
  return sessions;
}

async function decide(post: Post, s: Record<Who, Session>, txnId: string, action: 'success' | 'failed', evidence: string): Promise<void> {
  const call = async (who: Who, url: string, payload: object) => {
    const r = await post(url, payload, { cookie: s[who].cookie, 'x-csrf-token': s[who].csrf });
    assert.equal(r.status, 200, r.body);
    return JSON.parse(r.body) as { data: { id: string } };
  };
  const proposed = await call('maker', `/admin/attention/${txnId}/resolutions`, { action, reason: 'No documented answer from the partner', evidence });
  await call('checker', `/admin/resolutions/${proposed.data.id}/approve`, {});
}

const made = new WeakMap<TestApp, Promise<Record<Who, Session>>>();

const injected =
  (t: TestApp): Post =>
  async (url, payload, headers) => {
    const r = await t.app.inject({ method: 'POST', url: `/console/api${url}`, payload, headers });
    return { status: r.statusCode, body: r.body, setCookie: String(r.headers['set-cookie'] ?? '') };
  };

/** A person settles pending `txnId` as `action` ('success' or 'failed'): proposed by one admin, approved by another. */
export async function personDecides(t: TestApp, txnId: string, action: 'success' | 'failed', evidence = 'Partner dashboard checked by hand'): Promise<void> {
  if (!made.has(t)) made.set(t, consolePeople(t.store.db).then((people) => signIn(injected(t), people)));
  await decide(injected(t), await made.get(t)!, txnId, action, evidence);
}

/** The same, against a running server at `base` with `people` made beforehand (consolePeople). */
export async function decideOverHttp(base: string, people: Record<Who, string>, txnId: string, action: 'success' | 'failed', evidence: string): Promise<void> {
  const post: Post = async (url, payload, headers) => {
    const r = await fetch(`${base}/console/api${url}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(payload), signal: AbortSignal.timeout(10_000) });
    return { status: r.status, body: await r.text(), setCookie: r.headers.get('set-cookie') ?? '' };
  };
  await decide(post, await signIn(post, people), txnId, action, evidence);
}
