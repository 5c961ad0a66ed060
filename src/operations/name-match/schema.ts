// Request schema of POST /api/v1/name-match (CONTRACT §11), and the name-match fields of an answer,
// which mobile-to-bank-account and signature-match also show as `data.name_match`.
import { Type, type Static } from '@sinclair/typebox';
import { Consent, ReferenceId } from '../../contract/fields.js';
import { CATEGORIES, MAX_NAME_LENGTH, MAX_NORMALISED_LENGTH, REASON_CODES } from '../../namematch/index.js';

/** What a name field must be, as a 422 says it (the description, in the published document, is shorter). */
export const NAME_RULE = `1 to ${MAX_NAME_LENGTH} characters (at most ${MAX_NORMALISED_LENGTH} once Unicode NFKC expands them) with a letter, in Latin or an Indian script`;

const Name = (which: string) =>
  Type.String({
    minLength: 1,
    maxLength: MAX_NAME_LENGTH,
    personName: true,
    description: `The ${which} name: 1 to ${MAX_NAME_LENGTH} characters with at least one letter, in Latin or any Indian script`,
    errorMessage: `name_${which === 'first' ? 1 : 2} must be ${NAME_RULE}`,
    examples: [which === 'first' ? 'Shri Ramesh Kumar S/O Late Mohan Lal' : 'RAMESH K'],
  });

export const NameMatchRequest = Type.Object({
  reference_id: ReferenceId,
  consent: Consent,
  name_1: Name('first'),
  name_2: Name('second'),
});
export type NameMatchRequest = Static<typeof NameMatchRequest>;

const Score = (description: string) => Type.Number({ minimum: 0, maximum: 100, description });

/** The comparison itself: the same object wherever names are compared. */
export const NameMatchFields = {
  score: Score('0 to 100: the weighted share of the two names that corresponds'),
  optimistic_score: Score('0 to 100: the score if every ambiguity resolves in favour of a match'),
  pessimistic_score: Score('0 to 100: the score if every ambiguity resolves against a match'),
  category: Type.Union(
    CATEGORIES.map((c) => Type.Literal(c)),
    { description: "Cashfree's five bands, from the scores alone" },
  ),
  decision: Type.Union([Type.Literal('approve'), Type.Literal('review'), Type.Literal('reject')], {
    description: "From the account's thresholds: approve at or above approve_at, review at or above review_at, reject below",
  }),
  match: Type.Boolean({ description: 'decision == "approve"' }),
  reasons: Type.Array(
    Type.Object({
      code: Type.Union(
        Object.keys(REASON_CODES).map((c) => Type.Literal(c)),
        { description: 'What the comparison did or found (docs/NAME-MATCH.md lists every code)' },
      ),
      detail: Type.String({ description: 'The words concerned' }),
    }),
  ),
  algorithm_version: Type.String({ description: 'The engine that answered; a new version may score differently' }),
};

/** `data.name_match` of the operations that compare a caller's name with a partner's (CONTRACT §11). */
export const NameMatchObject = (description: string) => Type.Optional(Type.Object(NameMatchFields, { description }));

/** A caller's name to compare with the one a partner returns. */
export const NameToCompare = (description: string) =>
  Type.String({ minLength: 1, maxLength: MAX_NAME_LENGTH, personName: true, description, errorMessage: `must be ${NAME_RULE}` });

/** Its own result fields (the standard ones come from http/responses.ts): present on success. */
export const NameMatchResult = Object.fromEntries(Object.entries(NameMatchFields).map(([k, v]) => [k, Type.Optional(v)]));
