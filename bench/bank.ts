// The bank test's long run (test/bank/run.ts): many more operations, clients and kill -9s than
// test/bank.test.ts, on each store, printed as the test prints them. Only when asked for:
// BENCH_ONLY=bank npm run bench. Knobs: BENCH_BANK_OPS (operations in all, default 600: 40 % UPI,
// 30 % prepaid, 30 % DTH), BENCH_BANK_CLIENTS (16), BENCH_BANK_KILLS (5, spread evenly over the run).
import { reportLines, runBank, type BankReport } from '../test/bank/run.js';

export async function bankBench(stores: string[]): Promise<Array<{ store: string; report: BankReport }>> {
  const total = Number(process.env.BENCH_BANK_OPS ?? 600);
  const kills = Number(process.env.BENCH_BANK_KILLS ?? 5);
  const out: Array<{ store: string; report: BankReport }> = [];
  const url = process.env.DATABASE_URL;
  for (const store of stores) {
    // The harness picks the store from DATABASE_URL: unset for the embedded one.
    if (store === 'embedded') delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = url;
    const report = await runBank({
      ops: { upi: Math.round(total * 0.4), recharge: Math.round(total * 0.3), dth: total - Math.round(total * 0.4) - Math.round(total * 0.3) },
      clients: Number(process.env.BENCH_BANK_CLIENTS ?? 16),
      kills: Array.from({ length: kills }, (_, i) => (i + 1) / (kills + 1)),
      reconcileSchedule: '1,1,2',
      watchSchedule: '1,2,4',
      log: (line) => console.error(`[bank ${store}] ${line}`),
    });
    out.push({ store, report });
  }
  if (url) process.env.DATABASE_URL = url;
  return out;
}

export function printBank(rows: Array<{ store: string; report: BankReport }>): void {
  for (const { store, report } of rows) {
    console.log(`\nBank test, long run, ${store} store\n`);
    for (const line of reportLines(report)) console.log(line);
  }
}
