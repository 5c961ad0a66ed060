// Owns the hosted consent page: a link Sangam hands out with every consent record (`withdraw_url`)
// that the person who consented can open, without any key, to see the consent (purpose, operations,
// notice version, status, their masked identifier; operations by name and dates in IST, for a person,
// not an integrator) and withdraw it — the same withdrawal as
// POST /api/v1/consents/{id}/withdraw, audited as `subject:consent-page`. The link carries a token,
// HMAC-SHA256 of the consent id under the deployment's `consent_page` secret: unguessable, valid for
// that consent only, and no longer than the consent lives (a withdrawn one shows as withdrawn). The
// withdrawal is a POST that must carry the token in its form body, so another site cannot make a
// browser withdraw (it does not know the token); a wrong token is a 404, like an unknown consent.
// Its two routes (GET /consents/<id>, POST /consents/<id>/withdraw) are registered in src/routes/consents.ts.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db/client.js';
import { loadSecret } from '../http/signed-url.js';
import { esc } from '../http/html-page.js';
import { istDateTime, operationName } from '../contract/operation-names.js';
import type { ConsentView, Scope } from './store.js';

export const PAGE_PATH = '/consents/';
const secrets = new WeakMap<Db, Promise<string>>();

/** Signs and checks the page links of one deployment (its secret is made once, kept in the store). */
export class ConsentLinks {
  constructor(
    private db: Db,
    private baseUrl: string,
  ) {}

  private async mac(id: string): Promise<string> {
    if (!secrets.has(this.db)) secrets.set(this.db, loadSecret(this.db, 'consent_page'));
    return createHmac('sha256', await secrets.get(this.db)!).update(`consent-page\n${id}`).digest('base64url');
  }

  async url(id: string): Promise<string> {
    return `${this.baseUrl}${PAGE_PATH}${encodeURIComponent(id)}?t=${await this.mac(id)}`;
  }

  async valid(id: string, token: unknown): Promise<boolean> {
    if (typeof token !== 'string') return false;
    const want = Buffer.from(await this.mac(id));
    const got = Buffer.from(token);
    return want.length === got.length && timingSafeEqual(want, got);
  }

  /** The record with its page link. */
  async linked<T extends { id: string }>(view: T): Promise<T & { withdraw_url: string }> {
    return { ...view, withdraw_url: await this.url(view.id) };
  }
}

/** The account and environment of a consent, whoever asks (the page's link is checked first). */
export const consentScope = async (db: Db, id: string): Promise<Scope | undefined> => {
  const row = await db.selectFrom('consents').select(['account_id', 'environment']).where('id', '=', id).executeTakeFirst();
  return row && { accountId: row.account_id, environment: row.environment };
};

/** Status words for the person, not the API's. */
const STATUS: Record<string, string> = { active: 'Active', withdrawn: 'Withdrawn', expired: 'Expired' };

/** The consent as the person reads it: operations by name, moments in India's time (IST). */
export function details(c: ConsentView): string {
  const subject = Object.values(c.subject).filter(Boolean).join(', ');
  const covers = `<ul>${c.operations.map((op) => `<li>${esc(operationName(op))}</li>`).join('')}</ul>`;
  const status = `${esc(STATUS[c.status] ?? c.status)}${c.ended_at ? ` since ${esc(istDateTime(c.ended_at))}` : ''}`;
  return `<dl><dt>Purpose</dt><dd>${esc(c.purpose.text)}</dd><dt>Covers</dt><dd>${covers}</dd>
<dt>Notice</dt><dd>version ${esc(c.notice.version)} (${esc(c.notice.language)})</dd><dt>You</dt><dd>${esc(subject)}</dd>
<dt>Status</dt><dd data-status="${esc(c.status)}">${status}</dd>
<dt>Given</dt><dd><time datetime="${esc(c.collected_at)}">${esc(istDateTime(c.collected_at))}</time>${c.expires_at ? `, until <time datetime="${esc(c.expires_at)}">${esc(istDateTime(c.expires_at))}</time>` : ''}</dd></dl>`;
}

export const withdrawForm = (id: string, token: string) =>
  `<form method="post" action="${PAGE_PATH}${encodeURIComponent(id)}/withdraw"><input type="hidden" name="t" value="${esc(token)}"><button type="submit">Withdraw this consent</button></form>
<p class="muted">Withdrawing stops any further use at once and erases what was done under it (payment records stay, as the law requires).</p>`;
