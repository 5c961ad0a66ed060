// Owns the hosted consent page's routes: GET /consents/<id>?t=… shows the consent to the person who gave it,
// POST /consents/<id>/withdraw (the token in the form body) withdraws it. No key: the link's token is
// the credential (consents/page.ts signs and checks it, and renders the consent for a person).
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.js';
import { sendPage } from '../http/html-page.js';
import { consentScope, details, PAGE_PATH, withdrawForm, type ConsentLinks } from '../consents/page.js';
import { getConsent } from '../consents/store.js';
import { withdraw, type EndDeps } from '../consents/withdrawal.js';

type Req = { Params: { id: string }; Querystring: { t?: string }; Body: { t?: string } };

export function registerConsentPage(app: FastifyInstance, deps: { links: ConsentLinks; end: EndDeps }): void {
  // Browsers post forms urlencoded; the parser lives in this page's plugin scope only (routes/index.ts), so the
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
