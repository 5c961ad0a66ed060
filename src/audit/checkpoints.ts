// Owns the signed checkpoints that link the audit hash chains (chain.ts). A checkpoint reads every
// chain head (chain → seq, hash) in one statement, takes a Merkle root over them, and signs the root
// and the time with an Ed25519 key from config (SANGAM_AUDIT_SIGNING_KEY) or, when that is unset, one
// generated into server_secrets at first boot. Verification needs only the public key: each
// checkpoint's signature and root are checked, and every head it records must still be in its chain
// with the same hash — so a chain rewritten and re-hashed by someone with write access to the store,
// or cut short along with its head row, is caught. Checkpoints are written by a periodic worker (one
// per process; a checkpoint younger than the period is not repeated) and after every purge.
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.js';
import { periodic, PollingWorker, type BackgroundWorker } from '../polling-loop.js';
import { checkpointMessage as message, merkleRoot, type Heads } from './hashing.js';
import { cutoffs, eraseContentBefore, type DataClass, type RetentionDays } from './retention.js';
import { chainStarts, purgeBefore, verifyChains, type Expectations, type VerifyResult } from './chain.js';

const SECRET_NAME = 'audit_signing_key';

export interface SigningKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
  keyId: string;
}

/** The key id: the first 16 hex digits of SHA-256 over the public key's SPKI DER. */
export const keyIdOf = (publicKey: KeyObject) => createHash('sha256').update(publicKey.export({ type: 'spki', format: 'der' })).digest('hex').slice(0, 16);

/** A key given as PEM or as base64 DER (PKCS#8 for a private key, SPKI for a public one). */
function parseKey(text: string, kind: 'private' | 'public'): KeyObject {
  const t = text.trim();
  const der = Buffer.from(t, 'base64');
  const key =
    kind === 'private'
      ? createPrivateKey(t.startsWith('-----') ? t : { key: der, format: 'der', type: 'pkcs8' })
      : createPublicKey(t.startsWith('-----') ? t : { key: der, format: 'der', type: 'spki' });
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`the audit ${kind} key must be an Ed25519 key, not ${key.asymmetricKeyType}`);
  return key;
}

export function publicKeyFrom(text: string): { publicKey: KeyObject; keyId: string } {
  const publicKey = parseKey(text, 'public');
  return { publicKey, keyId: keyIdOf(publicKey) };
}

/** The configured key, else the one in the store (generated there once, by whichever process is first). */
export async function loadSigningKey(db: Db, configured: string | undefined): Promise<SigningKey> {
  let privateKey: KeyObject;
  if (configured) {
    privateKey = parseKey(configured, 'private');
  } else {
    const generated = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64');
    await db.insertInto('server_secrets').values({ name: SECRET_NAME, value: generated }).onConflict((oc) => oc.doNothing()).execute();
    const row = await db.selectFrom('server_secrets').select('value').where('name', '=', SECRET_NAME).executeTakeFirstOrThrow();
    privateKey = parseKey(row.value, 'private');
  }
  const publicKey = createPublicKey(privateKey);
  return { privateKey, publicKey, keyId: keyIdOf(publicKey) };
}

/** The public key verification uses when none is given: the configured key's, or the stored one's. */
export async function defaultPublicKey(db: Db, configured: string | undefined): Promise<{ publicKey: KeyObject; keyId: string } | null> {
  if (configured) return loadSigningKey(db, configured);
  const row = await db.selectFrom('server_secrets').select('value').where('name', '=', SECRET_NAME).executeTakeFirst();
  if (!row) return null;
  const publicKey = createPublicKey(parseKey(row.value, 'private'));
  return { publicKey, keyId: keyIdOf(publicKey) };
}

export { merkleRoot };

/** Writes a signed checkpoint over every chain head as committed now. No lock is taken: nobody waits. */
export interface SignedCheckpoint {
  id: number;
  created_at: Date;
  heads: Heads;
  merkle_root: string;
  key_id: string;
  signature: string;
}

export async function writeCheckpoint(db: Db, key: SigningKey, reason: string): Promise<SignedCheckpoint> {
  const rows = await db.selectFrom('audit_heads').select(['chain', 'seq', 'hash']).orderBy('chain').execute();
  const heads: Heads = Object.fromEntries(rows.map((r) => [String(r.chain), { seq: r.seq, hash: r.hash }]));
  const root = merkleRoot(heads);
  const createdAt = new Date();
  const signature = sign(null, message(createdAt, root), key.privateKey).toString('base64');
  const { id } = await db
    .insertInto('audit_signed_checkpoints')
    .values({ created_at: createdAt, heads: JSON.stringify(heads), merkle_root: root, key_id: key.keyId, signature, reason })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id, created_at: createdAt, heads, merkle_root: root, key_id: key.keyId, signature };
}

/**
 * Verifies every signed checkpoint (signature, Merkle root), then every chain (links, positions, and
 * the heads the checkpoints recorded). `publicKey` null: there is no key to check signatures with, so
 * any signed checkpoint fails verification; undefined: the key stored in the database (tests, and a
 * server without a configured key).
 */
