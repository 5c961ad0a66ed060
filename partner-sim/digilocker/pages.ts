// Owns the emulator's two HTML pages: the consent page the authorize redirect lands on (pick a synthetic
// resident, then Allow or Deny, posted as an ordinary form), and the error page shown when the authorize
// request itself is bad, where, as upstream, nothing is redirected back to the client.
import type { Resident } from './residents.js';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>` +
  `<style>body{font-family:system-ui,sans-serif;max-width:34rem;margin:2rem auto;padding:0 1rem}label{display:block;margin:.3rem 0}` +
  `button{margin-right:.5rem;padding:.4rem 1.2rem}.note{color:#666;font-size:.9rem}</style></head><body>${body}</body></html>`;

export function consentPage(o: { action: string; requestId: string; clientId: string; residents: readonly Resident[] }): string {
  const hint = (r: Resident) => (r.behaviour === 'ok' ? '' : ` <span class="note">(${r.behaviour})</span>`);
  const choices = o.residents
    .map((r, i) => `<label><input type="radio" name="resident" value="${esc(r.key)}"${i === 0 ? ' checked' : ''}> ${esc(r.name)}, ${r.gender}, born ${r.dob.slice(0, 2)}-${r.dob.slice(2, 4)}-${r.dob.slice(4)}${hint(r)}</label>`)
    .join('\n');
  return page(
    'DigiLocker (emulator): consent',
    `<h1>DigiLocker emulator</h1><p>The application <b>${esc(o.clientId)}</b> asks to read your DigiLocker profile and your Aadhaar (eAadhaar XML).</p>` +
      `<p class="note">Synthetic residents only; this is not DigiLocker.</p>` +
      `<form method="post" action="${esc(o.action)}"><input type="hidden" name="request_id" value="${esc(o.requestId)}">` +
      `<fieldset><legend>Sign in as</legend>\n${choices}\n</fieldset><p>` +
      `<button type="submit" name="decision" value="allow">Allow</button><button type="submit" name="decision" value="deny">Deny</button></p></form>`,
  );
}

export function errorPage(error: string, description: string): string {
  return page('DigiLocker (emulator): error', `<h1>Request refused</h1><p><code id="error">${esc(error)}</code></p><p id="error_description">${esc(description)}</p>`);
}
