// Webhooks: endpoints per environment, their deliveries with every attempt, replay, and a test ping
// (a live endpoint that answers one with a 2xx is verified for the go-live checklist).
import { useState } from 'react';
import { api, when } from '../api';
import { Empty, EnvSwitch, Failure, useData } from '../ui';

interface Endpoint {
  id: string;
  url: string;
  event_types: string[] | null;
  disabled_at: string | null;
  disabled_reason: string | null;
}
interface Delivery {
  id: number;
  event_id: string;
  type: string;
  status: string;
  attempts: number;
  created_at: string;
  attempts_log: Array<{ attempted_at: string; http_status: number | null; latency_ms: number; error: string | null }>;
}

export function Webhooks() {
  const [env, setEnv] = useState<'sandbox' | 'live'>('sandbox');
  const [open, setOpen] = useState<string | null>(null);
  const { data, error, setError } = useData(() => api<{ items: Endpoint[] }>(`/webhooks?environment=${env}`), [env]);
  const log = useData(() => (open ? api<{ items: Delivery[] }>(`/webhooks/${open}/deliveries?environment=${env}`) : Promise.resolve(null)), [open, env]);
  const doReplay = async (id: string, body: Record<string, unknown>) => {
    try {
      await api(`/webhooks/${id}/replay`, { method: 'POST', body: { environment: env, ...body } });
      log.reload();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const ping = async (id: string) => {
    try {
      await api(`/webhooks/${id}/ping`, { method: 'POST', body: { environment: env } });
      setOpen(id);
      log.reload();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <section>
      <h1>Webhooks</h1>
      <EnvSwitch value={env} onChange={setEnv} />
      <p className="hint">Endpoints are registered with the API: POST /api/v1/webhook-endpoints.</p>
      <Failure error={error} />
      {data && data.items.length === 0 && <Empty>No {env} webhook endpoints.</Empty>}
      <ul className="entries">
        {data?.items.map((e) => (
          <li key={e.id}>
            <button className="link" onClick={() => setOpen(open === e.id ? null : e.id)} aria-expanded={open === e.id}>
              {e.url}
            </button>{' '}
            {e.disabled_at ? <span className="badge bad">disabled: {e.disabled_reason}</span> : <span className="badge">active</span>}{' '}
            <button onClick={() => doReplay(e.id, {})}>Replay failed</button> <button onClick={() => ping(e.id)}>Send test ping</button>
          </li>
        ))}
      </ul>
      {open && log.data && (
        <div className="table-wrap">
          {log.data.items.length === 0 && <Empty>No deliveries yet.</Empty>}
          {log.data.items.length > 0 && (
            <table>
              <thead>
                <tr>
                  <th>Event</th>
                  <th>Type</th>
                  <th>Status</th>
                  <th>Attempts</th>
                  <th>
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {log.data.items.map((d) => (
                  <tr key={d.id}>
                    <td>
                      <code>{d.event_id}</code>
                      <br />
                      {when(d.created_at)}
                    </td>
                    <td>{d.type}</td>
                    <td>{d.status}</td>
                    <td>
                      {d.attempts_log.map((a, i) => (
                        <div key={i}>
                          {when(a.attempted_at)}: {a.http_status ?? a.error} ({a.latency_ms.toFixed(0)} ms)
                        </div>
                      ))}
                    </td>
                    <td>
                      <button onClick={() => doReplay(open, { event_id: d.event_id })}>Replay</button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      )}
    </section>
  );
}
