// Property-based checks (fast-check) of the pure rules money and identity data depend on.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { verhoeffValid } from '../src/contract/verhoeff.js';
import { inrToPaise, paiseToInr } from '../src/money.js';
import { redact } from '../src/audit/redact.js';
import { commissionPaise, MOBILE_OPERATORS } from '../src/catalog/operators.js';
import { randomBase62, randomDigits } from '../src/ids.js';

/** `digits` with its check digit: the one of ten that makes the number valid (none: the test fails). */
const withVerhoeff = (digits: string) => digits + [...'0123456789'].find((d) => verhoeffValid(digits + d));

describe('properties', () => {
  it('ids: exactly the requested length from the alphabet, every character about equally likely, across pool refills', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 64 }), (n) => /^[0-9A-Za-z]+$/.test(randomBase62(n)) && randomBase62(n).length === n && /^[0-9]+$/.test(randomDigits(n))));
    const counts = new Map<string, number>();
    const text = Array.from({ length: 2000 }, () => randomBase62(31)).join(''); // 62 000 characters: many 4 KiB refills
    for (const c of text) counts.set(c, (counts.get(c) ?? 0) + 1);
    assert.equal(counts.size, 62);
    for (const n of counts.values()) assert.ok(n > 700 && n < 1300, `a character appeared ${n} times, expected about 1000`);
  });

  it('Verhoeff: every number with its check digit is valid; any single-digit change is caught', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[2-9][0-9]{10}$/), fc.nat(11), fc.integer({ min: 1, max: 9 }), (body, pos, delta) => {
        const n = withVerhoeff(body);
        assert.ok(verhoeffValid(n));
        const changed = n.slice(0, pos) + String((Number(n[pos]) + delta) % 10) + n.slice(pos + 1);
        assert.ok(!verhoeffValid(changed));
      }),
    );
  });

  it('INR ↔ paise round-trips exactly for every 2-decimal amount', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000 }), (paise) => {
        assert.equal(inrToPaise(paiseToInr(paise)), paise);
      }),
    );
  });

  it('commission is never negative and never more than the amount', () => {
    fc.assert(
      fc.property(fc.constantFrom(...MOBILE_OPERATORS.map((o) => o.code)), fc.integer({ min: 1, max: 1_000_000 }), (op, amount) => {
        const c = commissionPaise(MOBILE_OPERATORS, op, amount);
        assert.ok(Number.isInteger(c) && c >= 0 && c <= amount);
      }),
    );
  });

  it('redaction leaves no run of 9 or more digits, wherever it hides', () => {
    const leaf = fc.oneof(fc.stringMatching(/^[0-9]{9,18}$/), fc.string(), fc.stringMatching(/^[a-z ]{0,5}[0-9]{9,16}[a-z ]{0,5}$/));
    const tree = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('node'), { maxLength: 4 }), fc.dictionary(fc.string({ maxLength: 8 }), tie('node'), { maxKeys: 4 })),
    })).node;
    fc.assert(
      fc.property(tree, (v) => {
        assert.ok(!/\d{9,}/.test(JSON.stringify(redact(v))));
      }),
    );
  });
});
