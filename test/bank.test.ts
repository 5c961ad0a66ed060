// The outside bank test, rerun by the project (test/bank/run.ts says what it does): live traffic on
// the real-partner emulators through kill -9s, partner faults and reversals, then every operation
// compared at the partner, in Sangam and in the client's answer. What must hold: no disagreement
// between the partners' books and Sangam (status, and a reversal as `data.reversed_at`), no payout made
// at both UPI partners, no client answer contradicted, the wallet equal to the top-up less what the
// partners paid plus what they gave back, `ledger check` and `audit verify` clean.
//
// The one exception (PARTNERS.md §9.4): a Setu prepaid reversal is signalled only by webhook — the
// status API keeps saying Successful — so one whose every delivery was missed is invisible to Sangam.
// The same holds for a Setu BBPS DTH refund (Credit_Adjustment is documented in the BILL_PAY webhook only).
// The test reverses prepaid recharges and DTH payments only while Sangam is up; one whose webhooks all missed Sangam
// all the same (a kill or a dropped-webhook fault at that moment) is counted apart as "unobservable by
// the API", never as a disagreement, and left out of the wallet's refunds. A delivery Sangam answered,
// even with a refusal, does not make it unobservable. Unobservable by the API is not unseen: before the
// test ends, Setu's float (its wallet balance against Sangam's books, src/float/) must show exactly
// their sum as drift, and each must be posted or a candidate of the drift's item in Needs attention.
//
// Bounded for a shared 2-core machine: 120 operations, 3 kills. Its wall time is mostly the four
// server boots and, when a kill lands while the reconciler holds an enquiry, that enquiry's lease
// (SANGAM_RECONCILE_LEASE_S, 5 s here) running out. bench/bank.ts is the long run: BENCH_ONLY=bank npm run bench.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { reportLines, runBank } from './bank/run.js';

describe('bank test: live traffic on the partner emulators through kill -9, faults and reversals', () => {
  it('the partners, Sangam, the clients and the wallet agree to the paisa; ledger check and audit verify pass', async (t) => {
    const report = await runBank({
      ops: { upi: 48, recharge: 36, dth: 36 },
      clients: 8,
      kills: [0.25, 0.5, 0.75],
      reconcileSchedule: '1,1,2',
      watchSchedule: '1,2,4',
      log: (line) => t.diagnostic(line),
    });
    for (const line of reportLines(report)) t.diagnostic(line);

    const { tally: x } = report;
    assert.equal(report.clients.unanswered, 0, 'every client got a definite answer');
    assert.equal(report.kills, 3);
    assert.ok(report.reversals.whileDown > 0 && report.reversals.whileUp > 0 && report.reversals.byLifecycle > 0);
    assert.deepEqual(x.madeAtBoth, [], 'no payout made at both UPI partners');
    assert.deepEqual(x.contradictions, [], 'no client answer contradicts the final state');
    assert.deepEqual(report.transactionsPerReference, [], 'one transaction per operation');
    assert.ok(report.twins.pairs > 0 && report.twins.taken > 0, JSON.stringify(report.twins));
    assert.deepEqual(report.twins.broken, [], 'one reference sent twice at once under two keys executes once');
    assert.ok(report.ledger.ok, report.ledger.breaches.join('\n'));
    assert.ok(report.audit.ok, 'audit verify');
    assert.equal(report.wallet.held, 0);
    assert.equal(report.wallet.balance, report.wallet.bySangam, "the wallet is Sangam's own transactions to the paisa");
    for (const u of x.unobservable) assert.match(u.deliveries, /^(never sent|(error|dropped|no_url)(, (error|dropped|no_url))*)$/, `${u.reference} reported as missed`);
    assert.deepEqual(x.disagreements, [], 'partner-versus-Sangam disagreements');
    assert.equal(report.float.drift, report.float.unobservable, "Setu's float drift is exactly the reversals Sangam could not learn of");
    for (const s of report.float.shown) assert.notEqual(s.shown, 'missing', `${s.reference} (${s.txnId}): neither posted nor a candidate in Needs attention`);
    assert.equal(report.wallet.balance, report.wallet.byPartners, 'the wallet is top-ups − debits + refunds as the partners booked them, to the paisa');
    // Every report a partner made was true (Sangam confirms webhooks at the status API), so none may
    // have been taken for a contradiction of a final state.
    assert.deepEqual(report.flagged, [], 'nothing flagged for review');
  });
});
