// Request schema of POST /api/v1/document-ocr/signature-match.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, PresentIn } from '../../http/responses.js';
import { Consent, ReferenceId } from '../../contract/fields.js';
import { NameMatchObject } from '../name-match/schema.js';

export const SignatureMatchRequest = Type.Object({
  reference_id: ReferenceId,
  consent: Consent,
  input: Type.String({
    minLength: 1,
    maxLength: 5_000_000,
    description: 'The document OCR input: a base64 image of the signed document, or its URL',
    errorMessage: 'input must be a non-empty string (a base64 image or its URL)',
  }),
  reference_signature: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 5_000_000,
      description:
        'A specimen signature to compare `input` with (a base64 image or its URL). Partners that compare two signatures need it; name_match_score is then the similarity of the two signatures',
      errorMessage: 'reference_signature must be a non-empty string (a base64 image or its URL)',
    }),
  ),
  name: Type.Optional(
    Type.String({ minLength: 1, maxLength: 200, description: 'Name to compare the signature against', errorMessage: 'name must be 1 to 200 characters' }),
  ),
});
export type SignatureMatchRequest = Static<typeof SignatureMatchRequest>;

/** Its own result fields (the standard ones come from http/responses.ts). */
export const SignatureMatchResult = {
  name_match_score: PresentIn(['success'], Type.Number({ minimum: 0, maximum: 100, description: 'Similarity 0 to 100: with `name`, of the name read from the signature; with a comparing partner, of the two signatures' })),
  extracted_name: PresentIn(['success'], Nullable(Type.String(), { description: 'The name read from the signature; null when the partner reads none (one that compares two signatures)' })),
  matched: Type.Optional(Nullable(Type.Boolean(), { description: "The partner's verdict when it compares two signatures" })),
  threshold: Type.Optional(Nullable(Type.Number(), { description: 'The score at which the partner calls two signatures a match' })),
  name_match: NameMatchObject('Present when name was given and the partner read a name from the signature: it compared with extracted_name under the account thresholds; name_match_score keeps its meaning'),
  compared_with: Type.Optional(Type.Literal('reference_signature', { description: 'Present when input was compared with reference_signature' })),
};
