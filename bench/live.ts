// Live benchmarks: UPI, recharge and signature-match through Sangam and the partner simulator at 0 ms,
// and the same calls made to the simulator directly. Throughput comes from autocannon under
// concurrency; our overhead is the difference of the sequential (unqueued) p50 latencies, Sangam
// minus the simulator, measured in the same run.
import { randomUUID } from 'node:crypto';
import type { StoreLocation } from '../test/harness.js';
import { PARTNER_PATHS } from '../shared/protocol.js';
import { latencyOf, measuredLoad, probe, seedAccount, startServer, warmLoad, type Proc, type Result } from './lib.js';
import { startTimingProxy, type TimingProxy } from './timing-proxy.js';

const PROBE_CALLS = Number(process.env.BENCH_PROBE_CALLS ?? 500);
const ref = () => `bench-${randomUUID()}`;

interface LiveOp {
  name: string;
  path: string;
  body: () => Record<string, unknown>;
  simPath: string;
  simBody: () => Record<string, unknown>;
}

const IMAGE = 'https://example.com/cheque.png';
export const LIVE_OPS: LiveOp[] = [
  {
    name: 'UPI',
    path: '/api/v1/upi-payment/upi-payment-status',
    body: () => ({ reference_id: ref(), consent: true, vpa: 'shop@okbank', amount: 1, idempotency_key: randomUUID() }),
    simPath: PARTNER_PATHS.upiPay,
    simBody: () => ({ client_ref: ref(), vpa: 'shop@okbank', amount_paise: 100 }),
  },
  {
    name: 'recharge',
    path: '/api/v1/mobile-recharge/recharge-commission',
    body: () => ({ reference_id: ref(), consent: true, mobile: '9876543210', operator: 'AT', amount: 10, idempotency_key: randomUUID() }),
    simPath: PARTNER_PATHS.mobileRecharge,
    simBody: () => ({ client_ref: ref(), mobile: '9876543210', operator: 'AT', amount_paise: 1000 }),
  },
  {
    // A number ending 0002 stays pending (the simulator's sandbox rule; startSim's pending time outlasts
    // the run): the answer most real payouts and recharges start with.
    name: 'recharge, pending',
    path: '/api/v1/mobile-recharge/recharge-commission',
    body: () => ({ reference_id: ref(), consent: true, mobile: '9876540002', operator: 'AT', amount: 10, idempotency_key: randomUUID() }),
    simPath: PARTNER_PATHS.mobileRecharge,
    simBody: () => ({ client_ref: ref(), mobile: '9876540002', operator: 'AT', amount_paise: 1000 }),
  },
  {
    name: 'signature-match',
    path: '/api/v1/document-ocr/signature-match',
    body: () => ({ reference_id: ref(), consent: true, input: IMAGE, name: 'Priya Sharma' }),
    simPath: PARTNER_PATHS.signatureMatch,
    simBody: () => ({ client_ref: ref(), input: IMAGE, name: 'Priya Sharma' }),
  },
];

export interface LiveRow extends Result {
  /** Sequential (unqueued) latency, ms. */
  probeP50: number;
  probeP99: number;
  /** Sangam's own time per sequential call (the client's time less the time upstream during it), ms. */
  own?: { p50: number; p99: number };
  /** The median of each Server-Timing phase over the sequential calls, ms. */
  phases?: Record<string, number>;
  /** The live floor's own time per sequential call of the same partner request (floor-server.ts), ms. */
  floor?: { p50: number; p99: number };
}

/**
 * Sequential calls through Sangam whose partner is behind the timing proxy: per call, the client's
 * time less the time spent upstream during it (Sangam's own), and the phases its Server-Timing gives.
 */
