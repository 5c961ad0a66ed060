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

/**
 * A scrolling table with a header row; a column named '' is the row's actions (named for screen readers
 * only), a column starting with '#' is numeric (right-aligned, the '#' dropped).
 */
export function Table({ label, columns, children }: { label: string; columns: string[]; children: React.ReactNode }) {
  return (
    <div className="table-wrap">
      <table aria-label={label}>
        <thead>
          <tr>
            {columns.map((c, i) =>
              c === '' ? (
                <th key={i}>
                  <span className="sr-only">Actions</span>
                </th>
              ) : (
                <th key={i} className={c.startsWith('#') ? 'num' : undefined}>
                  {c.replace(/^#/, '')}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** A labelled drop-down of [value, text] options, the first selected. */
export const Select = ({ label, name, options }: { label: string; name: string; options: Array<[string, string]> }) => (
  <label>
    {label}
    <select name={name} defaultValue={options[0]?.[0]}>
      {options.map(([value, text]) => (
        <option key={value} value={value}>
          {text}
        </option>
      ))}
    </select>
  </label>
);

/** An account as the admin tables show it: its name over its id. */
export const AccountName = ({ account }: { account: { id: string; name: string } }) => (
  <>
    {account.name}
    <br />
    <code>{account.id}</code>
  </>
);

/** A short confirmation beside a form's buttons ("Saved."), announced to screen readers. */
export const Status = ({ text }: { text: string }) =>
  text ? (
    <span role="status" className="hint">
      {text}
    </span>
  ) : null;
