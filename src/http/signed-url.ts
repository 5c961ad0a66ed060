// Owns signed, expiring URLs for documents the API hands out (Xml_Url): HMAC-SHA256 over path and
// expiry with a secret the server generates once and keeps in the store.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db/client.js';

/** The deployment's secret `name`, made by `generate` (32 random bytes by default) by whichever process is first. */
export async function loadSecret(db: Db, name: string, generate = () => randomBytes(32).toString('base64url')): Promise<string> {
  await db
    .insertInto('server_secrets')
    .values({ name, value: generate() })
    .onConflict((oc) => oc.doNothing())
    .execute();
  const row = await db.selectFrom('server_secrets').select('value').where('name', '=', name).executeTakeFirstOrThrow();
  return row.value;
}

export class UrlSigner {
  constructor(
    private secret: string,
    private baseUrl: string,
  ) {}

  private mac(path: string, expires: number): string {
    return createHmac('sha256', this.secret).update(`${path}\n${expires}`).digest('base64url');
  }

  sign(path: string, expires: Date): string {
    const exp = Math.floor(expires.getTime() / 1000);
    return `${this.baseUrl}${path}?expires=${exp}&signature=${this.mac(path, exp)}`;
  }

  /** 'ok', or why the link is not valid. */
  verify(path: string, expires: unknown, signature: unknown): 'ok' | 'expired' | 'invalid' {
    const exp = Number(expires);
    if (!Number.isSafeInteger(exp) || typeof signature !== 'string') return 'invalid';
    const want = Buffer.from(this.mac(path, exp));
    const got = Buffer.from(signature);
    if (want.length !== got.length || !timingSafeEqual(want, got)) return 'invalid';
    return exp * 1000 < Date.now() ? 'expired' : 'ok';
  }
}
