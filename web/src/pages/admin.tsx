// Admin: accounts (create, top up, live approvals per operation), console users, pricing and rate
// limits, one tab each (#admin/<tab>). Manual review lives in Needs attention.
import { api, inr } from '../api';
import { AccountName, Empty, Failure, useData } from '../ui';
import { AdminUsers } from './admin-users';
import { AdminLimits, AdminPricing } from './admin-pricing';

const TABS = [
  { id: 'accounts', label: 'Accounts' },
  { id: 'users', label: 'Users' },
  { id: 'pricing', label: 'Pricing' },
  { id: 'limits', label: 'Rate limits' },
] as const;

export function Admin({ tab }: { tab?: string }) {
  const current = TABS.find((t) => t.id === tab) ?? TABS[0];
  return (
    <section>
      <nav className="tabs" aria-label="Admin">
        {TABS.map((t) => (
          <a key={t.id} href={`#admin/${t.id}`} aria-current={t.id === current.id ? 'page' : undefined}>
            {t.label}
          </a>
        ))}
      </nav>
      {current.id === 'accounts' && <Accounts />}
      {current.id === 'users' && <AdminUsers />}
      {current.id === 'pricing' && <AdminPricing />}
      {current.id === 'limits' && <AdminLimits />}
    </section>
  );
}

interface Account {
  id: string;
  name: string;
  balance: number;
  held: number;
  approvals: string[];
}
function Accounts() {
  const accounts = useData(() => api<{ items: Account[]; operations: string[] }>('/admin/accounts'), []);
  const run = async (fn: () => Promise<unknown>) => {
    try {
      await fn();
      accounts.reload();
    } catch (e) {
      accounts.setError((e as Error).message);
    }
  };
  return (
    <>
      <h1>Accounts</h1>
      <form
        className="toolbar"
        onSubmit={(e) => {
          e.preventDefault();
          const name = (e.currentTarget.elements.namedItem('name') as HTMLInputElement).value;
          void run(() => api('/admin/accounts', { method: 'POST', body: { name } }));
        }}
      >
        <label className="inline">
          New account name
          <input name="name" required />
        </label>
        <button type="submit">Create account</button>
      </form>
      <Failure error={accounts.error} />
      {accounts.data && accounts.data.items.length === 0 && <Empty>No accounts.</Empty>}
      {accounts.data && accounts.data.items.length > 0 && (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th>Account</th>
                <th className="num">Balance</th>
                <th>Top up (INR)</th>
                <th>Live approvals</th>
              </tr>
            </thead>
            <tbody>
              {accounts.data.items.map((a) => (
                <tr key={a.id}>
                  <td>
                    <AccountName account={a} />
                  </td>
                  <td className="num">
                    {inr(a.balance)}
                    {a.held > 0 && <div className="hint">held {inr(a.held)}</div>}
                  </td>
                  <td>
                    <form
                      onSubmit={(e) => {
                        e.preventDefault();
                        const amount = Number((e.currentTarget.elements.namedItem('amount') as HTMLInputElement).value);
                        void run(() => api(`/admin/accounts/${a.id}/topup`, { method: 'POST', body: { amount } }));
                      }}
                    >
                      <input name="amount" type="number" min="0.01" step="0.01" aria-label={`Top-up for ${a.name}`} required />
                      <button type="submit">Top up</button>
                    </form>
                  </td>
                  <td>
                    {accounts.data!.operations.map((op) => (
                      <label key={op} className="check">
                        <input
                          type="checkbox"
                          checked={a.approvals.includes(op)}
                          onChange={(e) => run(() => api(`/admin/accounts/${a.id}/approvals`, { method: 'POST', body: { operation: op, approved: e.target.checked } }))}
                        />{' '}
                        {op}
                      </label>
                    ))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p className="hint">
        Pendings past their partner's expectation, in manual review or flagged by a partner: <a href="#attention">Needs attention</a>.
      </p>
    </>
  );
}
