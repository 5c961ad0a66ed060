// Needs attention, the float (admins; docs/RELIABILITY.md, "Float reconciliation"): each open drift
// between what Sangam's books say a prepaid partner's float should hold and what the partner reports,
// with its candidate transactions and what is proposed for it — propose a candidate's reversal (a
// resolution on that transaction), an adjustment or a dismissal; approve or reject another admin's
// proposal (maker-checker: a refusal is shown as the server words it) — and each partner's float as
// last checked, with recording its opening balance (none recorded: the check concludes nothing) and
// its fundings. Everything goes through /console/api/admin/float… and /admin/resolutions/….
import { useState } from 'react';
import { age, api, ApiFailure, inr, paiseOf, signedInr, when } from '../api';
import { Empty, Failure, Status, useData } from '../ui';

interface Candidate {
  txn_id: string;
  account_id: string;
  reference_id: string;
  status: string;
  amount_paise: number;
  created_at: string;
  sets: number;
}

interface FloatResolution {
  id: string;
  action: 'adjustment' | 'dismiss';
  amount_paise: number | null;
  state: 'proposed' | 'applied' | 'rejected';
  reason: string;
  evidence: string;
  proposed_by: string;
  proposed_at: string;
}

interface Drift {
  id: string;
  partner: string;
  drift_paise: number;
  expected_paise: number;
  actual_paise: number;
  candidates: { sets: string[][]; exhaustive: boolean; transactions: Candidate[]; note: string | null };
  opened_at: string;
  updated_at: string;
  proposal: FloatResolution | null;
  reversals_proposed: Array<{ resolution_id: string; txn_id: string; proposed_by: string; state: 'proposed' | 'applied' | 'rejected' }>;
}

interface PartnerFloat {
  partner: string;
  configured: boolean;
  opening: { amount_paise: number; memo: string; recorded_by: string; at: string } | null;
  checked_at: string | null;
  expected_paise: number | null;
  actual_paise: number | null;
  drift_paise: number | null;
  streak: number;
  error: string | null;
  error_at: string | null;
  open_item: string | null;
}

type Act = (fn: () => Promise<unknown>, done: string) => Promise<void>;

/** What an action's failure says: a refusal (403: maker-checker, an admin not yet in effect) stands out as one. */
function ActionError({ error }: { error: { message: string; status: number } | null }) {
  if (!error) return null;
  return (
    <p role="alert" className={error.status === 403 ? 'error refused' : 'error'}>
      {error.status === 403 && <strong>Refused: </strong>}
      {error.message}
    </p>
  );
}

/** Runs an action, then reloads; its failure (with the HTTP status) and its success note, for the caller to show. */
function useAct(reload: () => void) {
  const [error, setError] = useState<{ message: string; status: number } | null>(null);
  const [done, setDone] = useState('');
  const act: Act = async (fn, note) => {
    setError(null);
    setDone('');
    try {
      await fn();
      setDone(note);
      reload();
    } catch (e) {
      setError({ message: (e as Error).message, status: e instanceof ApiFailure ? e.status : 0 });
    }
  };
  return { act, error, done };
}

const signed = (paise: number) => <span className={paise < 0 ? 'debit' : undefined}>{signedInr(paise)}</span>;

export function FloatSection({ me, onChanged }: { me: string; onChanged: () => void }) {
  const data = useData(() => api<{ partners: PartnerFloat[]; drifts: Drift[] }>('/admin/float'), []);
  const reload = () => {
    data.reload();
    onChanged();
  };
  return (
    <section aria-labelledby="float-heading">
      <h2 id="float-heading">Float</h2>
      <p className="hint">
        A prepaid partner's balance against what Sangam's books say it should hold. A difference seen on consecutive checks becomes an item here, with the transactions whose amounts explain it. A reversal or an adjustment waits for a second admin; the next check closes the item once the books agree.
      </p>
      <Failure error={data.error} />
      {data.data && data.data.drifts.length === 0 && <Empty>No float drift is open.</Empty>}
      {data.data?.drifts.map((d) => <DriftCard key={d.id} d={d} partner={data.data!.partners.find((p) => p.partner === d.partner)} me={me} reload={reload} />)}
      {data.data && <Partners partners={data.data.partners} reload={reload} />}
    </section>
  );
}

