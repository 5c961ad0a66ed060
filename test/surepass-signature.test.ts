// The surepass-signature connector end to end: Sangam's HTTP surface with a live key, the Surepass
// Signature Comparator emulator in-process, the wallet and the ledger (checked after every test). Covers
// a match, a non-match (a completed check), no signature (a business failure), the mapping choices (a
// reference signature is required; no name is ever scored), the documented refusals (401, 422, 429: a
// 502 with nothing charged) and the answers Surepass does not document (5xx, a read timeout: pending with
// the fee held, never sent again, until a person settles it).
import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startSurepassSignatureEmulator, type SurepassSignatureEmulator } from '../partner-sim/surepass-signature/index.js';
import { samples } from '../partner-sim/surepass-signature/samples.js';
import { createSurepassSignature } from '../src/providers/surepass-signature/index.js';
import { formOf, outcomeOf } from '../src/providers/surepass-signature/transformers.js';
import { answerOf } from '../src/providers/answer.js';
import type { PartnerContext } from '../src/providers/connector.js';
import { eventually, PATHS, VALID, type TestApp } from './harness.js';
import { partnerSuiteEnv, partnerSuiteLife, startPartnerApp } from './live-harness.js';
import { conformance } from './connector-conformance.js';
import { personDecides } from './person-decides.js';

const FEE_PAISE = 300; // the default price of signature-match
const S = samples() as Record<'signature' | 'signature_rescan' | 'signature_nomatch' | 'signature_lowmatch' | 'no_signature', string>;

function startSpApp(emu: SurepassSignatureEmulator, env: Record<string, string> = {}): Promise<TestApp> {
  return startPartnerApp(
    {
      ...partnerSuiteEnv('surepass', 'surepass-signature', emu.url, { TOKEN: emu.settings.token, SIGNATURE_PATH: emu.settings.path }, 'signature-match'),
      SANGAM_PARTNER_TIMEOUT_MS: '1500', // a first comparison on a loaded machine can take over 600 ms
      SANGAM_RECONCILE_SCHEDULE: '0.5', // a pending comparison is enquired about (and stays pending) quickly
      ...env,
    },
    { topUpInr: 1_000 },
  );
}

