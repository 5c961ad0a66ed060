// Admin · Users: every console user with their admin state and account; create one (audited). An admin
// made here waits for another admin's approval (Approve / Refuse on its row; its maker cannot approve it).
import { api, when } from '../api';
import { Empty, Failure, Table, useData } from '../ui';

interface User {
  id: string;
  email: string;
  is_admin: boolean;
  admin: 'effective' | 'pending' | null;
  account_id: string | null;
  account_name: string | null;
  created_at: string;
}

export function AdminUsers() {
  const users = useData(() => api<{ items: User[] }>('/admin/users'), []);
  const accounts = useData(() => api<{ items: Array<{ id: string; name: string }> }>('/admin/accounts'), []);
  const submit = async (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const f = new FormData(form);
    try {
      await api('/admin/users', {
        method: 'POST',
        body: { email: f.get('email'), password: f.get('password'), is_admin: f.get('is_admin') === 'on', account_id: f.get('account_id') || null },
      });
      form.reset();
      users.reload();
    } catch (err) {
      users.setError((err as Error).message);
    }
  };
  const decide = async (u: User, how: 'approve-admin' | 'reject-admin') => {
    const reason = how === 'reject-admin' ? window.prompt(`Why refuse admin rights to ${u.email}?`) : null;
    if (how === 'reject-admin' && !reason) return;
    try {
      await api(`/admin/users/${u.id}/${how}`, { method: 'POST', body: how === 'reject-admin' ? { reason } : {} });
      users.reload();
    } catch (err) {
      users.setError((err as Error).message);
    }
  };
  return (
    <>
      <h2>Console users</h2>
      <form className="filters" onSubmit={submit} aria-label="New console user">
        <label>
          Email
          <input name="email" type="email" required />
        </label>
        <label>
          Password
          <input name="password" type="password" minLength={10} required autoComplete="new-password" />
        </label>
        <label>
          Account
          <select name="account_id" defaultValue="">
            <option value="">none (operator)</option>
            {accounts.data?.items.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name} ({a.id})
              </option>
            ))}
          </select>
        </label>
        <label className="check">
          <input name="is_admin" type="checkbox" /> Admin
        </label>
        <button type="submit">Create user</button>
      </form>
      <Failure error={users.error} />
      {users.data && users.data.items.length === 0 && <Empty>No console users.</Empty>}
      {users.data && users.data.items.length > 0 && (
        <Table label="Console users" columns={['Email', 'Admin', 'Account', 'Created']}>
          {users.data.items.map((u) => (
            <tr key={u.id}>
              <td>{u.email}</td>
              <td>
                {u.admin === 'pending' ? (
                  <>
                    admin, waiting for approval{' '}
                    <button type="button" onClick={() => void decide(u, 'approve-admin')}>
                      Approve
                    </button>{' '}
                    <button type="button" onClick={() => void decide(u, 'reject-admin')}>
                      Refuse
                    </button>
                  </>
                ) : u.is_admin ? (
                  'admin'
                ) : (
                  '—'
                )}
              </td>
              <td>{u.account_id ? `${u.account_name} (${u.account_id})` : '—'}</td>
              <td>{when(u.created_at)}</td>
            </tr>
          ))}
        </Table>
      )}
    </>
  );
}
