// Name Match: compares two names (Latin or any Indian script) with Sangam's own engine (src/namematch/)
// and explains the score. No partner is asked: the answer is the same in the sandbox and live, and
// deterministic for the same names and the account's thresholds. A name the engine cannot read (no letters, a
// script it does not know) is a 422 naming the field, found before anything is recorded or charged.
import { defineOperation } from '../operation.js';
import { compareNames } from './compare.js';
import { NameMatchRequest, NameMatchResult } from './schema.js';

export const nameMatch = defineOperation({
  slug: 'name-match',
  operationId: 'nameMatch',
  method: 'POST',
  path: '/api/v1/name-match',
  tag: 'Identity and KYC',
  summary: 'Name Match',
  description:
    'Compares `name_1` with `name_2` (Latin or any Indian script) and explains the score: honorifics and relation markers ' +
    'dropped, initials, order, transliteration, spelling and name variants. `decision` follows the account\'s thresholds.',
  schema: NameMatchRequest,
  example: { reference_id: 'names-0001', consent: true, name_1: 'Shri Ramesh Kumar S/O Late Mohan Lal', name_2: 'RAMESH K' },
  result: NameMatchResult,
  idempotency: { by: 'reference_id' },
  charge: 'completion',
  feePaise: 50,
  dataClass: 'identity',
  async execute(input, ctx) {
    const result = await compareNames(ctx.deps, ctx.accountId, input.name_1, input.name_2);
    return { status: 'success', message: `Names compared: ${result.category}, ${result.decision}`, fields: { ...result } };
  },
});
