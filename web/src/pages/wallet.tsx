// Wallet statement: top-ups and debits, newest first, with the running total.
import { api, inr, when } from '../api';
import { Empty, Failure, useData } from '../ui';

interface Entry {
  id: number;
  created_at: string;
  kind: string;
  txn_id: string | null;
  amount: number;
  balance_after: number;
  memo: string | null;
}

export function Wallet() {
  const { data, error } = useData(() => api<{ items: Entry[] }>('/statement'), []);
  return (
    <section>
      <h1>Wallet statement</h1>
      <Failure error={error} />
      {data && data.items.length === 0 && <Empty>No wallet movements yet. Sandbox calls never touch the wallet.</Empty>}
      {data && data.items.length > 0 && (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th>Time</th>
                <th>Kind</th>
                <th>Transaction</th>
                <th className="num">Amount</th>
                <th className="num">Total after</th>
              </tr>
            </thead>
            <tbody>
              {data.items.map((e) => (
                <tr key={e.id}>
                  <td>{when(e.created_at)}</td>
                  <td>{e.kind}</td>
                  <td>{e.txn_id ?? e.memo ?? ''}</td>
                  <td className="num">{inr(e.amount)}</td>
                  <td className="num">{inr(e.balance_after)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
