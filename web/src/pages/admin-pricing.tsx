// Admin · Pricing and Rate limits: each operation's fee (the declared default beside it) and each
// account's rate limits (empty: the server's default); every change is audited.
import { api, inr } from '../api';
import { AccountName, Failure, Table, useData } from '../ui';

interface Fee {
  operation: string;
  fee: number;
  default_fee: number | null;
}
interface Limits {
  defaults: { per_sec: number; burst: number };
  items: Array<{ id: string; name: string; rate_limit_per_sec: number | null; rate_limit_burst: number | null }>;
}

/** Runs a change, then reloads; shows its error. */
const change = (data: { reload: () => void; setError: (e: string) => void }) => async (fn: () => Promise<unknown>) => {
  try {
    await fn();
    data.reload();
  } catch (e) {
    data.setError((e as Error).message);
  }
};
const field = (form: HTMLFormElement, name: string) => (form.elements.namedItem(name) as HTMLInputElement).value;

export function AdminPricing() {
  const fees = useData(() => api<{ items: Fee[] }>('/admin/pricing'), []);
  const run = change(fees);
  return (
    <>
      <h2>Pricing</h2>
      <p className="hint">The fee of one live call, in INR. A change applies to calls made after it.</p>
      <Failure error={fees.error} />
      <Table label="Pricing" columns={['Operation', '#Fee', '#Declared default', 'New fee (INR)']}>
        {fees.data?.items.map((f) => (
          <tr key={f.operation}>
            <td>{f.operation}</td>
            <td className="num" data-testid={`fee-${f.operation}`}>{inr(f.fee)}</td>
            <td className="num">{f.default_fee === null ? '—' : inr(f.default_fee)}</td>
            <td>
              <form
                onSubmit={(e) => {
                  e.preventDefault();
                  const fee = Number(field(e.currentTarget, 'fee'));
                  void run(() => api(`/admin/pricing/${f.operation}`, { method: 'PUT', body: { fee } }));
                }}
              >
                <input name="fee" type="number" min="0" step="0.01" required aria-label={`New fee for ${f.operation}`} />
                <button type="submit">Set</button>
              </form>
            </td>
          </tr>
        ))}
      </Table>
    </>
  );
}

export function AdminLimits() {
  const limits = useData(() => api<Limits>('/admin/limits'), []);
  const run = change(limits);
  const num = (v: string) => (v.trim() === '' ? null : Number(v));
  const d = limits.data?.defaults;
  return (
    <>
      <h2>Rate limits</h2>
      <p className="hint">
        Per account, across its keys. Empty fields use the server's default{d && `: ${d.per_sec} requests a second, bursts of ${d.burst}`}.
      </p>
      <Failure error={limits.error} />
      <Table label="Rate limits" columns={['Account', 'Limit', 'Change']}>
        {limits.data?.items.map((a) => (
          <tr key={a.id}>
            <td>
              <AccountName account={a} />
            </td>
            <td data-testid={`limit-${a.id}`}>
              {a.rate_limit_per_sec ?? `${d?.per_sec} (default)`}/s, burst {a.rate_limit_burst ?? `${d?.burst} (default)`}
            </td>
            <td>
              <form
                onSubmit={(e) => {
                  e.preventDefault();
                  const body = { per_sec: num(field(e.currentTarget, 'per_sec')), burst: num(field(e.currentTarget, 'burst')) };
                  void run(() => api(`/admin/accounts/${a.id}/limits`, { method: 'PUT', body }));
                }}
              >
                <input name="per_sec" type="number" min="1" step="1" placeholder="per second" aria-label={`Requests a second for ${a.name}`} />
                <input name="burst" type="number" min="1" step="1" placeholder="burst" aria-label={`Burst for ${a.name}`} />
                <button type="submit">Save</button>
              </form>
            </td>
          </tr>
        ))}
      </Table>
    </>
  );
}