export async function verifyAudit(
  db: Db,
  givenKey?: { publicKey: KeyObject; keyId: string } | null,
  onProgress?: (checked: number) => void,
): Promise<VerifyResult & { first_bad_checkpoint?: { id: number; reason: string } }> {
  const key = givenKey === undefined ? await defaultPublicKey(db, undefined) : givenKey;
  const starts = await chainStarts(db);
  const expected: Expectations = new Map();
  let count = 0;
  let after = 0;
  for (;;) {
    const page = await db
      .selectFrom('audit_signed_checkpoints')
      .select(['id', 'created_at', sql<string>`heads::text`.as('heads'), 'merkle_root', 'key_id', 'signature'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(1000)
      .execute();
    if (page.length === 0) break;
    for (const cp of page) {
      const bad = (reason: string) => ({ ok: false, checked: 0, chains: starts.size, checkpoints: count, first_bad_checkpoint: { id: cp.id, reason } });
      if (!key) return bad('no public key to verify signed checkpoints with (give --public-key)');
      if (cp.key_id !== key.keyId) return bad(`signed by key ${cp.key_id}, not by the given key ${key.keyId}`);
      let heads: Heads;
      try {
        heads = JSON.parse(cp.heads) as Heads;
      } catch {
        return bad('heads are not JSON');
      }
      if (merkleRoot(heads) !== cp.merkle_root) return bad('the Merkle root does not match the recorded heads');
      if (!verify(null, message(new Date(cp.created_at), cp.merkle_root), key.publicKey, Buffer.from(cp.signature, 'base64'))) {
        return bad('the signature does not verify');
      }
      for (const [c, head] of Object.entries(heads)) {
        const chain = Number(c);
        const start = starts.get(chain);
        if (!start) return bad(`chain ${chain} is recorded but has no head any more (a chain was removed)`);
        if (head.seq < start.seq) continue; // purged since
        if (head.seq === start.seq) {
          if (head.hash !== start.hash) return bad(`chain ${chain}'s start does not match this checkpoint`);
          continue;
        }
        let m = expected.get(chain);
        if (!m) expected.set(chain, (m = new Map()));
        const prior = m.get(head.seq);
        if (prior && prior.hash !== head.hash) return bad(`chain ${chain} seq ${head.seq} differs from checkpoint ${prior.checkpoint_id}`);
        if (!prior) m.set(head.seq, { hash: head.hash, checkpoint_id: cp.id });
      }
      count++;
    }
    after = page.at(-1)!.id;
  }
  const result = await verifyChains(db, expected, onProgress);
  return { ...result, checkpoints: count };
}

/**
 * Retention by data class: content of identity rows and of other rows erased (commitments kept), then
 * rows past metadata retention deleted (per-chain start checkpoints, chain.ts), then a signed
 * checkpoint over the heads. A class without a cut-off is left alone.
 */
export async function purgeAudit(db: Db, cut: Partial<Record<DataClass | 'metadata', Date>>, configuredKey: string | undefined) {
  const erased = { identity: 0, bodies: 0 };
  for (const c of ['identity', 'bodies'] as const) if (cut[c]) erased[c] = await eraseContentBefore(db, c, cut[c]);
  const purged = cut.metadata ? await purgeBefore(db, cut.metadata) : { deleted: 0, checkpoints: [] };
  const reason = Object.entries(cut).map(([c, d]) => `${c} before ${d.toISOString()}`).join(', ');
  const signed = await writeCheckpoint(db, await loadSigningKey(db, configuredKey), `after retention: ${reason}`);
  return { content_erased: erased, ...purged, signed_checkpoint_id: signed.id };
}

/** Audit retention as a background worker: looks every hour and purges in the 02:00 UTC hour. */
export function nightlyRetention(db: Db, days: RetentionDays, configuredKey: string | undefined, log: FastifyBaseLogger): BackgroundWorker {
  return periodic('audit retention', 3_600_000, async () => {
    if (new Date().getUTCHours() === 2) await purgeAudit(db, cutoffs(days), configuredKey);
  }, log);
}

/** Writes a signed checkpoint every `everyS` seconds, unless one (from any process) is younger than that. */
export class Checkpointer extends PollingWorker {
  readonly name = 'audit checkpoints';

  constructor(
    private db: Db,
    private configuredKey: string | undefined,
    private everyS: number,
    log: FastifyBaseLogger,
  ) {
    super(everyS * 1000, log);
  }

  async tick(): Promise<void> {
    const recent = await this.db
      .selectFrom('audit_signed_checkpoints')
      .select('id')
      .where('created_at', '>', new Date(Date.now() - this.everyS * 1000 + 500))
      .limit(1)
      .executeTakeFirst();
    if (recent) return;
    await writeCheckpoint(this.db, await loadSigningKey(this.db, this.configuredKey), 'periodic');
  }
}
