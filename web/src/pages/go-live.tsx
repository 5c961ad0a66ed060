// Go live (issue #26 item 5). For the account: the go-live profile (business details, use case,
// consent notice), the checklist of every operation, and submitting the ready ones for review. For
// admins: the submissions with the account's profile and checklist, approved (by an admin other
// than the submitter: maker-checker) or rejected with a reason. Approval grants live use at once.
// Compact (issue #37): the items every operation shares (profile, allow-list, webhook) are shown once,
// each operation one card with its own items; an approved operation (by a reviewer or an operator's
// `sangam approve`) says so, with its checklist folded away and nothing marked as failing; the profile
// folds away once complete.
import { useEffect, useState } from 'react';
import { api, when } from '../api';
import { Empty, Failure, Status, useData } from '../ui';

interface Item {
  id: string;
  done: boolean;
  detail: string;
}
interface Submission {
  id: string;
  state: string;
  submitted_by: string;
  submitted_at: string;
  decided_by: string | null;
  decided_at: string | null;
  reason: string | null;
}
interface OperationState {
  operation: string;
  /** Its name for people ("UPI payment"). */
  name: string;
  status: 'not_submitted' | 'submitted' | 'approved' | 'rejected';
  ready: boolean;
  items: Item[];
  submission: Submission | null;
}
type Profile = Record<(typeof FIELDS)[number][0], string>;
interface State {
  profile: Profile;
  operations: OperationState[];
}

const FIELDS = [
  ['legal_name', 'Legal name', 'input'],
  ['address', 'Registered address', 'input'],
  ['website', 'Website (https://…)', 'input'],
  ['contact_name', 'Contact name', 'input'],
  ['contact_email', 'Contact e-mail', 'input'],
  ['contact_phone', 'Contact phone', 'input'],
  ['use_case', 'Use case: what you use these operations for', 'textarea'],
  ['notice_version', 'Consent notice version', 'input'],
  ['notice_text', 'Consent notice text (or record a consent covering the operation)', 'textarea'],
] as const;
const LABELS: Record<string, string> = {
  business_details: 'Business details',
  use_case: 'Use case',
  consent_notice: 'Consent notice',
  allowlist: 'Live IP allow-list',
  webhook: 'Verified live webhook endpoint',
  sandbox_calls: 'Successful sandbox calls',
};

/** Items that are the same for every operation: shown once, above the operations. */
const SHARED = new Set(['business_details', 'use_case', 'allowlist', 'webhook']);

/** `quiet`: the items of an approved operation, where a missing one fails nothing (no red cross). */
const Checklist = ({ items, quiet = false }: { items: Item[]; quiet?: boolean }) => (
  <ul className="checklist">
    {items.map((i) => (
      <li key={i.id} className={i.done ? 'done' : quiet ? 'open' : 'todo'}>
        <span aria-label={i.done ? 'done' : 'not done'}>{i.done ? '✓' : quiet ? '·' : '✗'}</span> <strong>{LABELS[i.id] ?? i.id}:</strong>{' '}
        <span className="detail" title={i.detail}>
          {i.detail}
        </span>
      </li>
    ))}
  </ul>
);

const STATUS_CLASS: Record<OperationState['status'], string> = { approved: 'good', submitted: 'wait', rejected: 'bad', not_submitted: 'none' };

function OperationCard({ o, chosen, toggle }: { o: OperationState; chosen: boolean; toggle: () => void }) {
  const own = o.items.filter((i) => !SHARED.has(i.id));
  const approved = o.status === 'approved';
  return (
    <article className={`golive op ${approved ? 'approved' : ''}`} aria-label={`Go-live ${o.operation}`}>
      <h2>
        <label>
          <input type="checkbox" name="operations" value={o.operation} disabled={!o.ready || o.status === 'submitted' || approved} checked={chosen} onChange={toggle} /> {o.name}
        </label>{' '}
        <code className="slug">{o.operation}</code>{' '}
        <span className={`badge ${STATUS_CLASS[o.status]}`} data-testid={`status-${o.operation}`}>
          {o.status.replace('_', ' ')}
        </span>
      </h2>
      {approved ? (
        <>
          <p className="hint">Live use is approved{o.submission?.state === 'approved' && o.submission.decided_by ? ` (by ${o.submission.decided_by} ${when(o.submission.decided_at)})` : ' (by an operator)'}.</p>
          <details>
            <summary>Checklist as it is now ({o.items.filter((i) => i.done).length} of {o.items.length} done)</summary>
            <Checklist items={o.items} quiet />
          </details>
        </>
      ) : (
        <>
          <Checklist items={own} />
          <Decision s={o.submission} />
        </>
      )}
    </article>
  );
}

function Decision({ s }: { s: Submission | null }) {
  if (!s) return null;
  return (
    <p className="hint">
      Submitted by {s.submitted_by} {when(s.submitted_at)}
      {s.decided_by && ` · ${s.state} by ${s.decided_by} ${when(s.decided_at)}`}
      {s.reason && `: ${s.reason}`}
    </p>
  );
}

