// Keeps the connector conformance suite (connector-conformance.ts) complete, as security.test.ts keeps the
// route list complete: every partner kind in the registry either runs the scenarios (its suite is named in
// CONFORMANCE_SUITES and calls conformance()) or is exempt with a reason; a new kind that is neither fails here.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { KINDS } from '../src/providers/registry.js';
import { CONFORMANCE_EXEMPT, CONFORMANCE_SUITES } from './connector-conformance.js';

const TEST_DIR = fileURLToPath(new URL('../../test/', import.meta.url));

describe('connector conformance: coverage', () => {
  it('every partner kind runs the conformance scenarios or says why not', () => {
    for (const kind of Object.keys(KINDS)) assert.ok(kind in CONFORMANCE_SUITES !== kind in CONFORMANCE_EXEMPT, `partner kind ${kind}: add a conformance adapter to its end-to-end test (or an exemption with its reason)`);
    for (const kind of [...Object.keys(CONFORMANCE_SUITES), ...Object.keys(CONFORMANCE_EXEMPT)]) assert.ok(kind in KINDS, `${kind} is not a partner kind`);
  });

  for (const [kind, file] of Object.entries(CONFORMANCE_SUITES)) {
    it(`${file} runs the scenarios for ${kind}`, () => {
      const text = readFileSync(`${TEST_DIR}${file}`, 'utf8');
      assert.match(text, new RegExp(`conformance\\(\\{\\s*kind: '${kind}'`));
    });
    it(`${file} runs the "unknown answer" scenario for ${kind} (issue #38: every kind, never skipped)`, () => {
      const text = readFileSync(`${TEST_DIR}${file}`, 'utf8');
      assert.match(text, /\n\s+(lookupUnknown|decide):/, 'the adapter offers lookupUnknown or decide');
      assert.doesNotMatch(text, /\n\s+unknownAnswer:/, 'unknownAnswer is never declared not applicable');
    });
  }
});
