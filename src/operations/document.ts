// Owns how an operation appears in the OpenAPI document: its request (a field or its alias is required,
// declared as an anyOf of the two required sets; the Idempotency-Key header may stand in for the
// idempotency_key field, which a body schema cannot say, so the field says it in words), the header,
// and the error statuses its route declares.
// What the server enforces stays in the operation's one schema (route.ts validates with it).
import { Type, type TObject, type TSchema } from '@sinclair/typebox';
import type { OperationDef } from './operation.js';
import { CONSENT_ID_PATTERN } from '../consents/gate.js';

/** Every operation's optional consent_id, checked by the route for all of them alike (consents/gate.ts). */
const ConsentId = Type.Optional(
  Type.String({
    pattern: CONSENT_ID_PATTERN,
    description:
      'A consent record (POST /api/v1/consents) the call is made under: the caller\'s own, in this environment, active, unexpired and covering this operation, or the call is refused (422). Each use is recorded on the consent.',
  }),
);

/** What a request may leave out because something else stands in for it: an alias, or the Idempotency-Key header. */
const OPTIONAL_IN_DOC = (def: OperationDef): Record<string, string> => ({
  ...Object.fromEntries(Object.entries(def.aliases ?? {}).map(([alias, canonical]) => [canonical, `Required unless its alias \`${alias}\` is given.`])),
  ...(def.idempotency?.by === 'idempotency_key' && def.idempotency.required
    ? { idempotency_key: 'Required: here or as the Idempotency-Key header (the same value when both are sent).' }
    : {}),
});

/**
 * The request as the OpenAPI document shows it: the operation's one schema, except that a field another
 * can stand in for is not listed as required (parseInput resolves aliases and the header before it
 * validates with the schema itself, which keeps them required); a field with an alias is required as
 * an `anyOf` of the two required sets (in an `allOf`, one per alias), which is what the server enforces.
 */
export function requestDoc(def: OperationDef): TObject {
  const relaxed = OPTIONAL_IN_DOC(def);
  const example = def.example as Record<string, unknown>;
  const properties = Object.fromEntries(
    Object.entries(def.schema.properties).map(([k, v]) => [
      k,
      withExample(relaxed[k] ? { ...v, description: `${String(v.description ?? '')}. ${relaxed[k]}`.replace(/^\. /, '') } : v, example[k]),
    ]),
  );
  // Each branch also names its property's schema: generators (openapi-typescript) then type the request
  // as the common fields and (field | alias), where a branch of `required` alone would type as unknown.
  const given = (k: string) => ({ type: 'object', required: [k], properties: { [k]: properties[k] } });
  const alternatives = Object.entries(def.aliases ?? {}).map(([alias, canonical]) => ({ anyOf: [given(canonical), given(alias)] }));
  return {
    ...def.schema,
    properties: { ...properties, consent_id: ConsentId },
    required: (def.schema.required ?? []).filter((k) => !relaxed[k]),
    ...(alternatives.length ? { allOf: alternatives } : {}),
    examples: [def.example],
  } as TObject;
}

/**
 * A field's value in the request's example, as the field's own example too: a GET operation's fields are
 * published as query parameters, one by one, where only a field's own example shows.
 */
const withExample = (field: TSchema, value: unknown): TSchema => (value === undefined || field.examples ? field : { ...field, examples: [value] });

/** The Idempotency-Key header, on operations keyed by idempotency_key: it takes the field's rules. */
export const headersDoc = (def: OperationDef) =>
  def.idempotency?.by === 'idempotency_key'
    ? Type.Object({
        'Idempotency-Key': Type.Optional({
          ...(def.schema.properties.idempotency_key as TSchema),
          description: 'The idempotency key, instead of the idempotency_key field (the same value when both are sent)',
        } as TSchema),
      })
    : undefined;

/** Live calls are charged (402), go to partners (502/504) and need approval (403); keys may be in flight (409). */
export const OPERATION_ERRORS = [402, 404, 409, 413, 415, 502, 504];

