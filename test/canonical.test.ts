// Canonical JSON (src/canonical.ts) against its definition (docs/AUDIT-EXPORT.md): JSON.stringify of
// a copy of the value whose objects got their keys in sorted order (so integer-like keys come first,
// as JavaScript lists them). Audit chains, idempotency request hashes and export proofs written before
// the serializer changed must still verify, so the text must be the same byte for byte on every JSON
// value, including undefined members, lone surrogates, -0 and keys that look like numbers.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { canonicalJson } from '../src/canonical.js';
import { requestHash } from '../src/idempotency/store.js';

/** The definition, written the slow and obvious way. */
function definition(value: unknown): string {
  const canon = (v: unknown): unknown =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, canon((v as Record<string, unknown>)[k])]))
      : Array.isArray(v)
        ? v.map(canon)
        : v;
  return JSON.stringify(canon(value)) ?? 'null';
}

const key = fc.oneof(fc.string({ unit: 'binary' }), fc.constantFrom('1', '10', '2', '-1', '__proto__', 'toString', 'a', 'B', 'é', '\ud800'));
const leaf = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.double(),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.constant(-0),
);
const value = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small' }, leaf, tie('array'), tie('object')),
  array: fc.array(tie('node'), { maxLength: 6 }),
  object: fc.dictionary(key, tie('node'), { maxKeys: 8 }),
})).node;

describe('canonical JSON', () => {
  it('is the definition on every JSON-like value (property, 2,000 cases)', () => {
    fc.assert(
      fc.property(value, (v) => assert.equal(canonicalJson(v), definition(v))),
      { numRuns: 2000 },
    );
  });

  it('is the definition on values parsed from JSON text; integer-like keys come first', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const text = JSON.stringify(v);
        assert.equal(canonicalJson(JSON.parse(text)), definition(JSON.parse(text)));
      }),
      { numRuns: 1000 },
    );
    // Integer-like keys first, by value (as JavaScript lists them), then the rest by code units.
    assert.equal(canonicalJson({ b: 1, a: [{ d: 2, c: undefined, e: null }], '10': 'x', '9': 'y', '09': 'z' }), '{"9":"y","10":"x","09":"z","a":[{"d":2,"e":null}],"b":1}');
    assert.equal(canonicalJson(undefined), 'null');
  });

  it('keeps the idempotency request hash of a stored key: the same payload in any key order', () => {
    // A fixed vector: a key stored before the change carries this hash, and must still match its payload.
    const body = { reference_id: 'ref-1', consent: true, mobile: '9876543210', amount: 100.5, meta: { z: [1, 'two', null], a: 'é' } };
    const hash = requestHash(body);
    assert.equal(hash, requestHash({ meta: { a: 'é', z: [1, 'two', null] }, amount: 100.5, mobile: '9876543210', consent: true, reference_id: 'ref-1' }));
    assert.equal(hash, '7aef4361c9bcadee5458ec73585e837a45b05871fcbfaeaed9707c2b267be253'); // computed by the serializer before this one
  });

  it('refuses what JSON cannot hold, as JSON.stringify does', () => {
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    assert.throws(() => canonicalJson(loop), TypeError);
  });
});
