// Owns the small server-rendered pages people open from a link (no console, no script): escaping, one
// plain layout, and the headers such a page needs — never cached, never framed, no referrer (its URL may
// carry a capability), nothing loaded from elsewhere, forms posting only back to us.
import type { FastifyReply } from 'fastify';

export const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const STYLE = `body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1b1f24}
.card{border:1px solid #d0d7de;border-radius:12px;padding:1.5rem}h1{font-size:1.25rem}dt{font-weight:600;margin-top:.6rem}dd{margin:0}
button{font-size:1rem;padding:.6rem 1.4rem;border-radius:8px;border:1px solid #b42318;background:#b42318;color:#fff;cursor:pointer;margin-top:1rem}
button:focus-visible{outline:3px solid #f0b400}.muted{color:#57606a;font-size:.9rem}`;

/** Sends `body` (already escaped HTML) in the layout, with `status`. */
export function sendPage(reply: FastifyReply, status: number, title: string, body: string): FastifyReply {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .header('x-frame-options', 'DENY')
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${esc(title)}</title><style>${STYLE}</style></head><body><main class="card">${body}</main></body></html>`,
    );
}
