// The bank test's clients: a fixed plan of live operations (UPI payouts, prepaid recharges, DTH
// recharges, interleaved, each with its own reference and idempotency key and a lifecycle picked by
// the partners' magic inputs), and clients that send each one again with the same key until they get
// a definite answer — through connection refusals while Sangam is down, 409 while a crashed request
// still holds the key, and 5xx. Every sixth operation has a twin: the same request sent at the same
// moment with a fresh idempotency key (a client retrying through its own queue with a new SDK call);
// one of the two executes and the other is told 409/114 naming it (CONTRACT §5).
import { randomUUID } from 'node:crypto';
import { commissionPaise, DTH_OPERATORS, MOBILE_OPERATORS } from '../../src/catalog/operators.js';
import { PATHS, sleep } from '../harness.js';
import type { Kind, Outcome } from './partners.js';

export interface Op {
  i: number;
  kind: Kind;
  reference: string;
  body: Record<string, unknown>;
  amountPaise: number;
  /** What the client pays if it succeeds, fee excluded: the amount less the operator's commission. */
  netPaise: number;
  /** Sent twice at once, the second time under a fresh idempotency key. */
  twin: boolean;
}

/**
 * The definite answer a client got: an operation's status, `unsent` (502/504, Errorcode 113: nothing
 * done), or `taken` (409/114: the reference names another transaction, `txnId`; nothing done).
 */
export interface Answer {
  status: Outcome | 'unsent' | 'taken';
  txnId: string | null;
  /** Requests it took (1 = answered at the first try). */
  tries: number;
}

const PATH: Record<Kind, string> = { upi: PATHS.upi, recharge: PATHS.recharge, dth: PATHS.dth };
const pad = (n: number, w: number) => String(n).padStart(w, '0');

// Lifecycles by index. UPI (the VPA's username, the same at both partners): success, failure, invalid,
// rejected, and reverse (paid, then reversed by the bank). Recharges (the last four digits): 0001
// failed, 0002 pending then success, 0003 pending then failed, 0004 success then reversed / refunded.
const VPAS = ['pay', 'pay', 'failure', 'pay', 'reverse', 'pay', 'rejected', 'pay', 'invalid', 'pay'];
const SUFFIXES = ['', '0002', '', '0001', '0004', '', '0003', ''];

function opOf(i: number, kind: Kind, k: number, run: string): Op {
  const reference = `bank-${run}-${kind}-${k}`;
  const idempotency_key = randomUUID();
  if (kind === 'upi') {
    const amountPaise = 100 + ((k * 3719) % 4900);
    return { i, kind, reference, amountPaise, netPaise: amountPaise, twin: i % 6 === 2, body: { reference_id: reference, consent: true, vpa: `${VPAS[k % VPAS.length]}.${k}@ybl`, amount: amountPaise / 100, idempotency_key } };
  }
  // Setu picks the lifecycle from the last four digits; the others keep every number a plain success.
  const suffix = SUFFIXES[k % SUFFIXES.length] || `2${pad(k % 1000, 3)}`;
  if (kind === 'recharge') {
    // 91 04 56: Jio in Maharashtra, not ported (the emulator's lookup); whole rupees, as Setu takes them.
    const amountPaise = (10 + ((k * 7) % 90)) * 100;
    const body = { reference_id: reference, consent: true, mobile: `910456${suffix}`, operator: 'JIO', circle: 'MH', amount: amountPaise / 100, idempotency_key };
    return { i, kind, reference, amountPaise, netPaise: amountPaise - commissionPaise(MOBILE_OPERATORS, 'JIO', amountPaise), twin: i % 6 === 2, body };
  }
  const amountPaise = 10_000 + ((k * 1733) % 40_000);
  const body = { reference_id: reference, consent: true, subscriber_id: `123456${suffix}`, operator: 'TS', amount: amountPaise / 100, idempotency_key };
  return { i, kind, reference, amountPaise, netPaise: amountPaise - commissionPaise(DTH_OPERATORS, 'TS', amountPaise), twin: i % 6 === 2, body };
}

/** `counts` operations of each kind, interleaved so that every phase of the run sees every kind. */
export function plan(counts: Record<Kind, number>, run: string): Op[] {
  const left = { ...counts };
  const seen: Record<Kind, number> = { upi: 0, recharge: 0, dth: 0 };
  const ops: Op[] = [];
  while (ops.length < counts.upi + counts.recharge + counts.dth) {
    for (const kind of ['upi', 'recharge', 'dth'] as const) {
      if (left[kind]-- > 0) ops.push(opOf(ops.length, kind, seen[kind]++, run));
    }
  }
  return ops;
}

