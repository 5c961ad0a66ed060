// Owns the simulator's consent screen, the stand-in for DigiLocker's own: the page behind a live
// authorization_url, and the user's Allow or Deny. A decision settles the initialize request through
// the simulator's usual signed callback, then sends the user on to the redirect_url given at
// initialize (or shows a short page). A browser posts the buttons as application/x-www-form-urlencoded
// forms; that parser lives in this plugin's scope only, so the partner API stays JSON-only.
import type { FastifyInstance } from 'fastify';

export interface Consent {
  /** The initialize request's client_ref, settled by the decision. */
  initRef: string;
  status: 'pending' | 'authorized' | 'denied';
  redirectUrl: string | null;
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const page = (title: string, body: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>${esc(title)}</title><style>
body{font-family:system-ui,sans-serif;max-width:30rem;margin:3rem auto;padding:0 1rem;color:#1b1f24}
header{font-weight:600;color:#5a2d82;margin-bottom:1rem}.card{border:1px solid #d0d7de;border-radius:12px;padding:1.5rem}
h1{font-size:1.25rem}button{font-size:1rem;padding:.6rem 1.4rem;border-radius:8px;border:1px solid #888;margin-right:.5rem;cursor:pointer}
button.allow{background:#5a2d82;color:#fff;border-color:#5a2d82}button:focus-visible{outline:3px solid #f0b400}
.muted{color:#57606a;font-size:.9rem}</style></head><body><header>DigiLocker (simulated)</header><main class="card">${body}</main></body></html>`;

export async function registerConsentScreen(app: FastifyInstance, consents: Map<string, Consent>, decided: (c: Consent, allow: boolean) => void): Promise<void> {
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_req, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );

    scope.get<{ Params: { id: string } }>('/consent/:id', async (req, reply) => {
      reply.type('text/html; charset=utf-8');
      const c = consents.get(req.params.id);
      if (!c) return reply.code(404).send(page('Unknown request', '<h1>Unknown request</h1>'));
      if (c.status !== 'pending') return page('Already answered', `<h1>This request was already ${c.status}</h1>`);
      const action = `/consent/${encodeURIComponent(req.params.id)}`;
      return page(
        'Share your Aadhaar?',
        `<h1>Share your Aadhaar with the requester?</h1>
<p>They will receive your Aadhaar XML: name, date of birth, gender, address and photo.</p>
<p class="muted">Simulator: no real DigiLocker account is involved.</p>
<form method="post" action="${action}/allow" style="display:inline"><button class="allow" type="submit">Allow</button></form>
<form method="post" action="${action}/deny" style="display:inline"><button type="submit">Deny</button></form>`,
      );
    });

    scope.post<{ Params: { id: string; decision: string } }>('/consent/:id/:decision', async (req, reply) => {
      reply.type('text/html; charset=utf-8');
      const { id, decision } = req.params;
      const c = consents.get(id);
      if (!c || (decision !== 'allow' && decision !== 'deny')) return reply.code(404).send(page('Unknown request', '<h1>Unknown request</h1>'));
      if (c.status !== 'pending') return reply.code(409).send(page('Already answered', `<h1>This request was already ${c.status}</h1>`));
      const allow = decision === 'allow';
      c.status = allow ? 'authorized' : 'denied';
      decided(c, allow);
      if (c.redirectUrl) {
        const to = new URL(c.redirectUrl);
        to.searchParams.set('doclocker__client__id', id);
        to.searchParams.set('status', c.status);
        return reply.redirect(to.toString(), 303);
      }
      return page('Done', `<h1>${allow ? 'Access allowed' : 'Access denied'}</h1><p>You can close this window.</p>`);
    });
  });
}
