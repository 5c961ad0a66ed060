// The console's client for /console/api: JSON envelopes, the session's CSRF token on every change.
export interface Envelope<T> {
  statuscode: string;
  ok: boolean;
  message: string;
  data: T;
}

let csrf = '';
export const setCsrf = (token: string) => (csrf = token);

/** A refused field; `row` names the row of a batch upload. */
export interface FieldError {
  row?: number;
  field: string;
  message: string;
}

export class ApiFailure extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly errors: FieldError[] = [],
  ) {
    super(message);
  }
}

/** `body` is sent as JSON; `file` as it is, with its Content-Type (a batch upload). */
export async function api<T = Record<string, unknown>>(path: string, init: { method?: string; body?: unknown; file?: { type: string; data: Blob } } = {}): Promise<T> {
  const type = init.file?.type ?? (init.body !== undefined ? 'application/json' : undefined);
  const res = await fetch(`/console/api${path}`, {
    method: init.method ?? 'GET',
    credentials: 'same-origin',
    headers: {
      ...(type ? { 'content-type': type } : {}),
      ...(init.method && init.method !== 'GET' ? { 'x-csrf-token': csrf } : {}),
    },
    body: init.file?.data ?? (init.body !== undefined ? JSON.stringify(init.body) : undefined),
  });
  const env = (await res.json().catch(() => null)) as Envelope<T & { errors?: FieldError[] }> | null;
  if (!res.ok || !env) throw new ApiFailure(env?.data?.errors?.map((e) => e.message).join('; ') || env?.message || `HTTP ${res.status}`, res.status, env?.data?.errors ?? []);
  return env.data;
}

export const qs = (params: Record<string, string | undefined>) =>
  new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => !!e[1])).toString();

/**
 * An INR amount in Indian grouping: ₹1,23,456.00; a negative one (a debit) with the minus sign before the
 * rupee sign, as Indian statements write it: −₹121.00, never ₹-121.00.
 */
export const inr = (n: number) => `${n < 0 ? '−' : ''}₹${Math.abs(n).toLocaleString('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
export const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');

/** Paise as INR with its sign written out: +₹199.00, −₹3.00, ₹0.00 (a difference, where the sign is the news). */
export const signedInr = (paise: number) => `${paise > 0 ? '+' : ''}${inr(paise / 100)}`;

/**
 * What a person typed as rupees ("1,500.75", "-3", "−3.00", "+7") in whole paise, exactly (no
 * floating point); null when it is not an amount with at most two decimals.
 */
export function paiseOf(text: string): number | null {
  const m = /^([+\-−]?)\s*₹?\s*(\d[\d,]*)(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!m) return null;
  const paise = Number(m[2]!.replace(/,/g, '')) * 100 + Number((m[3] ?? '').padEnd(2, '0'));
  if (!Number.isSafeInteger(paise)) return null;
  return m[1] === '-' || m[1] === '−' ? -paise : paise;
}

/** "2 h 5 min", "40 s": how long, for people. */
export function duration(seconds: number): string {
  if (seconds < 60) return `${Math.round(seconds)} s`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ${Math.round((seconds % 3600) / 60)} min`;
  return `${Math.floor(seconds / 86_400)} d ${Math.round((seconds % 86_400) / 3600)} h`;
}

/** How long ago `iso` was, for people. */
export const age = (iso: string) => duration((Date.now() - new Date(iso).getTime()) / 1000);
