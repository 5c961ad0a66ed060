// Live benchmarks: UPI, recharge and signature-match through Sangam and the partner simulator at 0 ms,
// and the same calls made to the simulator directly. Throughput comes from autocannon under
// concurrency; our overhead is the difference of the sequential (unqueued) p50 latencies, Sangam
// minus the simulator, measured in the same run.
import { randomUUID } from 'node:crypto';
import type { StoreLocation } from '../test/harness.js';
import { PARTNER_PATHS } from '../shared/protocol.js';
import { measuredLoad, probe, seedAccount, startServer, warmLoad, type Proc, type Result } from './lib.js';

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

/** Each live operation through a Sangam server on `loc`, its partner the simulator. */
export async function liveBench(label: string, loc: StoreLocation, sim: Proc & { secret: string }): Promise<LiveRow[]> {
  const { key } = await seedAccount(loc, 'live');
  const server = await startServer(loc, { SANGAM_PARTNER_URL: sim.url, SANGAM_PARTNER_SECRET: sim.secret });
  const headers = { authorization: `Bearer ${key}` };
  const rows: LiveRow[] = [];
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
  return rows;
}