async function ownTime(url: string, body: () => string, headers: Record<string, string>, n: number, proxy: TimingProxy) {
  const own: number[] = [];
  const phases = new Map<string, number[]>();
  const add = (phase: string, ms: number) => (phases.get(phase) ?? phases.set(phase, []).get(phase)!).push(ms);
  const { failures } = await probe(url, body, headers, n, (t0, ms, res) => {
    const upstream = proxy.upstreamSince(t0);
    own.push(ms - upstream);
    add('upstream', upstream);
    for (const m of String(res['server-timing'] ?? '').matchAll(/(\w+);dur=([\d.]+)/g)) add(m[1]!, Number(m[2]));
  });
  const { p50, p99 } = latencyOf(own);
  return { own: { p50, p99 }, phases: Object.fromEntries([...phases].map(([k, v]) => [k, latencyOf(v).p50])), failures };
}

const json = (f: () => Record<string, unknown>) => () => JSON.stringify(f());

/** The simulator called directly: the partner's own share. */
export async function simulatorBench(sim: Proc): Promise<LiveRow[]> {
  const rows: LiveRow[] = [];
  for (const op of LIVE_OPS) {
    const r = await warmLoad({ name: `simulator direct: ${op.name}`, url: `${sim.url}${op.simPath}`, body: json(op.simBody) });
    const p = await probe(`${sim.url}${op.simPath}`, json(op.simBody), {}, PROBE_CALLS);
    rows.push({ ...r, errors: r.errors + p.failures, probeP50: p.p50, probeP99: p.p99 });
  }
  return rows;
}

/**
 * Each live operation through a Sangam server on `loc`, its partner the simulator: throughput under
 * load and the sequential latency; then, through a second server whose partner sits behind a timing
 * proxy (so the proxy's own work never weighs on the load figures), Sangam's own time per sequential
 * call and its Server-Timing phases; then the live floor's own time (floor-server.ts) for the same
 * partner requests, on the same store, through the same proxy.
 */
export async function liveBench(label: string, loc: StoreLocation, sim: Proc & { secret: string }): Promise<LiveRow[]> {
  const { key } = await seedAccount(loc, 'live');
  const headers = { authorization: `Bearer ${key}` };
  const rows: LiveRow[] = [];
  const server = await startServer(loc, { SANGAM_PARTNER_URL: sim.url, SANGAM_PARTNER_SECRET: sim.secret });
  try {
    for (const op of LIVE_OPS) {
      // measuredLoad: what the server spent per call (statements, CPU) is printed beside its progress line.
      const r = await measuredLoad(server, { name: `live ${op.name}, ${label}`, url: `${server.url}${op.path}`, body: json(op.body), headers });
      const p = await probe(`${server.url}${op.path}`, json(op.body), headers, PROBE_CALLS);
      rows.push({ ...r, errors: r.errors + p.failures, probeP50: p.p50, probeP99: p.p99 });
    }
  } finally {
    await server.stop();
  }
  const proxy = await startTimingProxy(sim.url);
  const timed = await startServer(loc, { SANGAM_PARTNER_URL: proxy.url, SANGAM_PARTNER_SECRET: sim.secret });
  try {
    for (const [i, op] of LIVE_OPS.entries()) {
      const o = await ownTime(`${timed.url}${op.path}`, json(op.body), headers, PROBE_CALLS, proxy);
      rows[i] = { ...rows[i]!, errors: rows[i]!.errors + o.failures, own: o.own, phases: o.phases };
    }
  } finally {
    await timed.stop();
  }
  // The floor on the same store (its own table), through the same proxy, measured the same way.
  const floor = await startServer(loc, { SANGAM_PARTNER_URL: proxy.url }, 'dist/bench/floor-server.js');
  try {
    for (const [i, op] of LIVE_OPS.entries()) {
      const o = await ownTime(`${floor.url}/floor${op.simPath}`, json(op.simBody), {}, PROBE_CALLS, proxy);
      rows[i] = { ...rows[i]!, errors: rows[i]!.errors + o.failures, floor: o.own };
    }
  } finally {
    await floor.stop();
    await proxy.close();
  }
  return rows;
}