describe('surepass-signature connector, end to end', () => {
  let emu: SurepassSignatureEmulator;
  let t: TestApp;

  partnerSuiteLife(async () => {
    emu = await startSurepassSignatureEmulator({ latencyMs: 0 });
    t = await startSpApp(emu);
    return { emu, t };
  });
  afterEach(async () => {
    // every test ends what it left pending (a person settles it: there is nothing to reconcile it with)
    const pending = await t.store.db.selectFrom('transactions').select('id').where('status', '=', 'pending').execute();
    assert.deepEqual(pending, []);
  });

  const match = (body: Record<string, unknown>) => t.call('POST', PATHS.signature, { key: t.liveKey, body });
  const balance = async () => {
    const r = await t.call('GET', '/api/v1/account/wallet', { key: t.liveKey });
    return { balance: Math.round(r.body.data.balance * 100), held: Math.round(r.body.data.held * 100) };
  };
  const comparisons = () => emu.comparisons().length;
  const signed = (extra: Record<string, unknown> = {}) => ({ ...VALID.signature(), name: undefined, input: S.signature, reference_signature: S.signature_rescan, ...extra });

  let comparedBefore = 0;
  conformance({
    kind: 'surepass-signature',
    app: () => t,
    path: PATHS.signature,
    body: (steer) => {
      comparedBefore = comparisons();
      return signed(steer === 'refusal' ? { input: S.no_signature } : {});
    },
    debit: () => FEE_PAISE,
    refusalCharge: () => FEE_PAISE, // a completed check
    refusalMessage: /No signature was detected/,
    setFaults: (f) => emu.setFaults(f),
    faults: {
      'error-before-work': { error_next: 1, error_status: 500 },
      'error-after-work': { error_after_accept_next: 1, error_status: 503 },
    },
    // Surepass documents no status call: whatever the 5xx, only a person can say whether it compared (and billed).
    lost: 'pending-until-decided',
    madeAt: () => comparisons() - comparedBefore,
    decide: (txnId, action) => personDecides(t, txnId, action),
    decidesMade: 'failed', // a success carries the score, which a person cannot supply
    wrongCredentials: { start: (env) => startSpApp(emu, { ...env, SANGAM_PARTNER_SUREPASS_TOKEN: 'not-the-token' }), message: /Surepass refused our token \(HTTP 401\)/, secret: 'not-the-token' },
    total: () => emu.comparisons().length,
    notApplicable: {
      pendingReconciled: 'Surepass documents no status call: a 5xx after the comparison is the unknownAnswer scenario, settled by a person',
      forgedWebhook: 'Surepass documents no webhook',
      duplicateEvent: 'Surepass documents no webhook',
    },
    afterSuccess: async (_txnId, done, body) => {
      const d = done.body.data;
      assert.equal(d.reference_id, body.reference_id);
      assert.ok(d.verified_at);
      const last = emu.comparisons().at(-1)!;
      assert.equal(comparisons(), comparedBefore + 1);
      assert.equal(last.input, 'base64');
      assert.equal(last.use_pdf, false);
      assert.equal(d.name_match_score, last.score); // exactly the vendor's, never rescaled or invented
      assert.ok(d.name_match_score >= 90 && d.name_match_score <= 100);
      assert.equal(d.matched, true);
      assert.equal(d.threshold, 90);
      assert.equal(d.compared_with, 'reference_signature');
      assert.equal(d.extracted_name, null, 'Surepass reads no name: null, never an invented one (the field is always there on a success)');
      assert.match(d.message, /signatures match/);
    },
  });

  it('the same image twice scores 100; a data: URL prefix is accepted', async () => {
    const r = await match(signed({ input: `data:image/png;base64,${S.signature}`, reference_signature: S.signature }));
    assert.equal(r.body.data.name_match_score, 100);
  });

  it('a name is never scored: the message says so, the score stays the signatures’', async () => {
    const r = await match(signed({ name: 'Priya Sharma' }));
    assert.equal(r.status, 200, r.text);
    assert.match(r.body.data.message, /name was not compared/);
    assert.equal(r.body.data.name_match_score, emu.comparisons().at(-1)!.score);
  });

  for (const [sample, range] of [
    ['signature_nomatch', [5, 35]],
    ['signature_lowmatch', [60, 90]],
  ] as const) {
    it(`a non-match (${sample}): a completed check, success with matched false and the low score; charged`, async () => {
      const before = await balance();
      const r = await match(signed({ reference_signature: S[sample] }));
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.statuscode, 'TXN');
      assert.equal(r.body.data.matched, false);
      assert.ok(r.body.data.name_match_score >= range[0] && r.body.data.name_match_score < range[1], String(r.body.data.name_match_score));
      assert.match(r.body.data.message, /do not match/);
      assert.deepEqual(await balance(), { balance: before.balance - FEE_PAISE, held: 0 });
    });
  }

  it('no signature in the image: ERR with Errorcode 120, no score', async () => {
    const r = await match(signed({ input: S.no_signature }));
    assert.equal(r.body.statuscode, 'ERR');
    assert.equal(r.body.data.Errorcode, 120);
    assert.equal(r.body.data.name_match_score, undefined);
  });

  it('two URLs go as the link pair', async () => {
    const r = await match(signed({ input: 'https://example.com/cheque.png', reference_signature: 'https://example.com/specimen.png' }));
    assert.equal(r.status, 200, r.text);
    assert.equal(emu.comparisons().at(-1)!.input, 'link');
    assert.equal(r.body.data.name_match_score, emu.comparisons().at(-1)!.score);
  });

  for (const [what, extra, message] of [
    ['no reference_signature', { reference_signature: undefined, name: 'Priya Sharma' }, /needs reference_signature/],
    ['a URL with a base64 image', { input: 'https://example.com/cheque.png' }, /both as URLs or both as base64 images/],
    ['an input that is neither', { input: 'not an image at all!' }, /input must be an http\(s\) URL or a base64 image/],
  ] as const) {
    it(`${what}: refused before sending (502), nothing charged, nothing compared`, async () => {
      const before = await balance();
      const n = comparisons();
      const r = await match(signed(extra));
      assert.equal(r.status, 502, r.text);
      assert.equal(r.body.data.Errorcode, 113);
      assert.match(r.body.data.Message, message);
      assert.match(r.body.data.Message, /nothing was executed or debited/);
      assert.equal(comparisons(), n);
      assert.deepEqual(await balance(), before);
    });
  }

  it('the reference_signature field is validated like input', async () => {
    const r = await match(signed({ reference_signature: '' }));
    assert.equal(r.status, 422);
    assert.deepEqual(r.body.data.errors, [{ field: 'reference_signature', message: 'reference_signature must be a non-empty string (a base64 image or its URL)' }]);
  });

  for (const [name, setup, message] of [
    ['422 invalid_image', null, /Surepass refused the comparison \(HTTP 422: invalid_image/],
    ['429', { throttle_next: 1 }, /Surepass is throttling requests \(HTTP 429\)/],
  ] as const) {
    it(`${name}: a documented refusal, 502, nothing charged; the reference is freed and a retry compares again`, async () => {
      if (setup) emu.setFaults(setup);
      const before = await balance();
      const body = signed(setup ? {} : { input: Buffer.from('plain text, not an image').toString('base64') });
      const r = await match(body);
      assert.equal(r.status, 502, r.text);
      assert.equal(r.body.statuscode, 'ERR');
      assert.equal(r.body.data.Errorcode, 113);
      assert.match(r.body.data.Message, message);
      assert.match(r.body.data.Message, /nothing was debited/);
      assert.doesNotMatch(r.text, new RegExp(emu.settings.token.slice(-20)));
      assert.deepEqual(await balance(), before);
      if (!setup) return;
      const retry = await match(body);
      assert.equal(retry.status, 200, retry.text);
      assert.equal(retry.body.data.status, 'success');
      assert.deepEqual(await balance(), { balance: before.balance - FEE_PAISE, held: 0 });
    });
  }

  for (const [name, setup, compared, message] of [
    ['500 before comparing', { error_next: 1, error_status: 500 }, 0, /Surepass failed \(HTTP 500/],
    ['503 after comparing', { error_after_accept_next: 1, error_status: 503 }, 1, /Surepass failed \(HTTP 503/],
    ['read timeout', { timeout_next: 1, timeout_ms: 3000 }, 1, /Surepass did not answer in time/],
  ] as const) {
    it(`${name}: an answer Surepass does not document — pending with the fee held, the retry sends nothing, a person settles it failed (never success)`, async () => {
      const before = await balance();
      const n = comparisons();
      emu.setFaults(setup);
      const body = signed();
      const r = await match(body);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.statuscode, 'TUP');
      assert.match(r.body.data.message, message);
      assert.doesNotMatch(r.text, new RegExp(emu.settings.token.slice(-20)));
      assert.deepEqual(await balance(), { balance: before.balance - FEE_PAISE, held: FEE_PAISE });
      await eventually(async () => comparisons() === n + compared); // a hung call compares once it wakes
      const again = await match(body);
      assert.equal(again.headers['idempotent-replayed'], 'true');
      assert.equal(comparisons(), n + compared, 'the retry sent nothing');
      const row = await t.store.db.selectFrom('transactions').select(['id', 'status']).where('reference_id', '=', body.reference_id as string).executeTakeFirstOrThrow();
      assert.equal(row.status, 'pending');
      await assert.rejects(personDecides(t, row.id, 'success'), /carries what the partner read/);
      await personDecides(t, row.id, 'failed');
      assert.deepEqual(await balance(), { balance: before.balance - FEE_PAISE, held: 0 });
    });
  }
});

describe('surepass-signature transformers and variables', () => {
  it('builds one pair of one kind; PDFs set use_pdf', () => {
    const pdf = Buffer.from('%PDF-1.4 cheque').toString('base64');
    assert.deepEqual(formOf(pdf, S.signature), { base64_1: pdf, base64_2: S.signature, use_pdf: 'true' });
    assert.deepEqual(formOf('https://x.test/a.PDF', 'https://x.test/b.pdf'), { link_1: 'https://x.test/a.PDF', link_2: 'https://x.test/b.pdf', use_pdf: 'true' });
    assert.equal(typeof formOf(S.signature, undefined), 'string');
  });

  it('an answer without a usable score is no outcome (never a made-up score)', () => {
    assert.equal(outcomeOf({ data: { score: 'high' }, success: true }, undefined), null);
    assert.equal(outcomeOf({ data: { score: 120 }, success: true }, undefined), null);
    assert.equal(outcomeOf({ data: null, success: false }, undefined), null);
    const o = outcomeOf({ data: { score: 91.5, threshold: 90 }, success: true }, undefined);
    // As the router hands it to the core.
    assert.deepEqual(o && answerOf(o).fields, { name_match_score: 91.5, extracted_name: null, matched: true, threshold: 90, compared_with: 'reference_signature' });
  });

  it('the factory names a missing or malformed variable in full', () => {
    const ctx = (vars: Record<string, string>) => ({ name: 'sp', url: 'http://127.0.0.1:1', vars, timeoutFor: () => 1000 }) as unknown as PartnerContext;
    assert.throws(() => createSurepassSignature(ctx({ SIGNATURE_PATH: '/x' })), /SANGAM_PARTNER_SP_TOKEN is required/);
    assert.throws(() => createSurepassSignature(ctx({ TOKEN: 'abc' })), /SANGAM_PARTNER_SP_SIGNATURE_PATH is required/);
    assert.throws(() => createSurepassSignature(ctx({ TOKEN: 'abc', SIGNATURE_PATH: 'api/v1' })), /SANGAM_PARTNER_SP_SIGNATURE_PATH must be a URL path/);
    assert.throws(() => createSurepassSignature(ctx({ TOKEN: 'Bearer abc', SIGNATURE_PATH: '/x' })), /no spaces/);
  });
});
