// The Sangam console: sign-in, then the client pages (overview, keys, allow-list, logs, webhooks,
// wallet) and, for admins, accounts and the manual-review queue. Routing is by URL hash.
import { StrictMode, useCallback, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { api, ApiFailure, setCsrf } from './api';
import { Overview } from './pages/overview';
import { Keys } from './pages/keys';
import { Allowlist } from './pages/allowlist';
import { Logs } from './pages/logs';
import { Webhooks } from './pages/webhooks';
import { Wallet } from './pages/wallet';
import { Admin } from './pages/admin';
import './styles.css';

export interface Session {
  user: { id: string; email: string; is_admin: boolean; account_id: string | null };
  csrf_token: string;
  approvals: string[];
  operations: string[];
}

const PAGES = [
  { id: 'overview', label: 'Overview', client: true },
  { id: 'keys', label: 'API keys', client: true },
  { id: 'allowlist', label: 'IP allow-list', client: true },
  { id: 'logs', label: 'Logs', client: true },
  { id: 'webhooks', label: 'Webhooks', client: true },
  { id: 'wallet', label: 'Wallet', client: true },
  { id: 'admin', label: 'Admin', client: false },
] as const;
type PageId = (typeof PAGES)[number]['id'];

function SignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setBusy(true);
    setError('');
    try {
      const r = await api<{ csrf_token: string }>('/login', { method: 'POST', body: { email: form.get('email'), password: form.get('password') } });
      setCsrf(r.csrf_token);
      onSignedIn();
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <main className="signin">
      <h1>Sangam console</h1>
      <form onSubmit={submit} aria-label="Sign in">
        <label>
          Email
          <input name="email" type="email" autoComplete="username" required autoFocus />
        </label>
        <label>
          Password
          <input name="password" type="password" autoComplete="current-password" required />
        </label>
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}

function App() {
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  const [page, setPage] = useState<PageId>(() => (location.hash.slice(1) as PageId) || 'overview');
  const load = useCallback(async () => {
    try {
      const s = await api<Session>('/session');
      setCsrf(s.csrf_token);
      setSession(s);
    } catch (err) {
      if (err instanceof ApiFailure && err.status === 401) setSession(null);
      else throw err;
    }
  }, []);
  useEffect(() => void load(), [load]);
  useEffect(() => {
    const onHash = () => setPage((location.hash.slice(1) as PageId) || 'overview');
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);

  if (session === undefined) return <p className="loading">Loading…</p>;
  if (session === null) return <SignIn onSignedIn={load} />;
  const visible = PAGES.filter((p) => (p.client ? !!session.user.account_id : session.user.is_admin));
  const current = visible.find((p) => p.id === page) ?? visible[0];
  const signOut = async () => {
    await api('/logout', { method: 'POST' });
    setSession(null);
  };
  return (
    <div className="layout">
      <header>
        <strong className="brand">Sangam</strong>
        <nav aria-label="Console pages">
          {visible.map((p) => (
            <a key={p.id} href={`#${p.id}`} aria-current={current?.id === p.id ? 'page' : undefined}>
              {p.label}
            </a>
          ))}
        </nav>
        <span className="who">
          {session.user.email}
          <button className="link" onClick={signOut}>
            Sign out
          </button>
        </span>
      </header>
      <main>
        {current?.id === 'overview' && <Overview />}
        {current?.id === 'keys' && <Keys session={session} />}
        {current?.id === 'allowlist' && <Allowlist />}
        {current?.id === 'logs' && <Logs />}
        {current?.id === 'webhooks' && <Webhooks />}
        {current?.id === 'wallet' && <Wallet />}
        {current?.id === 'admin' && <Admin />}
        {!current && <p className="empty">This console user has no account and is not an admin.</p>}
      </main>
    </div>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
