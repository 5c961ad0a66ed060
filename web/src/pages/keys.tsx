// API keys: create named sandbox keys (live ones once the account is approved), roll with a grace
// period (the successor keeps the name), revoke. A new secret is shown once.
import { useState } from 'react';
import { api, when } from '../api';
import type { Session } from '../session';
import { Empty, Failure, useData } from '../ui';

interface Key {
  id: string;
  name: string | null;
  environment: string;
  display: string;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
}

const state = (k: Key) => (k.revoked_at ? 'revoked' : k.expires_at && Date.parse(k.expires_at) <= Date.now() ? 'expired' : k.expires_at ? `expires ${when(k.expires_at)}` : 'active');

export function Keys({ session }: { session: Session }) {
  const { data, error, reload, setError } = useData(() => api<{ items: Key[] }>('/keys'), []);
  const [fresh, setFresh] = useState<{ key: string; note: string } | null>(null);
  const [grace, setGrace] = useState('86400');
  const [name, setName] = useState('');
  const act = async (fn: () => Promise<{ key?: string }>, note: string) => {
    try {
      const r = await fn();
      if (r.key) setFresh({ key: r.key, note });
      reload();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const create = (environment: 'sandbox' | 'live') =>
    act(() => api('/keys', { method: 'POST', body: { environment, ...(name.trim() && { name: name.trim() }) } }), `New ${environment} key${name.trim() ? ` "${name.trim()}"` : ''}`);
  return (
    <section>
      <h1>API keys</h1>
      <div className="toolbar">
        <label>
          Key name
          <input value={name} maxLength={100} placeholder="checkout server" onChange={(e) => setName(e.target.value)} />
        </label>
        <button onClick={() => create('sandbox')}>Create sandbox key</button>
        <button onClick={() => create('live')} disabled={session.approvals.length === 0} title={session.approvals.length ? '' : 'Live keys come with compliance approval'}>
          Create live key
        </button>
        <label className="inline">
          Grace period when rolling (seconds)
          <input type="number" min="0" value={grace} onChange={(e) => setGrace(e.target.value)} />
        </label>
      </div>
      {fresh && (
        <div className="callout" role="status">
          <p>{fresh.note}: copy it now, it is not shown again.</p>
          <code data-testid="new-key">{fresh.key}</code>
          <button onClick={() => navigator.clipboard?.writeText(fresh.key)}>Copy</button>
        </div>
      )}
      <Failure error={error} />
      {data && data.items.length === 0 && <Empty>No keys yet. Create a sandbox key to start.</Empty>}
      {data && data.items.length > 0 && (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th>Name</th>
                <th>Key</th>
                <th>Environment</th>
                <th>Created</th>
                <th>Last used</th>
                <th>State</th>
                <th>
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {data.items.map((k) => (
                <tr key={k.id}>
                  <td>{k.name ?? '—'}</td>
                  <td>
                    <code>{k.display}</code>
                  </td>
                  <td>{k.environment}</td>
                  <td>{when(k.created_at)}</td>
                  <td>{when(k.last_used_at)}</td>
                  <td>{state(k)}</td>
                  <td className="actions">
                    {state(k) !== 'revoked' && state(k) !== 'expired' && (
                      <>
                        <button onClick={() => act(() => api(`/keys/${k.id}/roll`, { method: 'POST', body: { grace_seconds: Number(grace) } }), 'Rolled key')}>Roll</button>
                        <button className="danger" onClick={() => confirm(`Revoke ${k.display}? Calls with it stop at once.`) && act(() => api(`/keys/${k.id}/revoke`, { method: 'POST' }), '')}>
                          Revoke
                        </button>
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
