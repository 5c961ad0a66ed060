// Needs attention (admins): the queue of live transactions that are overdue, in manual review, flagged
// or waiting for a second admin, with the prepaid partners' float drifts beside them (attention-float.tsx);
// and one transaction's page with its whole partner history and its resolutions — propose one, approve
// or reject another admin's (maker-checker for money).
import { useState } from 'react';
import { age, api, duration, inr, qs, when } from '../api';
import { Empty, Failure, useData } from '../ui';
import { FloatSection } from './attention-float';

type Reason = 'overdue' | 'review' | 'flagged' | 'proposed';
const REASON_LABELS: Record<Reason, string> = { overdue: 'Overdue', review: 'Manual review', flagged: 'Flagged', proposed: 'Awaiting approval' };
const ACTION_LABELS: Record<string, string> = { success: 'Mark success', failed: 'Mark failed', reversal: 'Post a reversal', dismiss: 'Dismiss (no money moves)' };

interface Item {
  id: string;
  account_name: string;
  operation: string;
  reference_id: string;
  status: string;
  amount: number | null;
  partner: string | null;
  reasons: Reason[];
  review_reason: string | null;
  flagged: string | null;
  created_at: string;
  overdue_since: string | null;
  expected_final_s: number | null;
  proposal: { id: string; action: string; proposed_by: string } | null;
}

interface Resolution {
  id: string;
  action: string;
  state: 'proposed' | 'applied' | 'rejected';
  reason: string;
  evidence: string;
  proposed_by: string;
  proposed_at: string;
  decided_by: string | null;
  decided_at: string | null;
  decision_reason: string | null;
}

interface Page {
  transaction: Item & {
    account_id: string;
    environment: string;
    partner_ref: string | null;
    checks: number;
    next_check_at: string | null;
    verified_at: string | null;
    hold: { amount: number; status: string } | null;
    overdue: boolean;
    reversed: boolean;
    result: Record<string, unknown>;
  };
  actions: string[];
  history: Array<{ at: string; kind: string; partner: string | null; status: string | null; detail: Record<string, unknown>; source: string }>;
  resolutions: Resolution[];
}

export function AttentionQueue({ me, onChanged }: { me: string; onChanged: () => void }) {
  const [reason, setReason] = useState<Reason | 'float' | ''>('');
  const queue = useData(
    () => (reason === 'float' ? Promise.resolve({ items: [] }) : api<{ items: Item[] }>(`/admin/attention?${qs({ reason: reason || undefined })}`)),
    [reason],
  );
  const changed = () => {
    queue.reload();
    onChanged();
  };
  return (
    <section>
      <h1>Needs attention</h1>
      <p className="hint">
        Live transactions no one should leave alone: pendings past their partner's expectation, pendings the reconciler gave up on, transactions a partner contradicted, and resolutions waiting for a second admin. Holds stay in place until a resolution is applied. Below them, each prepaid partner's float: a balance that differs from Sangam's books.
      </p>
      <fieldset className="env filter" aria-label="Show">
        {(['', 'overdue', 'review', 'flagged', 'proposed', 'float'] as const).map((r) => (
          <label key={r || 'all'}>
            <input type="radio" name="reason" checked={reason === r} onChange={() => setReason(r)} /> {r === 'float' ? 'Float' : r ? REASON_LABELS[r] : 'All'}
          </label>
        ))}
      </fieldset>
      {reason !== 'float' && <TransactionQueue items={queue.data?.items ?? null} error={queue.error} />}
      {(reason === '' || reason === 'float') && <FloatSection me={me} onChanged={changed} />}
    </section>
  );
}

