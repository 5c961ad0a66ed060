// Wallet statement: top-ups and debits, newest first, with the running total; each row names its
// transaction (reference_id and txn_id). Filter by reference and dates; download what the filter keeps.
// Amount is signed (a debit is negative, −₹121.00); Total after is the wallet's running total, which the
// ledger never lets go below zero.
import { useState } from 'react';
import { api, inr, qs, when } from '../api';
import { Empty, Failure, Table, useData } from '../ui';

interface Entry {
  id: number;
  created_at: string;
  kind: string;
  txn_id: string | null;
  reference_id: string | null;
  amount: number;
  balance_after: number;
  reason: string;
}

/** The form's filters as the API takes them: dates become ISO instants (the end date is inclusive). */
function filtersOf(form: HTMLFormElement): Record<string, string | undefined> {
  const f = new FormData(form);
  const day = (name: string, plusDays = 0) => {
    const v = String(f.get(name) ?? '');
    if (!v) return undefined;
    const d = new Date(`${v}T00:00:00`);
    d.setDate(d.getDate() + plusDays);
    return d.toISOString();
  };
  return { reference: String(f.get('reference') ?? '').trim() || undefined, from: day('from'), to: day('to', 1) };
}

export function Wallet() {
  const [filters, setFilters] = useState<Record<string, string | undefined>>({});
  const { data, error } = useData(() => api<{ items: Entry[] }>(`/statement?${qs(filters)}`), [filters]);
  return (
    <section>
      <h1>Wallet statement</h1>
      <form
        className="filters"
        aria-label="Filter the statement"
        onSubmit={(e) => {
          e.preventDefault();
          setFilters(filtersOf(e.currentTarget));
        }}
      >
        <label>
          Reference (reference_id or txn_id)
          <input name="reference" maxLength={64} />
        </label>
        <label>
          From date
          <input name="from" type="date" />
        </label>
        <label>
          To date
          <input name="to" type="date" />
        </label>
        <button type="submit">Filter</button>
        <a className="button" href={`/console/api/statement/export?${qs(filters)}`} download>
          Export CSV
        </a>
      </form>
      <Failure error={error} />
      {data && data.items.length === 0 && <Empty>No wallet movements match. Sandbox calls never touch the wallet.</Empty>}
      {data && data.items.length > 0 && (
        <Table label="Statement" columns={['Time', 'Kind', 'Reference', 'Transaction', 'Why', '#Amount', '#Total after']}>
          {data.items.map((e) => (
            <tr key={e.id}>
              <td>{when(e.created_at)}</td>
              <td>{e.kind}</td>
              <td>{e.reference_id ?? '—'}</td>
              <td>{e.txn_id ? <code>{e.txn_id}</code> : '—'}</td>
              <td>{e.reason}</td>
              <td className={`num ${e.amount < 0 ? 'debit' : 'credit'}`}>{inr(e.amount)}</td>
              <td className="num">{inr(e.balance_after)}</td>
            </tr>
          ))}
        </Table>
      )}
    </section>
  );
}