function DriftCard({ d, partner, me, reload }: { d: Drift; partner: PartnerFloat | undefined; me: string; reload: () => void }) {
  const { act, error, done } = useAct(reload);
  const [choice, setChoice] = useState<{ action: string; txn: string }>({ action: d.candidates.transactions.length ? 'reversal' : 'adjustment', txn: d.candidates.transactions[0]?.txn_id ?? '' });
  const waiting = d.reversals_proposed.filter((r) => r.state === 'proposed');
  const busy = !!d.proposal || waiting.length > 0;
  return (
    <article className="drift" aria-label={`Float drift ${d.partner}`}>
      <div className="drift-head">
        <h3>{d.partner}</h3>
        <span className={`amount${d.drift_paise < 0 ? ' debit' : ''}`} data-testid="drift-amount">
          {signedInr(d.drift_paise)}
        </span>
        <span>{d.drift_paise > 0 ? 'the partner holds more than the books' : 'the partner holds less than the books'}</span>
      </div>
      <dl className="facts">
        <div>
          <dt>Books expect</dt>
          <dd>{inr(d.expected_paise / 100)}</dd>
        </div>
        <div>
          <dt>Partner reports</dt>
          <dd>{inr(d.actual_paise / 100)}</dd>
        </div>
        <div>
          <dt>Since</dt>
          <dd>
            {when(d.opened_at)} ({age(d.opened_at)} ago)
          </dd>
        </div>
        <div>
          <dt>Last check</dt>
          <dd>
            {when(partner?.checked_at ?? d.updated_at)}
            {partner && partner.streak > 0 && <div className="hint">this difference seen on {partner.streak} checks in a row</div>}
            {partner?.error && <div className="error">last read failed: {partner.error}</div>}
          </dd>
        </div>
        <div>
          <dt>Item</dt>
          <dd>
            <code>{d.id}</code>
          </dd>
        </div>
      </dl>
      <Candidates d={d} onReverse={busy ? null : (txn) => setChoice({ action: 'reversal', txn })} />
      <ActionError error={error} />
      <Status text={done} />
      {d.proposal?.state === 'proposed' && <AdjustmentProposal r={d.proposal} me={me} act={act} />}
      {waiting.map((r) => (
        <ReversalProposal key={r.resolution_id} resolutionId={r.resolution_id} txnId={r.txn_id} proposedBy={r.proposed_by} me={me} act={act} />
      ))}
      {d.reversals_proposed
        .filter((r) => r.state !== 'proposed')
        .map((r) => (
          <p key={r.resolution_id} className="hint">
            Reversal of <a href={`#attention/${r.txn_id}`}>{r.txn_id}</a> (proposed by {r.proposed_by}) {r.state}
            {r.state === 'applied' ? ': the next float check books it and closes this item if the books then agree.' : '.'}
          </p>
        ))}
      {!busy && <ResolveDrift d={d} choice={choice} setChoice={setChoice} act={act} />}
    </article>
  );
}

/** Which exact explanations a candidate belongs to, in words. */
function explains(c: Candidate, sets: string[][]): string {
  const mine = sets.filter((s) => s.includes(c.txn_id));
  if (mine.some((s) => s.length === 1)) return 'the whole difference, alone';
  if (mine.length > 0) return `with ${mine[0]!.length - 1} other${mine[0]!.length > 2 ? 's' : ''}`;
  return 'in a larger set';
}

