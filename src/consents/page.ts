// Owns the hosted consent page: a link Sangam hands out with every consent record (`withdraw_url`)
// that the person who consented can open, without any key, to see the consent (purpose, operations,
// notice version, status, their masked identifier; operations by name and dates in IST, for a person,
// not an integrator) and withdraw it — the same withdrawal as
// POST /api/v1/consents/{id}/withdraw, audited as `subject:consent-page`. The link carries a token,
// HMAC-SHA256 of the consent id under the deployment's `consent_page` secret: unguessable, valid for
// that consent only, and no longer than the consent lives (a withdrawn one shows as withdrawn). The
// withdrawal is a POST that must carry the token in its form body, so another site cannot make a
// browser withdraw (it does not know the token); a wrong token is a 404, like an unknown consent.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/client.js';
import { ApiError } from '../errors.js';
import { loadSecret } from '../http/signed-url.js';
import { esc, sendPage } from '../http/html-page.js';
import { istDateTime, operationName } from '../contract/operation-names.js';
import { getConsent, type ConsentView, type Scope } from './store.js';
import { withdraw, type EndDeps } from './withdrawal.js';

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

const consentScope = async (db: Db, id: string): Promise<Scope | undefined> => {
  const row = await db.selectFrom('consents').select(['account_id', 'environment']).where('id', '=', id).executeTakeFirst();
  return row && { accountId: row.account_id, environment: row.environment };
};

/** Status words for the person, not the API's. */
const STATUS: Record<string, string> = { active: 'Active', withdrawn: 'Withdrawn', expired: 'Expired' };

/** The consent as the person reads it: operations by name, moments in India's time (IST). */
function details(c: ConsentView): string {
  const subject = Object.values(c.subject).filter(Boolean).join(', ');
  const covers = `<ul>${c.operations.map((op) => `<li>${esc(operationName(op))}</li>`).join('')}</ul>`;
  const status = `${esc(STATUS[c.status] ?? c.status)}${c.ended_at ? ` since ${esc(istDateTime(c.ended_at))}` : ''}`;
  return `<dl><dt>Purpose</dt><dd>${esc(c.purpose.text)}</dd><dt>Covers</dt><dd>${covers}</dd>
<dt>Notice</dt><dd>version ${esc(c.notice.version)} (${esc(c.notice.language)})</dd><dt>You</dt><dd>${esc(subject)}</dd>
<dt>Status</dt><dd data-status="${esc(c.status)}">${status}</dd>
<dt>Given</dt><dd><time datetime="${esc(c.collected_at)}">${esc(istDateTime(c.collected_at))}</time>${c.expires_at ? `, until <time datetime="${esc(c.expires_at)}">${esc(istDateTime(c.expires_at))}</time>` : ''}</dd></dl>`;
}

const withdrawForm = (id: string, token: string) =>
  `<form method="post" action="${PAGE_PATH}${encodeURIComponent(id)}/withdraw"><input type="hidden" name="t" value="${esc(token)}"><button type="submit">Withdraw this consent</button></form>
<p class="muted">Withdrawing stops any further use at once and erases what was done under it (payment records stay, as the law requires).</p>`;

type Req = { Params: { id: string }; Querystring: { t?: string }; Body: { t?: string } };

export function registerConsentPage(app: FastifyInstance, deps: { links: ConsentLinks; end: EndDeps }): void {
  // Browsers post forms urlencoded; the parser lives in this page's plugin scope only (app.ts), so the
  // API keeps refusing such bodies with a 415.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_req, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
  const notFound = (reply: Parameters<typeof sendPage>[0]) => sendPage(reply, 404, 'Not found', '<h1>This consent link is not valid</h1>');
  const open = async (id: string, token: unknown) => ((await deps.links.valid(id, token)) ? consentScope(deps.end.db, id) : undefined);

  app.get<Req>(`${PAGE_PATH}:id`, { schema: { hide: true } }, async (req, reply) => {
    const scope = await open(req.params.id, req.query.t);
    if (!scope) return notFound(reply);
    const c = await getConsent(deps.end.db, scope, req.params.id);
    return sendPage(reply, 200, 'Your consent', `<h1>Your consent</h1>${details(c)}${c.status === 'active' ? withdrawForm(c.id, req.query.t!) : ''}`);
  });

  app.post<Req>(`${PAGE_PATH}:id/withdraw`, { schema: { hide: true } }, async (req, reply) => {
    const scope = await open(req.params.id, req.body?.t);
    if (!scope) return notFound(reply);
    try {
      const c = await withdraw(deps.end, scope, req.params.id, 'subject:consent-page');
      return sendPage(reply, 200, 'Consent withdrawn', `<h1>Consent withdrawn</h1>${details(c)}<p>You can close this window.</p>`);
    } catch (err) {
      if (!(err instanceof ApiError) || err.code !== 'validation') throw err;
      const c = await getConsent(deps.end.db, scope, req.params.id);
      return sendPage(reply, 409, 'Nothing to withdraw', `<h1>This consent has already ended</h1>${details(c)}`);
    }
  });
}
