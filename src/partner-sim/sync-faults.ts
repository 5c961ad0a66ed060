// Owns the misbehaviour switches of the synchronous emulators (no webhooks: cashfree-verification,
// surepass-signature), in the naming style of the Sangam simulator and the RazorpayX emulator. Setting
// faults replaces the whole set: fields left out go back to "behave". Each emulator supplies its own error
// bodies; this module only decides *whether* a call misbehaves.
export interface SyncFaults {
  /** Which calls the *_next counters consume: every API call, or only the one that does the work. */
  scope: 'any' | 'create';
  /** The next N calls hang for timeout_ms, then are processed normally (the client has likely given up). */
  timeout_next: number;
  timeout_ms: number;
  /** The next N calls answer error_status before doing anything (safe to retry). */
  error_next: number;
  /** The next N work calls do the work (it is recorded), then answer error_status: the dangerous case. */
  error_after_accept_next: number;
  /** 500, 502, 503 or 504. */
  error_status: number;
  /** The next N calls answer 429 before doing anything. */
  throttle_next: number;
}

export const NO_SYNC_FAULTS: SyncFaults = {
  scope: 'any',
  timeout_next: 0,
  timeout_ms: 30_000,
  error_next: 0,
  error_after_accept_next: 0,
  error_status: 500,
  throttle_next: 0,
};

/** The full fault set from a partial body, or an error text naming the bad field. */
export function parseSyncFaults(body: unknown): SyncFaults | string {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'faults must be a JSON object';
  const out: Record<string, unknown> = { ...NO_SYNC_FAULTS };
  for (const [k, v] of Object.entries(body)) {
    if (!Object.hasOwn(NO_SYNC_FAULTS, k)) return `unknown fault: ${k}`;
    const want = typeof NO_SYNC_FAULTS[k as keyof SyncFaults];
    if (typeof v !== want) return `${k} must be a ${want}`;
    if (want === 'number' && (!Number.isInteger(v) || (v as number) < 0)) return `${k} must be a whole number ≥ 0`;
    out[k] = v;
  }
  const f = out as unknown as SyncFaults;
  if (f.scope !== 'any' && f.scope !== 'create') return 'scope must be "any" or "create"';
  if (![500, 502, 503, 504].includes(f.error_status)) return 'error_status must be 500, 502, 503 or 504';
  return f;
}

/** What the before-work hook must do for one call; counters are consumed here. */
export type Misbehaviour = { kind: 'throttle' } | { kind: 'error'; status: number } | { kind: 'hang'; ms: number } | { kind: 'none' };

export function nextMisbehaviour(f: SyncFaults, isCreate: boolean): Misbehaviour {
  if (f.scope === 'create' && !isCreate) return { kind: 'none' };
  if (f.throttle_next > 0) {
    f.throttle_next--;
    return { kind: 'throttle' };
  }
  if (f.error_next > 0) {
    f.error_next--;
    return { kind: 'error', status: f.error_status };
  }
  if (f.timeout_next > 0) {
    f.timeout_next--;
    return { kind: 'hang', ms: f.timeout_ms };
  }
  return { kind: 'none' };
}

/** Whether a work call that has just done its work must now answer error_status (consumes the counter). */
export function failAfterAccept(f: SyncFaults): boolean {
  if (f.error_after_accept_next <= 0) return false;
  f.error_after_accept_next--;
  return true;
}

/** A timer set that close() can clear, so a hanging call never outlives the emulator. */
export class Timers {
  private readonly set = new Set<NodeJS.Timeout>();
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.later(ms, resolve));
  }
  later(ms: number, fn: () => void): void {
    const t = setTimeout(() => {
      this.set.delete(t);
      fn();
    }, ms);
    this.set.add(t);
  }
  clear(): void {
    for (const t of this.set) clearTimeout(t);
    this.set.clear();
  }
}

export function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
