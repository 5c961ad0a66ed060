// IP allow-list per environment: IPv4/IPv6 addresses and CIDR ranges.
import { useState } from 'react';
import { api } from '../api';
import { Empty, EnvSwitch, Failure, useData } from '../ui';

export function Allowlist() {
  const [env, setEnv] = useState<'sandbox' | 'live'>('sandbox');
  const { data, error, reload, setError } = useData(() => api<{ entries: string[] }>(`/allowlist?environment=${env}`), [env]);
  const change = async (method: 'POST' | 'DELETE', entry: string) => {
    try {
      await api('/allowlist', { method, body: { environment: env, entry } });
      reload();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <section>
      <h1>IP allow-list</h1>
      <EnvSwitch value={env} onChange={setEnv} />
      <p className="hint">{env === 'sandbox' ? 'An empty sandbox list allows every address.' : 'An empty live list allows no address: add yours before going live.'}</p>
      <form
        className="toolbar"
        onSubmit={(e) => {
          e.preventDefault();
          const input = e.currentTarget.elements.namedItem('entry') as HTMLInputElement;
          void change('POST', input.value).then(() => (input.value = ''));
        }}
      >
        <label className="inline">
          Address or CIDR range
          <input name="entry" placeholder="203.0.113.0/24 or 2001:db8::/32" required />
        </label>
        <button type="submit">Add</button>
      </form>
      <Failure error={error} />
      {data && data.entries.length === 0 && <Empty>No entries.</Empty>}
      <ul className="entries">
        {data?.entries.map((e) => (
          <li key={e}>
            <code>{e}</code> <button onClick={() => change('DELETE', e)}>Remove</button>
          </li>
        ))}
      </ul>
    </section>
  );
}
