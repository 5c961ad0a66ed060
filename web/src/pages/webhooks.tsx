// Webhooks: endpoints per environment with their delivery status; register one (its secret shown once),
// rotate its secret, send it a test event, delete it; its deliveries with every attempt, and replay.
import { useState } from 'react';
import { api, qs, when } from '../api';
import { Empty, EnvSwitch, Failure, Table, useData } from '../ui';

interface Endpoint {
  id: string;
  url: string;
  event_types: string[] | null;
  disabled_at: string | null;
  disabled_reason: string | null;
  deliveries: { last_day: { delivered: number; failed: number; pending: number }; last: { status: string; http_status: number | null; at: string } | null };
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
type Env = 'sandbox' | 'live';

function NewEndpoint({ env, types, onCreated, onError }: { env: Env; types: string[]; onCreated: (secret: string) => void; onError: (e: string) => void }) {
  const submit = async (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const chosen = form.getAll('event_types').map(String);
    try {
      const r = await api<{ secret: string }>('/webhooks', { method: 'POST', body: { environment: env, url: form.get('url'), ...(chosen.length && { event_types: chosen }) } });
      onCreated(r.secret);
    } catch (err) {
      onError((err as Error).message);
    }
  };
  return (
    <form className="filters" onSubmit={submit} aria-label="New webhook endpoint">
      <label>
        Endpoint URL
        <input name="url" type="url" required placeholder="https://example.com/webhooks/sangam" size={40} />
      </label>
      <fieldset className="env filter">
        <legend>Events (none ticked: all)</legend>
        {types.map((t) => (
          <label key={t}>
            <input type="checkbox" name="event_types" value={t} /> {t}
          </label>
        ))}
      </fieldset>
      <button type="submit">Add endpoint</button>
    </form>
  );
}

const status = (e: Endpoint) => {
  const d = e.deliveries;
  const last = d.last ? `last ${d.last.status}${d.last.http_status ? ` (HTTP ${d.last.http_status})` : ''} ${when(d.last.at)}` : 'no deliveries yet';
  return `${last} · 24 h: ${d.last_day.delivered} delivered, ${d.last_day.failed} failed, ${d.last_day.pending} pending`;
};

function Deliveries({ items, onReplay }: { items: Delivery[]; onReplay: (eventId: string) => void }) {
  if (items.length === 0) return <Empty>No deliveries yet.</Empty>;
  return (
    <Table label="Deliveries" columns={['Event', 'Type', 'Status', 'Attempts', '']}>
      {items.map((d) => (
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
            <button onClick={() => onReplay(d.event_id)}>Replay</button>
          </td>
        </tr>
      ))}
    </Table>
  );
}

export function Webhooks() {
  const [env, setEnv] = useState<Env>('sandbox');
  const [open, setOpen] = useState<string | null>(null);
  const [secret, setSecret] = useState<{ note: string; secret: string } | null>(null);
  const { data, error, setError, reload } = useData(() => api<{ items: Endpoint[]; event_types: string[] }>(`/webhooks?environment=${env}`), [env]);
  const log = useData(() => (open ? api<{ items: Delivery[] }>(`/webhooks/${open}/deliveries?environment=${env}`) : Promise.resolve(null)), [open, env]);
  const act = async (fn: () => Promise<unknown>) => {
    try {
      setError('');
      await fn();
      reload();
      log.reload();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const post = (path: string, body: Record<string, unknown> = {}) => api(path, { method: 'POST', body: { environment: env, ...body } });
  const rotate = (id: string) => act(async () => setSecret({ note: 'New signing secret (the old one also signs for 24 hours)', secret: (await post(`/webhooks/${id}/rotate`)).secret as string }));
  const remove = (e: Endpoint) => confirm(`Delete ${e.url}? Deliveries to it stop.`) && act(() => api(`/webhooks/${e.id}?${qs({ environment: env })}`, { method: 'DELETE' }));
  return (
    <section>
      <h1>Webhooks</h1>
      <EnvSwitch value={env} onChange={setEnv} />
      <NewEndpoint env={env} types={data?.event_types ?? []} onError={setError} onCreated={(s) => (setSecret({ note: 'Signing secret of the new endpoint', secret: s }), reload())} />
      {secret && (
        <div className="callout" role="status">
          <p>{secret.note}: copy it now, it is not shown again.</p>
          <code data-testid="webhook-secret">{secret.secret}</code>
        </div>
      )}
      <Failure error={error} />
      <button onClick={() => (reload(), log.reload())}>Refresh</button>
      {data && data.items.length === 0 && <Empty>No {env} webhook endpoints.</Empty>}
      {data && data.items.length > 0 && (
        <Table label="Webhook endpoints" columns={['Endpoint', 'Events', 'Delivery status', '']}>
          {data.items.map((e) => (
            <tr key={e.id}>
              <td>
                <button className="link" onClick={() => setOpen(open === e.id ? null : e.id)} aria-expanded={open === e.id}>
                  {e.url}
                </button>{' '}
                {e.disabled_at ? <span className="badge bad">disabled: {e.disabled_reason}</span> : <span className="badge">active</span>}
              </td>
              <td>{e.event_types?.join(', ') ?? 'all'}</td>
              <td data-testid="delivery-status">{status(e)}</td>
              <td className="actions">
                <button onClick={() => act(() => post(`/webhooks/${e.id}/test`))}>Send test event</button>
                <button onClick={() => rotate(e.id)}>Rotate secret</button>
                <button onClick={() => act(() => post(`/webhooks/${e.id}/replay`))}>Replay failed</button>
                <button className="danger" onClick={() => remove(e)}>
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </Table>
      )}
      {open && log.data && <Deliveries items={log.data.items} onReplay={(eventId) => act(() => post(`/webhooks/${open}/replay`, { event_id: eventId }))} />}
    </section>
  );
}
