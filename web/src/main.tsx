// The Sangam console: sign-in, then the client pages (overview, keys, allow-list, logs, webhooks,
// wallet, name match, go live) and, for admins, accounts, go-live reviews and "Needs attention" (its count in the navigation). Routing is by
// URL hash: #page, or #attention/<txn_id> for one transaction.
import { StrictMode, useCallback, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { api, ApiFailure, setCsrf } from './api';
import { Overview } from './pages/overview';
import { Keys } from './pages/keys';
import { Allowlist } from './pages/allowlist';
import { Logs } from './pages/logs';
import { Webhooks } from './pages/webhooks';
import { Wallet } from './pages/wallet';
import { NameMatch } from './pages/name-match';
import { Batches } from './pages/batches';
import { Admin } from './pages/admin';
import { AttentionQueue, AttentionTransaction } from './pages/attention';
import { GoLive, GoLiveReview } from './pages/go-live';
import type { Session } from './session';
import './styles.css';

const PAGES = [
  { id: 'overview', label: 'Overview', client: true },
  { id: 'keys', label: 'API keys', client: true },
  { id: 'allowlist', label: 'IP allow-list', client: true },
  { id: 'logs', label: 'Logs', client: true },
  { id: 'webhooks', label: 'Webhooks', client: true },
  { id: 'wallet', label: 'Wallet', client: true },
  { id: 'name-match', label: 'Name match', client: true },
  { id: 'go-live', label: 'Go live', client: true },
  { id: 'batches', label: 'Batches', client: true },
  { id: 'attention', label: 'Needs attention', client: false },
  { id: 'go-live-reviews', label: 'Go-live reviews', client: false },
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

/** The page and its parameter (a transaction id) named by the URL hash. */
const route = () => {
  const [page, param] = location.hash.slice(1).split('/');
  return { page: (page as PageId) || 'overview', param: param ? decodeURIComponent(param) : undefined };
};

/** How many transactions need an admin, refreshed every 30 s and on every page change; null for others. */
function useAttentionCount(session: Session | null | undefined, page: string) {
  const [count, setCount] = useState<number | null>(null);
  const refresh = useCallback(() => {
    if (session?.user.is_admin) api<{ total: number }>('/admin/attention/summary').then((s) => setCount(s.total), () => setCount(null));
  }, [session]);
  useEffect(() => {
    refresh();
    const timer = setInterval(refresh, 30_000);
    return () => clearInterval(timer);
  }, [refresh, page]);
  return { count, refresh };
}

function App() {
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  const [{ page, param }, setRoute] = useState(route);
  const attention = useAttentionCount(session, `${page}/${param}`);
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
    const onHash = () => setRoute(route());
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
              {p.id === 'attention' && !!attention.count && (
                <span className="count" data-testid="attention-count" aria-label={`${attention.count} need attention`}>
                  {attention.count}
                </span>
              )}
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
        {current?.id === 'name-match' && <NameMatch />}
        {current?.id === 'batches' && <Batches session={session} />}
        {current?.id === 'attention' && !param && <AttentionQueue me={session.user.email} onChanged={attention.refresh} />}
        {current?.id === 'attention' && param && <AttentionTransaction txnId={param} me={session.user.email} onChanged={attention.refresh} />}
        {current?.id === 'go-live' && <GoLive />}
        {current?.id === 'go-live-reviews' && <GoLiveReview />}
        {current?.id === 'admin' && <Admin tab={param} />}
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
