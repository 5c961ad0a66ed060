// Owns the fault machinery every emulator shares: parsing a POST /_sim/faults body into a whole fault set
// (fields left out go back to "behave"), the GET/POST /_sim/faults routes, and the per-call counters
// (throttle_next, error_next, timeout_next, error_after_accept_next) with their scope. What each fault is
// called, its defaults and the error bodies it answers with stay in each partner's folder; this module
// only decides *whether* a call misbehaves.
import type { FastifyInstance } from 'fastify';

/** The counters a call consumes. `scope` (when the partner has one) limits them to the call that does the work. */
export interface CallFaults {
  scope?: string;
  /** The next N calls answer 429 before doing anything (not every partner has it). */
  throttle_next?: number;
  /** The next N calls answer error_status before doing anything (safe to retry). */
  error_next: number;
  error_status: number;
  /** The next N calls hang for timeout_ms, then are processed normally (the client has likely given up). */
  timeout_next: number;
  timeout_ms: number;
  /** The next N work calls do the work, then answer error_status: the dangerous case. */
  error_after_accept_next?: number;
}

/** The counters every partner with API faults has, as each partner's Faults names them. */
export interface CounterFaults<Scope extends string> {
  /** Which calls the *_next counters consume: every API call ("any"), or only the one that does the work. */
  scope: Scope;
  /** The next N calls hang for timeout_ms, then are processed normally (the client has likely given up). */
  timeout_next: number;
  timeout_ms: number;
  /** The next N calls answer error_status before doing anything (safe to retry). */
  error_next: number;
  /** The next N work calls do the work (it is recorded), then answer error_status: the dangerous case. */
  error_after_accept_next: number;
  /** 500, 502, 503 or 504. */
  error_status: number;
}

/** Behave: in this key order, which GET /_sim/faults keeps. */
export const NO_COUNTER_FAULTS = { scope: 'any', timeout_next: 0, timeout_ms: 30_000, error_next: 0, error_after_accept_next: 0, error_status: 500 } as const;

export interface FaultRules {
  /** The scope values allowed, the first being "every call". */
  scopes: readonly string[];
}

/** The full fault set from a partial body, or an error text naming the bad field. */
export function parseFaultSet<F extends CallFaults>(defaults: F, body: unknown, rules: FaultRules): F | string {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'faults must be a JSON object';
  const out: Record<string, unknown> = { ...(defaults as object) };
  for (const [k, v] of Object.entries(body)) {
    if (!Object.hasOwn(defaults, k)) return `unknown fault: ${k}`;
    const want = typeof defaults[k as keyof F];
    if (typeof v !== want) return `${k} must be a ${want}`;
    if (want === 'number' && (!Number.isInteger(v) || (v as number) < 0)) return `${k} must be a whole number ≥ 0`;
    out[k] = v;
  }
  const f = out as unknown as F;
  if (!rules.scopes.includes(f.scope!)) return `scope must be ${rules.scopes.map((s) => `"${s}"`).join(' or ')}`;
  if (![500, 502, 503, 504].includes(f.error_status)) return 'error_status must be 500, 502, 503 or 504';
  return f;
}

/** GET /_sim/faults answers the current set; POST replaces it (400 `{ error }` naming a bad field). */
export function registerFaultRoutes<F>(app: FastifyInstance, get: () => F, set: (f: F) => void, parse: (body: unknown) => F | string): void {
  app.get('/_sim/faults', async () => get());
  app.post('/_sim/faults', async (req, reply) => {
    const f = parse(req.body ?? {});
    if (typeof f === 'string') return reply.code(400).send({ error: f });
    set(f);
    return f;
  });
}

/** What the before-work hook must do for one call. */
export type Misbehaviour = { kind: 'throttle' } | { kind: 'error'; status: number } | { kind: 'hang'; ms: number } | { kind: 'none' };

/** Consumes one counter, in the order throttle, error, hang; a call outside the scope consumes none. */
export function nextMisbehaviour(f: CallFaults, isWork: boolean): Misbehaviour {
  if (f.scope !== undefined && f.scope !== 'any' && !isWork) return { kind: 'none' };
  if (f.throttle_next !== undefined && f.throttle_next > 0) {
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

/** What every emulator's API handlers are given to misbehave as told: the current faults, the added latency and the clock. */
export interface CallDeps<F> {
  faults: () => F;
  latencyMs: number;
  sleep: (ms: number) => Promise<void>;
}

export interface MisbehaveWith {
  /** The partner's 429 (only partners with throttle_next need it). */
  throttled?: () => Error;
  /** The partner's 5xx body for this status. */
  failed: (status: number) => Error;
  sleep: (ms: number) => Promise<void>;
  /** Added to every call after any hang. */
  latencyMs: number;
}

/** The before-work hook: throws the partner's 429 or 5xx, or hangs, as the counters say; then the latency. */
export async function misbehave(f: CallFaults, isWork: boolean, w: MisbehaveWith): Promise<void> {
  const m = nextMisbehaviour(f, isWork);
  if (m.kind === 'throttle') throw w.throttled!();
  if (m.kind === 'error') throw w.failed(m.status);
  if (m.kind === 'hang') await w.sleep(m.ms);
  if (w.latencyMs > 0) await w.sleep(w.latencyMs);
}

/** Whether a work call that has just done its work must now answer error_status (consumes the counter). */
export function failAfterAccept(f: CallFaults): boolean {
  if (!f.error_after_accept_next || f.error_after_accept_next <= 0) return false;
  f.error_after_accept_next--;
  return true;
}