function Candidates({ d, onReverse }: { d: Drift; onReverse: ((txn: string) => void) | null }) {
  const c = d.candidates;
  return (
    <>
      <h4>Candidate transactions</h4>
      {c.note && <p className="hint">{c.note}</p>}
      {c.transactions.length === 0 ? (
        <Empty>No transaction's amount explains this difference: adjust it (a fee, a top-up recorded wrong) or dismiss it with a reason.</Empty>
      ) : (
        <div className="table-wrap">
          <table aria-label={`Candidates for ${d.partner}`}>
            <thead>
              <tr>
                <th>Reference</th>
                <th>Transaction</th>
                <th>Status</th>
                <th className="num">Amount</th>
                <th>Date</th>
                <th>Explains</th>
                <th>
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {c.transactions.map((t) => (
                <tr key={t.txn_id}>
                  <td>{t.reference_id}</td>
                  <td>
                    <a href={`#attention/${t.txn_id}`}>
                      <code>{t.txn_id}</code>
                    </a>
                  </td>
                  <td>{t.status}</td>
                  <td className="num">{inr(t.amount_paise / 100)}</td>
                  <td>{when(t.created_at)}</td>
                  <td>{explains(t, c.sets)}</td>
                  <td>
                    {onReverse && (
                      <button type="button" className="link" onClick={() => onReverse(t.txn_id)}>
                        Reverse this one…
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {!c.exhaustive && <p className="hint">The search for explanations stopped at its bound: more may exist.</p>}
      {c.transactions.length > 0 && <p className="hint">Amounts match, but the partner does not name the transaction: confirm against its statement or support before proposing a reversal.</p>}
    </>
  );
}

const FLOAT_ACTIONS: Record<string, string> = { reversal: 'Reverse a candidate', adjustment: 'Adjust the books', dismiss: 'Dismiss (no money moves)' };

function ResolveDrift({ d, choice, setChoice, act }: { d: Drift; choice: { action: string; txn: string }; setChoice: (c: { action: string; txn: string }) => void; act: Act }) {
  const [amountError, setAmountError] = useState('');
  const actions = Object.keys(FLOAT_ACTIONS).filter((a) => a !== 'reversal' || d.candidates.transactions.length > 0);
  const submit = (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const body: Record<string, unknown> = { action: choice.action, reason: f.get('reason'), evidence: f.get('evidence') ?? undefined };
    if (choice.action === 'reversal') body.txn_id = choice.txn;
    if (choice.action === 'adjustment') {
      const paise = paiseOf(String(f.get('amount')));
      if (paise === null || paise === 0) return setAmountError('Write a non-zero amount in rupees, signed: 7, -3.50');
      body.amount_paise = paise;
    }
    setAmountError('');
    const note = choice.action === 'dismiss' ? 'Dismissed.' : 'Proposed: another admin must approve it.';
    void act(() => api(`/admin/float/drifts/${d.id}/resolutions`, { method: 'POST', body }), note);
  };
  return (
    <form className="resolve" aria-label={`Resolve the drift of ${d.partner}`} onSubmit={submit}>
      <h4>Resolve</h4>
      <p className="hint">A candidate's reversal returns its client's debit and waits for a second admin (on the transaction, as any reversal). An adjustment books a signed amount into the float (+ when the partner holds more than the books) and waits for a second admin. Dismissing moves nothing and applies at once; the same difference does not reopen.</p>
      <label>
        Action
        <select name="action" value={choice.action} onChange={(e) => setChoice({ ...choice, action: e.target.value })}>
          {actions.map((a) => (
            <option key={a} value={a}>
              {FLOAT_ACTIONS[a]}
            </option>
          ))}
        </select>
      </label>
      {choice.action === 'reversal' && (
        <label>
          Transaction
          <select name="txn_id" value={choice.txn} onChange={(e) => setChoice({ ...choice, txn: e.target.value })}>
            {d.candidates.transactions.map((t) => (
              <option key={t.txn_id} value={t.txn_id}>
                {t.reference_id} · {t.txn_id} · {inr(t.amount_paise / 100)}
              </option>
            ))}
          </select>
        </label>
      )}
      {choice.action === 'adjustment' && (
        <label>
          Amount (₹, signed)
          <input name="amount" inputMode="decimal" defaultValue={(d.drift_paise / 100).toFixed(2)} aria-invalid={!!amountError} />
          {amountError && <span className="error">{amountError}</span>}
        </label>
      )}
      <label>
        Reason
        <input name="reason" required maxLength={1000} />
      </label>
      {choice.action !== 'dismiss' && (
        <label>
          Evidence (the partner's statement line, a ticket)
          <input name="evidence" required maxLength={2000} />
        </label>
      )}
      <button type="submit">{choice.action === 'dismiss' ? 'Dismiss' : 'Propose'}</button>
    </form>
  );
}

/** Approve, or reject with a reason: the buttons of a proposal waiting for a checker. */
function Decide({ mine, approve, reject }: { mine: boolean; approve: () => void; reject: (why: string) => void }) {
  const [why, setWhy] = useState('');
  return (
    <>
      {mine && <div className="hint">You proposed it: another admin must approve it.</div>}
      <button type="button" disabled={mine} onClick={approve}>
        Approve
      </button>
      <label className="inline">
        Reason to reject
        <input value={why} onChange={(e) => setWhy(e.target.value)} />
      </label>
      <button type="button" className="danger" onClick={() => reject(why)}>
        Reject
      </button>
    </>
  );
}

function AdjustmentProposal({ r, me, act }: { r: FloatResolution; me: string; act: Act }) {
  return (
    <div className="callout" role="region" aria-label="Waiting for approval">
      <div>
        <strong>Adjust the books by {signed(r.amount_paise ?? 0)}</strong> proposed by {r.proposed_by} {when(r.proposed_at)}
        <div>Reason: {r.reason}</div>
        <div>Evidence: {r.evidence || '—'}</div>
      </div>
      <Decide
        mine={r.proposed_by === me.toLowerCase()}
        approve={() => act(() => api(`/admin/float/resolutions/${r.id}/approve`, { method: 'POST' }), 'Approved: the adjustment is booked and the item closed.')}
        reject={(why) => act(() => api(`/admin/float/resolutions/${r.id}/reject`, { method: 'POST', body: { reason: why } }), 'Rejected.')}
      />
    </div>
  );
}

/** A candidate's reversal waiting for a checker: the transaction's own resolution, read from its page. */
function ReversalProposal({ resolutionId, txnId, proposedBy, me, act }: { resolutionId: string; txnId: string; proposedBy: string; me: string; act: Act }) {
  const page = useData(() => api<{ transaction: { reference_id: string; amount: number | null }; resolutions: Array<{ id: string; reason: string; evidence: string; proposed_at: string }> }>(`/admin/attention/${encodeURIComponent(txnId)}`), [txnId]);
  const r = page.data?.resolutions.find((x) => x.id === resolutionId);
  const t = page.data?.transaction;
  return (
    <div className="callout" role="region" aria-label="Waiting for approval">
      <div>
        <strong>Reverse </strong>
        <a href={`#attention/${txnId}`}>
          <code>{txnId}</code>
        </a>
        {t && ` (${t.reference_id}${t.amount === null ? '' : `, ${inr(t.amount)}`})`} proposed by {proposedBy} {r && when(r.proposed_at)}
        {r && <div>Reason: {r.reason}</div>}
        {r && <div>Evidence: {r.evidence || '—'}</div>}
      </div>
      <Decide
        mine={proposedBy === me.toLowerCase()}
        approve={() => act(() => api(`/admin/resolutions/${resolutionId}/approve`, { method: 'POST' }), 'Approved: the reversal is posted; the next float check closes the item if the books then agree.')}
        reject={(why) => act(() => api(`/admin/resolutions/${resolutionId}/reject`, { method: 'POST', body: { reason: why } }), 'Rejected.')}
      />
    </div>
  );
}

function Partners({ partners, reload }: { partners: PartnerFloat[]; reload: () => void }) {
  const unanchored = partners.filter((p) => !p.opening);
  return (
    <>
      <h3>Partner floats</h3>
      {partners.length === 0 ? (
        <Empty>No configured partner keeps a float.</Empty>
      ) : (
        <div className="table-wrap spaced">
          <table aria-label="Partner floats">
            <thead>
              <tr>
                <th>Partner</th>
                <th className="num">Opening balance</th>
                <th className="num">Books expect</th>
                <th className="num">Partner reports</th>
                <th className="num">Difference</th>
                <th>Last check</th>
              </tr>
            </thead>
            <tbody>
              {partners.map((p) => (
                <tr key={p.partner} className={p.opening && p.drift_paise ? 'failed' : undefined}>
                  <td>
                    {p.partner}
                    {!p.configured && <div className="hint">no longer configured</div>}
                  </td>
                  <td className="num">{p.opening ? <>{inr(p.opening.amount_paise / 100)}<div className="hint">{when(p.opening.at)}</div></> : <span className="badge bad">not recorded</span>}</td>
                  <td className="num">{p.expected_paise === null ? '—' : inr(p.expected_paise / 100)}</td>
                  <td className="num">{p.actual_paise === null ? '—' : inr(p.actual_paise / 100)}</td>
                  <td className="num">
                    {p.drift_paise === null ? '—' : signed(p.drift_paise)}
                    {!!p.drift_paise && !p.open_item && <div className="hint">no open item: not confirmed yet, or dismissed</div>}
                  </td>
                  <td>
                    {when(p.checked_at)}
                    {p.error && <div className="error">{p.error_at ? `${when(p.error_at)}: ` : ''}{p.error}</div>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {unanchored.map((p) => (
        <p key={p.partner} className="callout" role="note">
          No opening balance is recorded for {p.partner}: its float checks conclude nothing until one is. Read the balance at {p.partner}'s dashboard and record it below, then each funding you send.
        </p>
      ))}
      {partners.length > 0 && <Movement partners={partners} unanchored={unanchored.length > 0} reload={reload} />}
    </>
  );
}

/** Records an opening balance or a funding, as the operator read it or sent it: applied at once, audited. */
function Movement({ partners, unanchored, reload }: { partners: PartnerFloat[]; unanchored: boolean; reload: () => void }) {
  const { act, error, done } = useAct(reload);
  const [amountError, setAmountError] = useState('');
  const submit = (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const f = new FormData(form);
    const paise = paiseOf(String(f.get('amount')));
    if (paise === null || paise < 0) return setAmountError('Write an amount in rupees: 1500, 1,500.75');
    setAmountError('');
    const kind = String(f.get('kind'));
    void act(async () => {
      await api(`/admin/float/${kind}`, { method: 'POST', body: { partner: f.get('partner'), amount_paise: paise, memo: f.get('memo') || undefined } });
      form.reset();
    }, kind === 'opening' ? 'Opening balance recorded: the next check counts from it.' : 'Funding recorded.');
  };
  return (
    <form className="resolve" aria-label="Record a float movement" onSubmit={submit}>
      <h4>Record a float movement</h4>
      <p className="hint">The opening balance is the partner's balance as you read it there: every later movement counts from the latest one. A funding is money Sangam sent to the partner's float.</p>
      <label>
        Kind
        <select name="kind" defaultValue={unanchored ? 'opening' : 'funding'}>
          <option value="opening">Opening balance</option>
          <option value="funding">Funding</option>
        </select>
      </label>
      <label>
        Partner
        <select name="partner" defaultValue={(partners.find((p) => !p.opening) ?? partners[0])?.partner}>
          {partners.map((p) => (
            <option key={p.partner} value={p.partner}>
              {p.partner}
            </option>
          ))}
        </select>
      </label>
      <label>
        Amount (₹)
        <input name="amount" inputMode="decimal" required aria-invalid={!!amountError} />
        {amountError && <span className="error">{amountError}</span>}
      </label>
      <label>
        Memo (where it was read, the transfer's UTR)
        <input name="memo" maxLength={500} />
      </label>
      <button type="submit">Record</button>
      <ActionError error={error} />
      <Status text={done} />
    </form>
  );
}
