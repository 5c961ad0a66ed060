// Batches: upload a CSV or NDJSON file of one operation's rows (or only check it), follow each batch's
// progress (refreshed every second while one runs), cancel, and download its results in row order.
// Uploads are sandbox only: live batches are sent with a live key (docs/DECISIONS.md, "Batches from the console").
import { useCallback, useEffect, useState } from 'react';
import { api, ApiFailure, qs, when, type FieldError } from '../api';
import type { Session } from '../session';
import { Empty, EnvSwitch, Failure } from '../ui';

type Env = 'sandbox' | 'live';
type Counts = Record<'total' | 'invalid' | 'pending' | 'success' | 'failed' | 'cancelled', number>;
interface Batch {
  id: string;
  operation: string;
  status: 'validating' | 'running' | 'completed' | 'cancelled' | 'failed';
  client_batch_id: string | null;
  message: string | null;
  counts: Counts;
  created_at: string;
  completed_at: string | null;
}
interface Operation {
  slug: string;
  fields: string[];
}
interface ListPage {
  items: Batch[];
  next_cursor: string | null;
  operations: Operation[];
}
/** What an upload came to: a batch, the rows checked (validate_only), or a refusal with its rows. */
type Outcome = { kind: 'batch'; batch: Batch; message: string } | { kind: 'checked'; counts: Counts; errors: FieldError[] } | { kind: 'refused'; message: string; errors: FieldError[] };

const running = (b: Batch) => b.status === 'running' || b.status === 'validating';
const done = (c: Counts) => c.total - c.pending;

/** The first page, refreshed every second while a batch on it runs; older pages appended on demand. */
function useBatches(env: Env) {
  const [page, setPage] = useState<ListPage | null>(null);
  const [older, setOlder] = useState<{ items: Batch[]; next: string | null }>({ items: [], next: null });
  const [error, setError] = useState('');
  const reload = useCallback(() => {
    api<ListPage>(`/batches?${qs({ environment: env })}`).then((p) => {
      setPage(p);
      setError('');
    }, (e: Error) => setError(e.message));
  }, [env]);
  useEffect(() => {
    setPage(null);
    setOlder({ items: [], next: null });
    reload();
  }, [reload]);
  const busy = !!page?.items.some(running);
  useEffect(() => {
    if (!busy) return;
    const timer = setInterval(reload, 1000);
    return () => clearInterval(timer);
  }, [busy, reload]);
  const more = async () => {
    const after = older.next ?? page?.next_cursor;
    if (!after) return;
    const p = await api<ListPage>(`/batches?${qs({ environment: env, after })}`);
    setOlder({ items: [...older.items, ...p.items], next: p.next_cursor });
  };
  const items = page ? [...page.items, ...older.items.filter((o) => !page.items.some((b) => b.id === o.id))] : null;
  const hasMore = older.items.length ? !!older.next : !!page?.next_cursor;
  return { items, operations: page?.operations ?? [], error, setError, reload, more: hasMore ? more : null };
}

const formatOf = (file: File) => (/\.csv$/i.test(file.name) ? 'text/csv' : /\.(nd)?jsonl?$/i.test(file.name) ? 'application/x-ndjson' : null);

