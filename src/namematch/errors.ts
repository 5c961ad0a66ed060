// Owns the engine's one error: an input it cannot compare, naming the field, so that the HTTP layer
// can answer 422 with `errors: [{ field, message }]` (CONTRACT §1) without knowing the engine.

export type NameMatchField = 'name_1' | 'name_2' | 'approve_at' | 'review_at';
export type NameMatchErrorCode = 'required' | 'too_long' | 'no_letters' | 'unsupported_script' | 'invalid';

export class NameMatchInputError extends Error {
  override readonly name = 'NameMatchInputError';
  constructor(
    readonly field: NameMatchField,
    readonly code: NameMatchErrorCode,
    message: string,
  ) {
    super(message);
  }
}