/** How many operations the clients have started; resolves waiters when a share of them is reached. */
export class Progress {
  started = 0;
  private waiters: Array<{ n: number; resolve: () => void }> = [];

  constructor(readonly total: number) {}

  start(): void {
    this.started++;
    this.waiters = this.waiters.filter((w) => (this.started >= w.n ? (w.resolve(), false) : true));
  }

  /** Resolves once `share` (0 to 1) of the operations have been started. */
  reached(share: number): Promise<void> {
    const n = Math.ceil(share * this.total);
    return this.started >= n ? Promise.resolve() : new Promise((resolve) => this.waiters.push({ n, resolve }));
  }
}

/** A twin pair's two definite answers: the request as planned, and its twin under a fresh key. */
export interface TwinAnswers {
  reference: string;
  answers: [Answer | undefined, Answer | undefined];
}

export interface ClientStats {
  requests: number;
  /** Requests that got no definite answer: connection refused or reset, 409, 429, 5xx. */
  retries: number;
  replays: number;
}

/**
 * Runs `ops` on `clients` concurrent clients against whatever `base()` is at each try. Each operation
 * is sent with its own key until a definite answer, for two minutes at most; the clients stop when
 * `stop` aborts. Either leaves an operation unanswered, and the test fails.
 */
export async function runClients(ops: Op[], clients: number, base: () => string, key: string, progress: Progress, stop: AbortSignal) {
  const answers = new Map<string, Answer>();
  const twins: TwinAnswers[] = [];
  const stats: ClientStats = { requests: 0, retries: 0, replays: 0 };
  let next = 0;
  const send = async (op: Op, body: Record<string, unknown>): Promise<Answer | null> => {
    stats.requests++;
    const r = await fetch(`${base()}${PATH[op.kind]}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    const j = (await r.json().catch(() => null)) as { data?: { status?: Outcome; txn_id?: string; Errorcode?: number } } | null;
    if (r.headers.get('idempotent-replayed') === 'true') stats.replays++;
    if (r.status === 200 && j?.data?.status) return { status: j.data.status, txnId: j.data.txn_id ?? null, tries: 0 };
    if ((r.status === 502 || r.status === 504) && j?.data?.Errorcode === 113) return { status: 'unsent', txnId: null, tries: 0 };
    if (r.status === 409 && j?.data?.Errorcode === 114) return { status: 'taken', txnId: j.data.txn_id ?? null, tries: 0 };
    if (r.status === 409 || r.status === 429 || r.status >= 500) return null;
    throw new Error(`${op.reference}: HTTP ${r.status} ${JSON.stringify(j)}`);
  };
  /** One request, sent again with the same key until a definite answer. */
  const attempt = async (op: Op, body: Record<string, unknown>): Promise<Answer | undefined> => {
    const giveUpAt = Date.now() + 120_000;
    for (let tries = 1; !stop.aborted && Date.now() < giveUpAt; tries++) {
      const a = await send(op, body).catch((err: Error) => {
        if (err.message.startsWith(op.reference)) throw err;
        return null; // refused, reset or timed out: Sangam is down or was killed mid-request
      });
      if (a) return { ...a, tries };
      stats.retries++;
      await sleep(50);
    }
    return undefined;
  };
  const perform = async (op: Op) => {
    progress.start();
    if (!op.twin) {
      const a = await attempt(op, op.body);
      if (a) answers.set(op.reference, a);
      return;
    }
    const pair = await Promise.all([attempt(op, op.body), attempt(op, { ...op.body, idempotency_key: randomUUID() })]);
    twins.push({ reference: op.reference, answers: pair });
    // The operation's answer is the one that executed it (the other names it, 409/114, or was unsent).
    const a = pair.find((x) => x && x.status !== 'taken' && x.status !== 'unsent') ?? pair.find((x) => x?.status === 'unsent') ?? pair[0];
    if (a) answers.set(op.reference, a);
  };
  const client = async () => {
    while (next < ops.length && !stop.aborted) await perform(ops[next++]!);
  };
  await Promise.all(Array.from({ length: clients }, client));
  return { answers, stats, twins };
}
