// A tenant's verifiable audit export, checked offline with only the public key (in process and with
// `sangam audit verify-export`); erasure of one reference everywhere, with the chain still verifying;
// retention by data class.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash, sign } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { createAccount, createKey } from '../src/accounts/store.js';
import { loadSigningKey, purgeAudit, verifyAudit } from '../src/audit/checkpoints.js';
import { verifyExport } from '../src/audit/verify-export.js';
import { endMessage } from '../src/audit/proof.js';
import { BODY_TEXT, PLAIN_COLUMNS } from '../src/audit/chain.js';
import { linkHash, rowDigest } from '../src/audit/hashing.js';
import { dumpTables, eventually, PATHS, ref, startApp, VALID, type TestApp } from './harness.js';

const run = promisify(execFile);

describe('verifiable audit export', () => {
  let t: TestApp;
  let other: string;
  let text: string;
  let publicKeyB64: string;

  before(async () => {
    t = await startApp();
    const acct = await createAccount(t.store.db, 'Other Fintech');
    other = (await createKey(t.store.db, acct.id, 'sandbox')).key;
    // Interleave two tenants in the same chains, and a live row of our own that a sandbox export leaves out.
    for (let i = 0; i < 6; i++) {
      assert.equal((await t.call('POST', PATHS.signature, { body: VALID.signature() })).status, 200);
      assert.equal((await t.call('POST', PATHS.upi, { body: VALID.upi(), key: other })).status, 200);
    }
    await t.call('GET', '/api/v1/account/wallet', { key: t.liveKey });
    await t.services.audit.flush();
    const res = await t.call('GET', '/api/v1/audit-logs/export', { query: { format: 'verifiable' } });
    assert.equal(res.status, 200);
    assert.match(String(res.headers['content-type']), /application\/x-ndjson/);
    text = res.text;
    const key = await loadSigningKey(t.store.db, undefined);
    publicKeyB64 = key.publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
  });
  after(() => t.close());

  it('verifies offline: every row of the account, none of another, carried to a signed checkpoint', async () => {
    const key = await loadSigningKey(t.store.db, undefined);
    const v = verifyExport(text, key.publicKey);
    assert.equal(v.ok, true, JSON.stringify(v.first_error));
    assert.equal(v.account_id, t.accountId);
    assert.equal(v.environment, 'sandbox');
    const mine = await t.store.db.selectFrom('audit_logs').select((eb) => eb.fn.countAll<string>().as('n')).where('account_id', '=', t.accountId).where('environment', '=', 'sandbox').executeTakeFirstOrThrow();
    assert.equal(v.rows, Number(mine.n), 'every sandbox row of the account is in the export');
    assert.ok(v.links > 0, 'the other tenant\'s rows are there as opaque links');
    assert.ok(v.checkpoints >= 1);
    const lines = text.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.ok(lines.filter((l) => l.type === 'row').every((l) => l.account_id === t.accountId && l.environment === 'sandbox'));
    assert.ok(!text.includes(other.slice(0, 12)), 'nothing of the other tenant leaks');
    const link = lines.find((l) => l.type === 'link')!;
    assert.deepEqual(Object.keys(link).sort(), ['chain', 'digest', 'seq', 'type'], 'a link is a digest and a position, nothing else');
  });

  it('fails after any one-byte change: rows, links, checkpoints, header, end line', async () => {
    const key = await loadSigningKey(t.store.db, undefined);
    const flip = (i: number) => {
      const c = text[i]!;
      const to = c === '0' ? '1' : c === 'a' ? 'b' : c === '"' ? "'" : c === '\n' ? ' ' : /[0-9]/.test(c) ? '0' : 'a';
      return text.slice(0, i) + to + text.slice(i + 1);
    };
    // Chosen places, then a stride through the whole file.
    const at = (needle: string, from = 0) => text.indexOf(needle, from) + needle.length;
    const positions = [
      at('"request_body":{') + 2, // a row's content
      at('"digest":"') + 5, // a link
      at('"type":"checkpoint"') + 40, // a checkpoint
      at('"signature":"', text.indexOf('"type":"checkpoint"')) + 3, // its signature
      at('"generated_at":"') + 3, // the header
      text.length - 20, // the end line's signature
      // Base64's slack: the unused bits of a signature's last character, and its padding (Node's
      // decoder ignores both, so only a canonical-base64 check notices).
      text.lastIndexOf('=="}') - 1,
      text.lastIndexOf('=="}') + 1,
      text.indexOf('=="', text.indexOf('"type":"checkpoint"')) - 1,
      text.length - 1, // the final newline
    ];
    for (let i = 0; i < text.length; i += Math.max(1, Math.floor(text.length / 150))) positions.push(i);
    for (const i of positions) {
      const v = verifyExport(flip(i), key.publicKey);
      assert.equal(v.ok, false, `a change at byte ${i} (${JSON.stringify(text.slice(Math.max(0, i - 20), i + 20))}) went unnoticed`);
    }
    // Whole lines: one dropped, two swapped.
    const lines = text.split('\n');
    const dropped = [...lines.slice(0, 3), ...lines.slice(4)].join('\n');
    assert.equal(verifyExport(dropped, key.publicKey).ok, false);
    const swapped = [...lines];
    [swapped[2], swapped[3]] = [swapped[3]!, swapped[2]!];
    assert.equal(verifyExport(swapped.join('\n'), key.publicKey).ok, false);
  });

  it('is refused with another key, and the CLI gives the same verdicts offline', async () => {
    const { generateKeyPairSync } = await import('node:crypto');
    const stranger = generateKeyPairSync('ed25519').publicKey;
    const v = verifyExport(text, stranger);
    assert.equal(v.ok, false);
    assert.match(v.first_error!.reason, /not by the given key/);

    const dir = mkdtempSync(path.join(tmpdir(), 'sangam-export-'));
    const good = path.join(dir, 'export.ndjson');
    const bad = path.join(dir, 'changed.ndjson');
    writeFileSync(good, text);
    const i = text.indexOf('"latency_ms":') + 13;
    writeFileSync(bad, text.slice(0, i) + (text[i] === '9' ? '8' : '9') + text.slice(i + 1));
    // No store and no config: the CLI reads the file and the key, nothing else.
    const env = { ...process.env, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', SANGAM_DATA_DIR: path.join(dir, 'nothing') };
    const ok = await run(process.execPath, ['bin/sangam.js', 'audit', 'verify-export', good, '--public-key', publicKeyB64], { env });
    assert.equal(JSON.parse(ok.stdout).ok, true);
    const failed = await run(process.execPath, ['bin/sangam.js', 'audit', 'verify-export', bad, '--public-key', publicKeyB64], { env }).then(
      () => assert.fail('a changed export must exit non-zero'),
      (err: { code: number; stderr: string }) => err,
    );
    assert.equal(failed.code, 1);
    assert.match(JSON.parse(failed.stderr).first_error.reason, /changed/);
  });

  it('covers rows written after an earlier export, and leaves legacy rows counted but unproven', async () => {
    await t.call('POST', PATHS.signature, { body: VALID.signature() });
    await t.services.audit.flush();
    const again = await t.call('GET', '/api/v1/audit-logs/export', { query: { format: 'verifiable', operation: 'signature-match' } });
    const v = verifyExport(again.text, (await loadSigningKey(t.store.db, undefined)).publicKey);
    assert.equal(v.ok, true, JSON.stringify(v.first_error));
    assert.equal(v.rows, 7, 'the filter narrows the rows; the others of the account become links');
    assert.equal(v.unprovable, 0);
  });

  it('refuses values of the wrong JSON type even in a file signed with the key, and never crashes on a malformed one', async () => {
    const key = await loadSigningKey(t.store.db, undefined);
    // What only the key holder could do: change a line and seal the file again.
    const reseal = (changed: string) => {
      const body = changed.slice(0, changed.lastIndexOf('\n', changed.length - 2) + 1);
      const end = JSON.parse(changed.slice(body.length)) as Record<string, unknown>;
      const sealed = { sha256: createHash('sha256').update(body).digest('hex'), rows: end.rows as number, links: end.links as number, checkpoints: end.checkpoints as number, unprovable: end.unprovable as number };
      return `${body}${JSON.stringify({ ...end, ...sealed, signature: sign(null, endMessage(sealed), key.privateKey).toString('base64') })}\n`;
    };
    assert.equal(verifyExport(reseal(text), key.publicKey).ok, true, 'resealing an unchanged file keeps it valid');
    const coerced = verifyExport(reseal(text.replace('"ok":true', '"ok":1')), key.publicKey);
    assert.equal(coerced.ok, false);
    assert.match(coerced.first_error!.reason, /ok must be true or false/);
    for (const broken of [
      text.replace(/"heads":\{"0":/, '"heads":{"00":'),
      text.replace(/"heads":\{"0":\{[^}]*\}/, '"heads":{"0":null'),
      text.replace(/"created_at":"[^"]*"/, '"created_at":"not a date"'),
      text.replace(/,"content":(\{[^\n]*?\}|null)\}\n/, '}\n'),
    ]) {
      assert.notEqual(broken, text, 'the test changed something');
      const v = verifyExport(reseal(broken), key.publicKey);
      assert.equal(v.ok, false, JSON.stringify(v));
    }
  });

  it('pins history: a rewrite that re-hashes the chain and drops later checkpoints verifies alone, but not against an export kept from before', async () => {
    const key = await loadSigningKey(t.store.db, undefined);
    const kept = text;
    const lines = kept.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const victim = lines.find((l) => l.type === 'row' && l.operation === 'signature-match')!;
    const chain = victim.chain as number;
    const from = victim.seq as number;
    // The attacker with write access: change the row, re-hash its chain onward, move the head, and
    // delete every signed checkpoint that recorded the old hashes.
    await sql`update audit_logs set http_status = 500 where chain = ${chain} and seq = ${from}`.execute(t.store.db);
    const rows = await t.store.db.selectFrom('audit_logs').select([...PLAIN_COLUMNS, ...BODY_TEXT]).where('chain', '=', chain).where('seq', '>=', from).orderBy('seq').execute();
    let prev = victim.prev_hash as string;
    for (const r of rows) {
      const hash = linkHash(prev, rowDigest({ ...r, data_class: r.data_class!, content_hash: r.content_hash! }));
      await t.store.db.updateTable('audit_logs').set({ prev_hash: prev, hash }).where('id', '=', r.id).execute();
      prev = hash;
    }
    await t.store.db.updateTable('audit_heads').set({ hash: prev }).where('chain', '=', chain).execute();
    await sql`delete from audit_signed_checkpoints where (heads -> ${String(chain)} ->> 'seq')::bigint >= ${from}`.execute(t.store.db);
    assert.equal((await verifyAudit(t.store.db)).ok, true, 'the store alone no longer shows the rewrite');

    const forged = (await t.call('GET', '/api/v1/audit-logs/export', { query: { format: 'verifiable' } })).text;
    assert.equal(verifyExport(forged, key.publicKey).ok, true, 'a new export verifies on its own');
    const v = verifyExport(forged, key.publicKey, kept);
    assert.equal(v.ok, false);
    assert.match(v.first_error!.reason, /differs from the pinned export/);
    // And an honest later export agrees with the kept one.
    assert.ok((verifyExport(kept, key.publicKey, kept).pinned_positions ?? 0) > 0);
  });

  it('is a 422 for another environment, like every audit read', async () => {
    const res = await t.call('GET', '/api/v1/audit-logs/export', { query: { format: 'verifiable', environment: 'live' } });
    assert.equal(res.status, 422);
    assert.equal(res.body.data.errors[0].field, 'environment');
  });
});

describe('erasure and retention by data class', () => {
  let t: TestApp;
  let receiver: Server;
  const MARKER = 'Quillfeather Erasmus';

  before(async () => {
    receiver = createServer((_req, res) => res.end('ok')).listen(0, '127.0.0.1');
    await new Promise((r) => receiver.once('listening', r));
    // A pending lasts long enough to be refused before it ends, on a busy machine too.
    t = await startApp({ SANGAM_WEBHOOK_ALLOW_PRIVATE: '1', SANGAM_SANDBOX_PENDING_MS: '3000' });
    const port = (receiver.address() as { port: number }).port;
    assert.equal((await t.call('POST', '/api/v1/webhook-endpoints', { body: { url: `http://127.0.0.1:${port}/hooks` } })).status, 200);
  });
  after(async () => {
    await t.close();
    receiver.close();
  });

  it('erases one reference from every table; the chain, the ledger and the status stay', async () => {
    const reference = ref('erase');
    const body = { ...VALID.upi(), reference_id: reference, vpa: 'pending@sandbox' };
    const first = await t.call('POST', PATHS.upi, { body });
    assert.equal(first.status, 200);
    // Pending: refused, its stored request may still be needed.
    const early = await t.call('POST', '/api/v1/erasures', { body: { reference_id: reference } });
    assert.equal(early.status, 422);
    assert.equal(early.body.data.errors[0].field, 'reference_id');
    await eventually(async () => (await t.call('GET', `/api/v1/transactions/${reference}`)).body.data.status !== 'pending', 20_000);
    // A second call under the reference executes nothing (CONTRACT §5: 409/114), but its request is on record.
    const reused = await t.call('POST', PATHS.signature, { body: { ...VALID.signature(), reference_id: reference, name: MARKER } });
    assert.equal(reused.status, 409, reused.text);
    await eventually(async () => (await t.store.db.selectFrom('webhook_events').select('id').executeTakeFirst()) !== undefined);
    await t.services.audit.flush();
    const before = await dumpTables(t.store.db);
    assert.ok(before.includes(MARKER), 'the scan sees the marker before the erasure (the test can see what it looks for)');
    const balance = (await t.call('GET', '/api/v1/account/wallet')).body.data;

    const res = await t.call('POST', '/api/v1/erasures', { body: { reference_id: reference } });
    assert.equal(res.status, 200, res.text);
    assert.ok(res.body.data.audit_rows_erased >= 3, JSON.stringify(res.body.data));
    assert.equal(res.body.data.transactions_scrubbed, 1);
    await t.services.audit.flush();

    const dump = await dumpTables(t.store.db);
    assert.ok(!dump.includes(MARKER), 'the marker is gone from every table');
    if (t.location.databaseUrl) {
      // The real thing on PostgreSQL: pg_dump, when the server's tools are installed.
      const pgDump = await run('pg_dump', ['--data-only', t.location.databaseUrl], { maxBuffer: 1 << 28 }).catch(() => null);
      if (pgDump) assert.ok(!pgDump.stdout.includes(MARKER), 'the marker is gone from pg_dump');
    }
    const v = await verifyAudit(t.store.db);
    assert.equal(v.ok, true, JSON.stringify(v));

    // The money facts and the status stay; the erasure itself is on record, without the content.
    const status = await t.call('GET', `/api/v1/transactions/${reference}`);
    assert.equal(status.status, 200);
    assert.ok(['success', 'failed'].includes(status.body.data.status));
    assert.ok(status.body.data.erased_at);
    assert.deepEqual((await t.call('GET', '/api/v1/account/wallet')).body.data, balance);
    const replay = await t.call('POST', PATHS.upi, { body });
    assert.equal(replay.status, 200);
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    assert.ok(!replay.text.includes(MARKER));
    const admin = await t.store.db.selectFrom('audit_logs').select(sql<string>`request_body::text`.as('body')).where('path', '=', 'audit erase').executeTakeFirstOrThrow();
    assert.match(admin.body, new RegExp(`"actor": "key:${t.keyId}"`));

    // An export after the erasure still verifies: erased rows carry their commitment only.
    const exp = await t.call('GET', '/api/v1/audit-logs/export', { query: { format: 'verifiable', reference_id: reference } });
    const ev = verifyExport(exp.text, (await loadSigningKey(t.store.db, undefined)).publicKey);
    assert.equal(ev.ok, true, JSON.stringify(ev.first_error));
    assert.ok(exp.text.includes('"content":null'));
  });

  it('catches content edited in place, while erased content is accepted', async () => {
    await t.call('POST', PATHS.signature, { body: VALID.signature() });
    await t.services.audit.flush();
    const row = await t.store.db.selectFrom('audit_logs').select(['id']).where('erased_at', 'is', null).where('content_hash', 'is not', null).orderBy('id', 'desc').executeTakeFirstOrThrow();
    await sql`update audit_logs set request_body = '{"name":"someone else"}'::jsonb where id = ${row.id}`.execute(t.store.db);
    const v = await verifyAudit(t.store.db);
    assert.equal(v.ok, false);
    assert.equal(v.first_broken!.id, row.id);
    assert.match(v.first_broken!.reason, /content does not match its commitment/);
    // Emptying it the way an erasure does restores a verifiable chain (the commitment still links).
    await sql`update audit_logs set request_body = null, response_body = null, client_ip = null, content_salt = null, erased_at = now() where id = ${row.id}`.execute(t.store.db);
    assert.equal((await verifyAudit(t.store.db)).ok, true);
    // But metadata is hashed as it is: a changed status is caught even on an erased row.
    await sql`update audit_logs set http_status = 201 where id = ${row.id}`.execute(t.store.db);
    const broken = await verifyAudit(t.store.db);
    assert.equal(broken.ok, false);
    assert.match(broken.first_broken!.reason, /metadata/);
    await sql`update audit_logs set http_status = 200 where id = ${row.id}`.execute(t.store.db);
  });

  it('retention erases identity content first, other bodies later, metadata last; verify passes at each step', async () => {
    await t.call('POST', PATHS.signature, { body: VALID.signature() });
    await t.call('POST', PATHS.recharge, { body: VALID.recharge() });
    await t.services.audit.flush();
    const live = (cls: string) =>
      t.store.db.selectFrom('audit_logs').select((eb) => eb.fn.countAll<string>().as('n')).where('data_class', '=', cls).where('erased_at', 'is', null).executeTakeFirstOrThrow().then((r) => Number(r.n));
    assert.ok((await live('identity')) > 0 && (await live('bodies')) > 0);
    const soon = new Date(Date.now() + 60_000);

    const r1 = await purgeAudit(t.store.db, { identity: soon }, undefined);
    assert.ok(r1.content_erased.identity > 0);
    assert.equal(await live('identity'), 0);
    assert.ok((await live('bodies')) > 0, 'other bodies outlive identity content');
    assert.equal((await verifyAudit(t.store.db)).ok, true);

    const r2 = await purgeAudit(t.store.db, { bodies: soon }, undefined);
    assert.ok(r2.content_erased.bodies > 0);
    assert.equal(await live('bodies'), 0);
    const kept = await t.store.db.selectFrom('audit_logs').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    assert.ok(Number(kept.n) > 0, 'metadata is still there');
    assert.equal((await verifyAudit(t.store.db)).ok, true);
    // The search API still answers from metadata.
    const search = await t.call('GET', '/api/v1/audit-logs', { query: { operation: 'signature-match' } });
    assert.ok(search.body.data.items.length > 0);
    assert.equal(search.body.data.items[0].client_ip, null);
  });
});