function TransactionQueue({ items, error }: { items: Item[] | null; error: string }) {
  return (
    <>
      <h2>Transactions</h2>
      <Failure error={error} />
      {items && items.length === 0 && <Empty>No transaction needs attention.</Empty>}
      {items && items.length > 0 && (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th>Transaction</th>
                <th>Account</th>
                <th>Operation</th>
                <th className="num">Amount</th>
                <th>Partner</th>
                <th>Why</th>
                <th>Pending for</th>
              </tr>
            </thead>
            <tbody>
              {items.map((i) => (
                <tr key={i.id}>
                  <td>
                    <a href={`#attention/${i.id}`}>
                      <code>{i.id}</code>
                    </a>
                    <div className="hint">{i.reference_id}</div>
                  </td>
                  <td>{i.account_name}</td>
                  <td>{i.operation}</td>
                  <td className="num">{i.amount === null ? '—' : inr(i.amount)}</td>
                  <td>{i.partner ?? '—'}</td>
                  <td>
                    <div className="reasons">
                      {i.reasons.map((r) => (
                        <span key={r} className={`badge reason-${r}`}>
                          {REASON_LABELS[r]}
                        </span>
                      ))}
                    </div>
                    <div className="hint">{i.review_reason ?? i.flagged ?? (i.proposal ? `${ACTION_LABELS[i.proposal.action]} proposed by ${i.proposal.proposed_by}` : '')}</div>
                  </td>
                  <td>
                    {i.status === 'pending' ? age(i.created_at) : i.status}
                    {i.expected_final_s !== null && <div className="hint">expected within {duration(i.expected_final_s)}</div>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

export function AttentionTransaction({ txnId, me, onChanged }: { txnId: string; me: string; onChanged: () => void }) {
  const page = useData(() => api<Page>(`/admin/attention/${encodeURIComponent(txnId)}`), [txnId]);
  const act = async (fn: () => Promise<unknown>) => {
    try {
      await fn();
      page.reload();
      onChanged();
    } catch (e) {
      page.setError((e as Error).message);
    }
  };
  if (!page.data) return <Failure error={page.error} />;
  const { transaction: t, actions, history, resolutions } = page.data;
  const open = resolutions.find((r) => r.state === 'proposed');
  return (
    <section>
      <p>
        <a href="#attention">← Needs attention</a>
      </p>
      <h1>
        Transaction <code>{t.id}</code>
      </h1>
      <Failure error={page.error} />
      <Summary t={t} />
      {open ? <Proposal r={open} me={me} act={act} /> : actions.length > 0 && <ResolveForm txnId={t.id} actions={actions} act={act} />}
      <h2>Partner history</h2>
      <History entries={history} />
      {resolutions.length > 0 && <Resolutions items={resolutions} />}
    </section>
  );
}

function Summary({ t }: { t: Page['transaction'] }) {
  const rows: Array<[string, React.ReactNode]> = [
    ['Status', <span className={t.status === 'failed' ? 'badge bad' : 'badge'}>{t.status}{t.reversed ? ', reversed' : ''}</span>],
    ['Account', `${t.account_name} (${t.account_id})`],
    ['Operation', t.operation],
    ['Reference', t.reference_id],
    ['Amount', t.amount === null ? '—' : inr(t.amount)],
    ['Hold', t.hold ? `${inr(t.hold.amount)} (${t.hold.status})` : '—'],
    ['Partner', `${t.partner ?? '—'}${t.partner_ref ? ` · ${t.partner_ref}` : ''}`],
    ['Created', `${when(t.created_at)} (${age(t.created_at)} ago)`],
    ['Expected final within', t.expected_final_s === null ? '—' : `${duration(t.expected_final_s)}${t.overdue ? ' — overdue' : ''}`],
    ['Status enquiries', `${t.checks}${t.next_check_at ? `, next ${when(t.next_check_at)}` : ''}`],
  ];
  if (t.review_reason) rows.push(['Manual review', t.review_reason]);
  if (t.flagged) rows.push(['Flagged', t.flagged]);
  return (
    <dl className="facts">
      {rows.map(([k, v]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}

function ResolveForm({ txnId, actions, act }: { txnId: string; actions: string[]; act: (fn: () => Promise<unknown>) => Promise<void> }) {
  return (
    <form
      className="resolve"
      aria-label="Resolve"
      onSubmit={(e) => {
        e.preventDefault();
        const f = new FormData(e.currentTarget);
        void act(() => api(`/admin/attention/${txnId}/resolutions`, { method: 'POST', body: { action: f.get('action'), reason: f.get('reason'), evidence: f.get('evidence') } }));
      }}
    >
      <h2>Resolve</h2>
      <p className="hint">Marking success or failed, or posting a reversal, moves money: it waits for a second admin. Dismissing a flag or a review moves none and applies at once.</p>
      <label>
        Action
        <select name="action" required>
          {actions.map((a) => (
            <option key={a} value={a}>
              {ACTION_LABELS[a]}
            </option>
          ))}
        </select>
      </label>
      <label>
        Reason
        <input name="reason" required maxLength={1000} />
      </label>
      <label>
        Evidence (the partner's UTR, a statement line, a ticket)
        <input name="evidence" maxLength={2000} />
      </label>
      <button type="submit">Propose</button>
    </form>
  );
}

function Proposal({ r, me, act }: { r: Resolution; me: string; act: (fn: () => Promise<unknown>) => Promise<void> }) {
  const [why, setWhy] = useState('');
  const mine = r.proposed_by === me.toLowerCase();
  return (
    <div className="callout" role="region" aria-label="Waiting for approval">
      <div>
        <strong>{ACTION_LABELS[r.action]}</strong> proposed by {r.proposed_by} {when(r.proposed_at)}
        <div>Reason: {r.reason}</div>
        <div>Evidence: {r.evidence || '—'}</div>
        {mine && <div className="hint">You proposed it: another admin must approve it.</div>}
      </div>
      <button type="button" disabled={mine} onClick={() => act(() => api(`/admin/resolutions/${r.id}/approve`, { method: 'POST' }))}>
        Approve
      </button>
      <label className="inline">
        Reason to reject
        <input value={why} onChange={(e) => setWhy(e.target.value)} />
      </label>
      <button type="button" className="danger" onClick={() => act(() => api(`/admin/resolutions/${r.id}/reject`, { method: 'POST', body: { reason: why } }))}>
        Reject
      </button>
    </div>
  );
}

function History({ entries }: { entries: Page['history'] }) {
  if (entries.length === 0) return <Empty>No partner history recorded.</Empty>;
  return (
    <div className="table-wrap">
      <table aria-label="Partner history">
        <thead>
          <tr>
            <th>When</th>
            <th>What</th>
            <th>Partner</th>
            <th>Status</th>
            <th>Detail</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((e, i) => (
            <tr key={i} className={e.status === 'error' || e.kind === 'overdue' ? 'failed' : undefined}>
              <td>{when(e.at)}</td>
              <td>{e.kind}</td>
              <td>{e.partner ?? '—'}</td>
              <td>{e.status ?? '—'}</td>
              <td>
                {Object.entries(e.detail)
                  .map(([k, v]) => `${k}: ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
                  .join(' · ')}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Resolutions({ items }: { items: Resolution[] }) {
  return (
    <>
      <h2>Resolutions</h2>
      <ul className="entries">
        {items.map((r) => (
          <li key={r.id}>
            <strong>{ACTION_LABELS[r.action]}</strong> — {r.state}; proposed by {r.proposed_by} ({r.reason}; evidence: {r.evidence || '—'})
            {r.decided_by && (
              <>
                ; {r.state} by {r.decided_by} {when(r.decided_at)}
                {r.decision_reason ? ` (${r.decision_reason})` : ''}
              </>
            )}
          </li>
        ))}
      </ul>
    </>
  );
}
