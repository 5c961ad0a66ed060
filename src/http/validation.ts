// Owns request validation: the Ajv instances Fastify compiles the TypeBox schemas with, and the
// translation of Ajv's errors into the contract's `errors: [{ field, message }]`.
// Bodies are validated strictly (a JSON `"true"` is not `true`); query strings are coerced, because
// every query value arrives as text (CONTRACT §3: `amount=100.50`, `consent=true`).
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import ajvErrors from 'ajv-errors';
import addFormats from 'ajv-formats';
import type { FieldError } from '../errors.js';
import { addKeywords } from '../operations/fields.js';

function makeAjv(coerceTypes: boolean): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    coerceTypes,
    useDefaults: true,
    removeAdditional: false,
    strict: false,
    multipleOfPrecision: 9,
  });
  addFormats.default(ajv);
  ajvErrors.default(ajv, { singleError: true });
  addKeywords(ajv);
  return ajv;
}

export const bodyAjv = makeAjv(false);
export const queryAjv = makeAjv(true);

const caches = new WeakMap<Ajv, WeakMap<object, ValidateFunction>>();
export function compile(ajv: Ajv, schema: object): ValidateFunction {
  let cache = caches.get(ajv);
  if (!cache) caches.set(ajv, (cache = new WeakMap()));
  let fn = cache.get(schema);
  if (!fn) cache.set(schema, (fn = ajv.compile(schema)));
  return fn;
}

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
};

function fieldOf(e: ErrorObject, prefix: string): string {
  const path = e.instancePath.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (e.keyword === 'required') path.push(String((e.params as { missingProperty: string }).missingProperty));
  if (e.keyword === 'errorMessage') {
    const inner = (e.params as { errors?: ErrorObject[] }).errors?.[0];
    if (inner?.keyword === 'required') path.push(String((inner.params as { missingProperty: string }).missingProperty));
  }
  return path.length ? path.join('.') : prefix;
}

function messageOf(e: ErrorObject, field: string): string {
  switch (e.keyword) {
    case 'errorMessage':
      return e.message ?? `${field} is invalid`;
    case 'required':
      return `${field} is required`;
    case 'type': {
      const t = String((e.params as { type: string }).type).split(',')[0] ?? 'valid';
      return field === 'body' ? 'the request body must be a JSON object' : `${field} must be ${TYPE_NAMES[t] ?? t}`;
    }
    case 'const':
      return `${field} must be ${JSON.stringify((e.params as { allowedValue: unknown }).allowedValue)}`;
    case 'enum':
      return `${field} must be one of ${((e.params as { allowedValues: unknown[] }).allowedValues ?? []).join(', ')}`;
    case 'maxLength':
    case 'minLength':
    case 'pattern':
    case 'format':
      return `${field} is not in the expected format`;
    default:
      return `${field} ${e.message ?? 'is invalid'}`;
  }
}

/** One entry per bad field, the first problem found for it; `prefix` names the root ("body", "query"). */
export function toFieldErrors(errors: ErrorObject[] | null | undefined, prefix = 'body'): FieldError[] {
  const out = new Map<string, string>();
  for (const e of errors ?? []) {
    if (e.keyword === 'if' || e.keyword === 'anyOf' || e.keyword === 'oneOf') continue;
    const field = fieldOf(e, prefix);
    if (!out.has(field)) out.set(field, messageOf(e, field));
  }
  if (out.size === 0 && errors?.length) out.set(prefix, 'the request is invalid');
  return [...out].map(([field, message]) => ({ field, message }));
}
