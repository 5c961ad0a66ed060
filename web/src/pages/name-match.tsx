// The account's name-match settings (CONTRACT §11, docs/NAME-MATCH.md): the two thresholds that turn a
// score into approve / review / reject, and what a payout whose beneficiary name is only a review does
// (hold it: failed, nothing paid; or pay it). Saved through PUT /console/api/name-match (an audited
// admin action); "Back to the defaults" sends nulls. Below, the payee verification reuse window
// (CONTRACT §14): how long a valid vpa-verification stands in for a payout's name check, shown in hours
// and saved in seconds through PUT /console/api/verification-reuse.
import { useEffect, useState } from 'react';
import { api } from '../api';
import { Failure, Status, useData } from '../ui';

interface Settings {
  thresholds: { approve_at: number; review_at: number };
  on_review: 'pay' | 'hold';
}

/** The documented defaults (src/namematch DEFAULT_THRESHOLDS, DEFAULT_ON_REVIEW), shown beside the fields. */
const DEFAULTS: Settings = { thresholds: { approve_at: 75, review_at: 55 }, on_review: 'hold' };

/** The documented default and the longest window, in hours (src/accounts/verification-reuse.ts). */
const REUSE_DEFAULT_H = 24;
const REUSE_MAX_H = 720;

export function NameMatch() {
  const { data, error, setError } = useData(() => api<Settings>('/name-match'), []);
  const [form, setForm] = useState<Settings | null>(null);
  const [saved, setSaved] = useState('');
  useEffect(() => setForm(data), [data]);

  const save = async (body: Record<string, unknown>) => {
    setError('');
    setSaved('');
    try {
      setForm(await api<Settings>('/name-match', { method: 'PUT', body }));
      setSaved('Saved.');
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const score = (key: 'approve_at' | 'review_at') => (e: React.ChangeEvent<HTMLInputElement>) =>
    form && setForm({ ...form, thresholds: { ...form.thresholds, [key]: e.target.valueAsNumber } });

  return (
    <section>
      <h1>Name match</h1>
      <p className="hint">
        A name comparison scores 0–100. At or above <em>approve at</em> it is approved; at or above <em>review at</em> it needs a review; below, it is rejected. These
        thresholds apply to <code>name-match</code>, to <code>name_match</code> in mobile-to-bank-account and signature-match, and to payouts with a{' '}
        <code>beneficiary_name</code>, which are never paid on a reject.
      </p>
      <Failure error={error} />
      {form && (
        <form
          className="settings"
          aria-label="Name match settings"
          onSubmit={(e) => {
            e.preventDefault();
            void save({ approve_at: form.thresholds.approve_at, review_at: form.thresholds.review_at, on_review: form.on_review });
          }}
        >
          <label>
            Approve at
            <input name="approve_at" type="number" min={0} max={100} step={1} required value={Number.isNaN(form.thresholds.approve_at) ? '' : form.thresholds.approve_at} onChange={score('approve_at')} />
            <small>default {DEFAULTS.thresholds.approve_at}</small>
          </label>
          <label>
            Review at
            <input name="review_at" type="number" min={0} max={100} step={1} required value={Number.isNaN(form.thresholds.review_at) ? '' : form.thresholds.review_at} onChange={score('review_at')} />
            <small>default {DEFAULTS.thresholds.review_at}, not above approve at</small>
          </label>
          <fieldset>
            <legend>A payout whose name needs a review</legend>
            {(
              [
                ['hold', 'Hold it: failed, nothing paid (default)'],
                ['pay', 'Pay it, with name_match in the answer'],
              ] as const
            ).map(([value, label]) => (
              <label key={value}>
                <input type="radio" name="on_review" value={value} checked={form.on_review === value} onChange={() => setForm({ ...form, on_review: value })} /> {label}
              </label>
            ))}
          </fieldset>
          <div className="toolbar">
            <button type="submit">Save</button>
            <button type="button" onClick={() => void save({ approve_at: null, review_at: null, on_review: null })}>
              Back to the defaults
            </button>
            <Status text={saved} />
          </div>
        </form>
      )}
      <VerificationReuse />
    </section>
  );
}

function VerificationReuse() {
  const { data, error, setError } = useData(() => api<{ reuse_window_s: number }>('/verification-reuse'), []);
  const [hours, setHours] = useState<number | null>(null);
  const [saved, setSaved] = useState('');
  useEffect(() => setHours(data ? data.reuse_window_s / 3600 : null), [data]);

  const save = async (reuse_window_s: number | null) => {
    setError('');
    setSaved('');
    try {
      setHours((await api<{ reuse_window_s: number }>('/verification-reuse', { method: 'PUT', body: { reuse_window_s } })).reuse_window_s / 3600);
      setSaved('Window saved.');
    } catch (e) {
      setError((e as Error).message);
    }
  };

  return (
    <>
      <h2>Payee verification reuse</h2>
      <p className="hint">
        A UPI payout with a <code>beneficiary_name</code> compares it with the holder&apos;s name from your own valid <code>vpa-verification</code> of the same VPA, when
        that verification is younger than this window, instead of paying for a new validation. 0 never reuses.
      </p>
      <Failure error={error} />
      {hours !== null && (
        <form
          className="settings"
          aria-label="Payee verification reuse"
          onSubmit={(e) => {
            e.preventDefault();
            void save(Math.round(hours * 3600));
          }}
        >
          <label>
            Reuse window (hours)
            <input name="reuse_window_h" type="number" min={0} max={REUSE_MAX_H} step="any" required value={Number.isNaN(hours) ? '' : hours} onChange={(e) => setHours(e.target.valueAsNumber)} />
            <small>
              default {REUSE_DEFAULT_H}, at most {REUSE_MAX_H} (30 days)
            </small>
          </label>
          <div className="toolbar">
            <button type="submit">Set window</button>
            <button type="button" onClick={() => void save(null)}>
              Window back to {REUSE_DEFAULT_H} h
            </button>
            <Status text={saved} />
          </div>
        </form>
      )}
    </>
  );
}
