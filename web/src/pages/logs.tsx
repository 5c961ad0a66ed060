// Logs: search the audit trail (reference, operation, environment, outcome, time, free text), open one
// entry to see its redacted request and response, export what the filters match. A row's path keeps its
// reference as the Reference column shows it (the server masks both alike). The latest entries load as
// the page opens (issue #37: it was empty until Search was pressed).
import { useEffect, useState } from 'react';
import { api, qs, when } from '../api';
import { Empty, Failure, Select } from '../ui';

interface Item {
  request_id: string;
  created_at: string;
  operation: string | null;
  environment: string | null;
  method: string;
  path: string;
  http_status: number;
  ok: boolean;
  reference_id: string | null;
  latency_ms: number;
  message: string | null;
}

export function Logs() {
  const [filters, setFilters] = useState<Record<string, string>>({});
  const [items, setItems] = useState<Item[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState('');
  const [detail, setDetail] = useState<Record<string, unknown> | null>(null);

  const search = async (f: Record<string, string>, after?: string) => {
    setError('');
    try {
      const r = await api<{ items: Item[]; next_cursor: string | null }>(`/logs?${qs({ ...f, limit: '50', cursor: after })}`);
      setItems(after ? [...(items ?? []), ...r.items] : r.items);
      setCursor(r.next_cursor);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const submit = (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = Object.fromEntries([...new FormData(e.currentTarget)].filter(([, v]) => v !== '').map(([k, v]) => [k, String(v)]));
    for (const k of ['from', 'to']) if (f[k]) f[k] = new Date(f[k]!).toISOString();
    setFilters(f);
    void search(f);
  };
  const open = async (id: string) => setDetail(await api(`/logs/${id}`));
  // The newest entries, unfiltered, on open.
  useEffect(() => void search({}), []); // eslint-disable-line react-hooks/exhaustive-deps

  return (
    <section>
      <h1>Logs</h1>
      <form className="filters" onSubmit={submit} aria-label="Search logs">
        <label>
          Reference id
          <input name="reference_id" />
        </label>
        <label>
          Operation
          <input name="operation" placeholder="upi-payment-status" />
        </label>
        <Select label="Environment" name="environment" options={[['', 'both'], ['sandbox', 'sandbox'], ['live', 'live']]} />
        <Select label="Outcome" name="ok" options={[['', 'any'], ['true', 'ok'], ['false', 'failed']]} />
        <label>
          From
          <input name="from" type="datetime-local" />
        </label>
        <label>
          To
          <input name="to" type="datetime-local" />
        </label>
        <label>
          Message contains
          <input name="q" />
        </label>
        <button type="submit">Search</button>
      </form>
      <div className="toolbar">
        <a className="button" href={`/console/api/logs/export?${qs({ ...filters, format: 'csv' })}`} download>
          Export CSV
        </a>
        <a className="button" href={`/console/api/logs/export?${qs({ ...filters, format: 'ndjson' })}`} download>
          Export NDJSON
        </a>
      </div>
      <Failure error={error} />
      {items === null && !error && <p className="loading">Loading the latest requests…</p>}
      {items && items.length === 0 && <Empty>{Object.keys(filters).length ? 'No request matches these filters.' : 'No requests yet: calls made with your keys show here.'}</Empty>}
      {items && items.length > 0 && (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th>Time</th>
                <th>Environment</th>
                <th>Operation</th>
                <th>Reference</th>
                <th>Status</th>
                <th>Latency</th>
                <th>Message</th>
              </tr>
            </thead>
            <tbody>
              {items.map((i) => (
                <tr key={i.request_id} className={i.ok ? '' : 'failed'}>
                  <td>
                    <button className="link" onClick={() => open(i.request_id)} aria-label={`Details of ${i.request_id}`}>
                      {when(i.created_at)}
                    </button>
                  </td>
                  <td>{i.environment ?? '—'}</td>
                  <td>{i.operation ?? `${i.method} ${i.path}`}</td>
                  <td>{i.reference_id ?? '—'}</td>
                  <td>{i.http_status}</td>
                  <td>{i.latency_ms.toFixed(1)} ms</td>
                  <td>{i.message ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {cursor && <button onClick={() => search(filters, cursor)}>Load more</button>}
        </div>
      )}
      {detail && (
        <aside className="drawer" role="dialog" aria-modal="true" aria-label="Request details">
          <button className="close" onClick={() => setDetail(null)} autoFocus>
            Close
          </button>
          <h2>{String(detail.request_id)}</h2>
          <p>
            {String(detail.method)} {String(detail.path)} → {String(detail.http_status)} · {when(String(detail.created_at))}
          </p>
          <h3>Request (redacted)</h3>
          <pre>{JSON.stringify(detail.request_body, null, 2)}</pre>
          <h3>Response (redacted)</h3>
          <pre>{JSON.stringify(detail.response_body, null, 2)}</pre>
        </aside>
      )}
    </section>
  );
}
