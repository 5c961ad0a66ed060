// Owns the sandbox consent page behind authorization_url: the user sees who asks for what, and
// clicks Allow or Deny. Stands in for the document locker's own consent screen.
import type { FastifyInstance } from 'fastify';
import type { OperationDeps } from '../../../operations/operation.js';
import { CONSENT_PATH, decide, findSession } from '../../../operations/doclocker-initialize/sessions.js';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(title)}</title><style>
body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#1b1f24}
.card{border:1px solid #d0d7de;border-radius:12px;padding:1.5rem}h1{font-size:1.25rem}
button{font-size:1rem;padding:.6rem 1.4rem;border-radius:8px;border:1px solid #888;margin-right:.5rem;cursor:pointer}
button.allow{background:#1f6feb;color:#fff;border-color:#1f6feb}button:focus-visible{outline:3px solid #f0b400}
.muted{color:#57606a;font-size:.9rem}</style></head><body><main class="card">${body}</main></body></html>`;
}

export function registerSandboxConsentPage(app: FastifyInstance, deps: OperationDeps): void {
  // The Allow / Deny buttons are HTML forms, which a browser posts urlencoded. `app` is this page's own
  // plugin scope (routes/index.ts), so /api/v1 keeps refusing such bodies with a 415. The decision is in the path;
  // the form fields are parsed (URLSearchParams) but nothing reads them.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_req, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
  const load = async (clientId: string) => {
    const s = await findSession(deps.db, clientId);
    return s && s.environment === 'sandbox' ? s : undefined;
  };

  app.get<{ Params: { client_id: string } }>(`${CONSENT_PATH}:client_id`, { schema: { hide: true } }, async (req, reply) => {
    const s = await load(req.params.client_id);
    reply.type('text/html; charset=utf-8');
    if (!s) return reply.code(404).send(page('Not found', '<h1>This consent link is not valid</h1>'));
    if (s.status !== 'pending') return page('Already answered', `<h1>This request was already ${esc(s.status)}</h1>`);
    if (s.expires_at.getTime() <= Date.now()) return page('Expired', '<h1>This consent request has expired</h1>');
    const action = `${CONSENT_PATH}${encodeURIComponent(s.client_id)}`;
    return page(
      'Share your Aadhaar from DigiLocker',
      `<h1>Share your Aadhaar from DigiLocker?</h1>
<p>A Sangam client asks to download your Aadhaar XML (name, date of birth, gender, address and photo) for reference <strong>${esc(s.reference_id)}</strong>.</p>
<p class="muted">Sandbox: no real DigiLocker account is involved.</p>
<form method="post" action="${action}/allow" style="display:inline"><button class="allow" type="submit">Allow</button></form>
<form method="post" action="${action}/deny" style="display:inline"><button type="submit">Deny</button></form>`,
    );
  });

  app.post<{ Params: { client_id: string; decision: string } }>(
    `${CONSENT_PATH}:client_id/:decision`,
    { schema: { hide: true } },
    async (req, reply) => {
      const { client_id: clientId, decision } = req.params;
      reply.type('text/html; charset=utf-8');
      const s = await load(clientId);
      if (!s || (decision !== 'allow' && decision !== 'deny')) {
        return reply.code(404).send(page('Not found', '<h1>This consent link is not valid</h1>'));
      }
      const allow = decision === 'allow';
      if (!(await decide(deps.db, deps.transactions, clientId, allow))) {
        return reply.code(409).send(page('Already answered', '<h1>This request was already answered or has expired</h1>'));
      }
      if (s.redirect_url) {
        const to = new URL(s.redirect_url);
        to.searchParams.set('doclocker__client__id', clientId);
        to.searchParams.set('status', allow ? 'authorized' : 'denied');
        return reply.redirect(to.toString(), 303);
      }
      return page('Done', `<h1>${allow ? 'Access allowed' : 'Access denied'}</h1><p>You can close this window.</p>`);
    },
  );
}
