// Small shared pieces of the console: data loading, an environment switch, errors and empty states.
import { useCallback, useEffect, useState } from 'react';

export function useData<T>(load: () => Promise<T>, deps: unknown[]) {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState('');
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const reload = useCallback(() => {
    setError('');
    load().then(setData, (e: Error) => setError(e.message));
  }, deps);
  useEffect(reload, [reload]);
  return { data, error, reload, setError };
}

export function EnvSwitch({ value, onChange }: { value: 'sandbox' | 'live'; onChange: (v: 'sandbox' | 'live') => void }) {
  return (
    <fieldset className="env">
      <legend>Environment</legend>
      {(['sandbox', 'live'] as const).map((e) => (
        <label key={e}>
          <input type="radio" name="env" value={e} checked={value === e} onChange={() => onChange(e)} /> {e}
        </label>
      ))}
    </fieldset>
  );
}

export const Failure = ({ error }: { error: string }) =>
  error ? (
    <p role="alert" className="error">
      {error}
    </p>
  ) : null;

export const Empty = ({ children }: { children: React.ReactNode }) => <p className="empty">{children}</p>;

/** A short confirmation beside a form's buttons ("Saved."), announced to screen readers. */
export const Status = ({ text }: { text: string }) =>
  text ? (
    <span role="status" className="hint">
      {text}
    </span>
  ) : null;