function UploadForm({ operations, onDone }: { operations: Operation[]; onDone: (o: Outcome) => void }) {
  const [operation, setOperation] = useState('name-match');
  const [busy, setBusy] = useState(false);
  const fields = operations.find((o) => o.slug === operation)?.fields ?? [];
  const submit = async (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const file = form.get('file') as File | null;
    const type = file && file.size > 0 ? formatOf(file) : null;
    if (!file || !type) return onDone({ kind: 'refused', message: 'Choose a .csv file (a header row naming the fields) or an .ndjson file (one JSON object a line)', errors: [] });
    const query = qs({ environment: 'sandbox', operation, file_name: file.name, client_batch_id: String(form.get('client_batch_id') ?? '') || undefined, validate_only: form.get('validate_only') ? 'true' : undefined });
    setBusy(true);
    try {
      const r = await api<Batch & { validate_only?: true; errors?: FieldError[] }>(`/batches?${query}`, { method: 'POST', file: { type, data: file } });
      onDone(r.validate_only ? { kind: 'checked', counts: r.counts, errors: r.errors ?? [] } : { kind: 'batch', batch: r, message: `Batch ${r.id} accepted: its rows run in the background` });
    } catch (err) {
      const errors = err instanceof ApiFailure ? err.errors : [];
      onDone({ kind: 'refused', message: errors.length ? 'The upload was refused and nothing was created: fix these rows' : (err as Error).message, errors });
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="filters" onSubmit={submit} aria-label="Upload a batch">
      <label>
        File (.csv or .ndjson)
        <input name="file" type="file" accept=".csv,.ndjson,.jsonl,text/csv,application/x-ndjson" required />
      </label>
      <label>
        Operation
        <select name="operation" value={operation} onChange={(e) => setOperation(e.target.value)}>
          {operations.map((o) => (
            <option key={o.slug}>{o.slug}</option>
          ))}
        </select>
      </label>
      <label>
        Client batch id (optional)
        <input name="client_batch_id" pattern="[A-Za-z0-9._:\-]{1,64}" />
      </label>
      <label className="check">
        <input name="validate_only" type="checkbox" /> Validate only
      </label>
      <button type="submit" disabled={busy}>
        {busy ? 'Uploading…' : 'Upload'}
      </button>
      {fields.length > 0 && (
        <p className="hint">
          CSV header: any of <code>{fields.join(',')}</code>
        </p>
      )}
    </form>
  );
}

function RowErrors({ errors }: { errors: FieldError[] }) {
  if (errors.length === 0) return null;
  return (
    <div className="table-wrap spaced">
      <table aria-label="Invalid rows">
        <thead>
          <tr>
            <th className="num">Row</th>
            <th>Field</th>
            <th>Message</th>
          </tr>
        </thead>
        <tbody>
          {errors.map((e, i) => (
            <tr key={i} className="failed">
              <td className="num">{e.row ?? '—'}</td>
              <td>
                <code>{e.field}</code>
              </td>
              <td>{e.message}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function OutcomeNote({ outcome }: { outcome: Outcome }) {
  if (outcome.kind === 'batch') return <p role="status">{outcome.message}</p>;
  if (outcome.kind === 'refused') {
    return (
      <>
        <Failure error={outcome.message} />
        <RowErrors errors={outcome.errors} />
      </>
    );
  }
  const { total, invalid } = outcome.counts;
  return (
    <>
      <p role="status">{invalid ? `Checked: ${invalid} of ${total} rows are invalid; nothing was run` : `Checked: all ${total} rows are valid; nothing was run`}</p>
      <RowErrors errors={outcome.errors} />
    </>
  );
}

function BatchRow({ b, env, onCancel }: { b: Batch; env: Env; onCancel: (id: string) => void }) {
  const c = b.counts;
  const results = (format: string) => `/console/api/batches/${b.id}/results?${qs({ environment: env, format })}`;
  return (
    <tr data-testid={`batch-${b.id}`} className={b.status === 'failed' ? 'failed' : ''}>
      <td>
        <code>{b.id}</code>
        <br />
        {when(b.created_at)}
        {b.client_batch_id && <div className="hint">{b.client_batch_id}</div>}
      </td>
      <td>{b.operation}</td>
      <td>
        <span className={`badge${b.status === 'failed' || b.status === 'cancelled' ? ' bad' : ''}`} data-testid="status">
          {b.status}
        </span>
        {b.message && <div className="hint">{b.message}</div>}
      </td>
      <td className="progress">
        <progress max={c.total || 1} value={done(c)} aria-label={`${b.id} progress`} />
        <span data-testid="done">
          {done(c)} / {c.total}
        </span>
      </td>
      <td className="num" data-testid="counts">
        {c.success} ok · {c.failed} failed · {c.invalid} invalid · {c.pending} pending{c.cancelled ? ` · ${c.cancelled} cancelled` : ''}
      </td>
      <td className="actions">
        {running(b) && (
          <button className="danger" onClick={() => onCancel(b.id)}>
            Cancel
          </button>
        )}
        <a className="button" href={results('csv')} download>
          CSV
        </a>
        <a className="button" href={results('ndjson')} download>
          NDJSON
        </a>
      </td>
    </tr>
  );
}

function BatchTable({ items, env, onCancel }: { items: Batch[]; env: Env; onCancel: (id: string) => void }) {
  return (
    <div className="table-wrap">
      <table aria-label="Batches">
        <thead>
          <tr>
            <th>Batch</th>
            <th>Operation</th>
            <th>Status</th>
            <th>Progress</th>
            <th className="num">Counts</th>
            <th>
              <span className="sr-only">Actions and results</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {items.map((b) => (
            <BatchRow key={b.id} b={b} env={env} onCancel={onCancel} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function Batches({ session }: { session: Session }) {
  const [env, setEnv] = useState<Env>('sandbox');
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const list = useBatches(env);
  const operations = list.operations.length ? list.operations : session.operations.map((slug) => ({ slug, fields: [] }));
  const uploaded = (o: Outcome) => {
    setOutcome(o);
    if (o.kind === 'batch') list.reload();
  };
  const cancel = async (id: string) => {
    try {
      await api(`/batches/${id}/cancel`, { method: 'POST', body: { environment: env } });
      list.reload();
    } catch (e) {
      list.setError((e as Error).message);
    }
  };
  return (
    <section className="batches">
      <h1>Batches</h1>
      <EnvSwitch value={env} onChange={setEnv} />
      {env === 'sandbox' ? (
        <UploadForm operations={operations} onDone={uploaded} />
      ) : (
        <p className="hint">Live batches move money: submit them with a live key (POST /api/v1/batches). They are shown here, and can be cancelled and downloaded.</p>
      )}
      {outcome && env === 'sandbox' && <OutcomeNote outcome={outcome} />}
      <Failure error={list.error} />
      <h2>Recent {env} batches</h2>
      {list.items && list.items.length === 0 && <Empty>No {env} batches yet.</Empty>}
      {list.items && list.items.length > 0 && <BatchTable items={list.items} env={env} onCancel={cancel} />}
      {list.more && <button onClick={() => list.more?.().catch((e: Error) => list.setError(e.message))}>Older batches</button>}
    </section>
  );
}