function ProfileForm({ profile, onSaved }: { profile: Profile; onSaved: () => void }) {
  const [form, setForm] = useState(profile);
  const [error, setError] = useState('');
  const [saved, setSaved] = useState('');
  useEffect(() => setForm(profile), [profile]);
  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    setError('');
    setSaved('');
    try {
      await api('/go-live/profile', { method: 'PUT', body: Object.fromEntries(FIELDS.map(([name]) => [name, form[name] ?? ''])) });
      setSaved('Saved.');
      onSaved();
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <form className="settings" aria-label="Go-live profile" onSubmit={save}>
      {FIELDS.map(([name, label, kind]) => (
        <label key={name}>
          {label}
          {kind === 'textarea' ? (
            <textarea name={name} rows={3} value={form[name] ?? ''} onChange={(e) => setForm({ ...form, [name]: e.target.value })} />
          ) : (
            <input name={name} value={form[name] ?? ''} onChange={(e) => setForm({ ...form, [name]: e.target.value })} />
          )}
        </label>
      ))}
      <Failure error={error} />
      <div className="toolbar">
        <button type="submit">Save profile</button>
        <Status text={saved} />
      </div>
    </form>
  );
}

/** The profile, folded away when it was complete as the page opened (it stays as the user leaves it). */
function ProfileSection({ profile, complete, onSaved }: { profile: Profile; complete: boolean; onSaved: () => void }) {
  const [open, setOpen] = useState(!complete);
  return (
    <details className="golive profile" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Go-live profile {complete ? '(complete)' : '(to fill in)'}</summary>
      <ProfileForm profile={profile} onSaved={onSaved} />
    </details>
  );
}

export function GoLive() {
  const { data, error, reload, setError } = useData(() => api<State>('/go-live'), []);
  const [chosen, setChosen] = useState<string[]>([]);
  const [done, setDone] = useState('');
  const submit = async () => {
    setError('');
    try {
      await api('/go-live/submissions', { method: 'POST', body: { operations: chosen } });
      setDone(`Submitted for review: ${chosen.join(', ')}`);
      setChosen([]);
      reload();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const toggle = (op: string) => setChosen(chosen.includes(op) ? chosen.filter((o) => o !== op) : [...chosen, op]);
  const shared = (data?.operations[0]?.items ?? []).filter((i) => SHARED.has(i.id));
  const profileDone = shared.filter((i) => i.id === 'business_details' || i.id === 'use_case').every((i) => i.done);
  return (
    <section className="golive-page">
      <h1>Go live</h1>
      <p className="hint">Each operation needs a reviewer&apos;s approval before live keys may use it. Fill in the profile, complete the checklist, then submit.</p>
      {data && <ProfileSection profile={data.profile} complete={profileDone} onSaved={reload} />}
      <Failure error={error} />
      {done && (
        <p role="status" className="hint">
          {done}
        </p>
      )}
      {data && (
        <article className="golive" aria-label="Checklist for every operation">
          <h2>For every operation</h2>
          <Checklist items={shared} />
        </article>
      )}
      <div className="golive-ops">
        {data?.operations.map((o) => <OperationCard key={o.operation} o={o} chosen={chosen.includes(o.operation)} toggle={() => toggle(o.operation)} />)}
      </div>
      <div className="toolbar">
        <button onClick={submit} disabled={chosen.length === 0}>
          Submit for review
        </button>
      </div>
    </section>
  );
}

interface Review extends Submission {
  account_id: string;
  account_name: string;
  operation: string;
  name: string;
  profile: Profile;
  items: Item[];
}

function ReviewCard({ r, onDone }: { r: Review; onDone: (error: string) => void }) {
  const [reason, setReason] = useState('');
  const act = async (what: 'approve' | 'reject') => {
    try {
      await api(`/admin/go-live/${r.id}/${what}`, { method: 'POST', body: what === 'reject' ? { reason } : {} });
      onDone('');
    } catch (e) {
      onDone((e as Error).message);
    }
  };
  return (
    <article className="golive" aria-label={`Submission ${r.account_name} ${r.operation}`}>
      <h2>
        {r.account_name} · {r.name} <code className="slug">{r.operation}</code> <span className="badge">{r.state}</span>
      </h2>
      <p>
        {[r.profile.legal_name, r.profile.address, r.profile.website, r.profile.contact_name, r.profile.contact_email, r.profile.contact_phone].filter(Boolean).join(' · ')}
      </p>
      <p>
        <strong>Use case:</strong> {r.profile.use_case}
      </p>
      <Checklist items={r.items} />
      <Decision s={r} />
      {r.state === 'submitted' && (
        <div className="toolbar">
          <button onClick={() => act('approve')}>Approve</button>
          <input aria-label="Reason for rejecting" placeholder="Reason for rejecting" value={reason} onChange={(e) => setReason(e.target.value)} />
          <button onClick={() => act('reject')}>Reject</button>
        </div>
      )}
    </article>
  );
}

export function GoLiveReview() {
  const [all, setAll] = useState(false);
  const { data, error, reload, setError } = useData(() => api<{ items: Review[] }>(`/admin/go-live${all ? '?all=true' : ''}`), [all]);
  return (
    <section>
      <h1>Go-live reviews</h1>
      <p className="hint">Approve or reject what accounts submitted. Whoever submitted a request cannot approve it.</p>
      <label className="check">
        <input type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} /> Show decided ones too
      </label>
      <Failure error={error} />
      {data && data.items.length === 0 && <Empty>Nothing waits for review.</Empty>}
      {data?.items.map((r) => (
        <ReviewCard
          key={r.id}
          r={r}
          onDone={(e) => {
            setError(e);
            if (!e) reload();
          }}
        />
      ))}
    </section>
  );
}
