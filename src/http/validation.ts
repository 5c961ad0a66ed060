// Owns request validation: the Ajv instances Fastify compiles the TypeBox schemas with, and the
// translation of Ajv's errors into the contract's `errors: [{ field, message }]`.
// Bodies are validated strictly (a JSON `"true"` is not `true`). Query strings and path parameters
// arrive as text, so a value is converted where its schema wants a number or a boolean (CONTRACT §3:
// `amount=100.50`, `consent=true`) — but only from a plain decimal or `true`/`false`, never by Ajv's
// loose coercion, which reads `0x10` as 16 and ` 1e2 ` as 100. Date-times must be real instants:
// RFC 3339 as Ajv reads it, minus the leap second (JavaScript's Date has none) and years before 0001.
// Amounts are checked by the exact `paise` keyword (operations/fields.ts), not a fractional
// `multipleOf`: Ajv runs no tolerance here, so a fractional multipleOf would refuse 19.99.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import ajvErrors from 'ajv-errors';
import fastJson from 'fast-json-stringify';
import addFormats from 'ajv-formats';
import type { FieldError } from '../errors.js';
import { addKeywords } from '../contract/fields.js';

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

/** An RFC 3339 date-time that Date, PostgreSQL and every store agree on. */
export function isInstant(s: string): boolean {
  const m = DATE_TIME.exec(s);
  if (!m) return false;
  const [y, mo, d, h, mi, sec] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (y < 1 || mo < 1 || mo > 12 || h > 23 || mi > 59 || sec > 59) return false;
  if (d < 1 || d > new Date(Date.UTC(2000, mo, 0)).getUTCDate() || (mo === 2 && d === 29 && !(y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0)))) return false;
  return !Number.isNaN(Date.parse(s));
}

function makeAjv(): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    coerceTypes: false,
    useDefaults: true,
    removeAdditional: false,
    strict: false,
  });
  addFormats.default(ajv);
  ajv.addFormat('date-time', { type: 'string', validate: isInstant });
  ajvErrors.default(ajv, { singleError: true });
  addKeywords(ajv);
  return ajv;
}

export const ajv = makeAjv();

const PLAIN_NUMBER = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/;

interface SchemaNode {
  type?: string | string[];
  anyOf?: SchemaNode[];
  properties?: Record<string, SchemaNode>;
}

const typesOf = (s: SchemaNode | undefined): string[] => (s ? [s.type ?? [], ...(s.anyOf ?? []).map((x) => x.type ?? [])].flat() : []);

/** Converts the text values of a query string or path parameters to the types their schema names. */
export function coerceText(schema: object, value: unknown): void {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
  const props = (schema as SchemaNode).properties ?? {};
  const obj = value as Record<string, unknown>;
  for (const [k, v] of Object.entries(obj)) {
    if (typeof v !== 'string' || !Object.hasOwn(props, k)) continue;
    const types = typesOf(props[k]);
    if ((types.includes('number') || types.includes('integer')) && PLAIN_NUMBER.test(v)) obj[k] = Number(v);
    else if (types.includes('boolean') && (v === 'true' || v === 'false')) obj[k] = v === 'true';
  }
}

const cache = new WeakMap<object, ValidateFunction>();
/**
 * The schema's validator, compiled by Ajv the first time it runs: Fastify asks for every route's at
 * boot, and compiling them all then was a third of building the app (boot target < 2 s, issue #28).
 */
export function compile(schema: object): ValidateFunction {
  let fn = cache.get(schema);
  if (!fn) {
    let compiled: ValidateFunction | undefined;
    const lazy = ((data: unknown) => {
      compiled ??= ajv.compile(schema);
      const ok = compiled(data);
      lazy.errors = compiled.errors;
      return ok;
    }) as ValidateFunction;
    cache.set(schema, (fn = lazy));
  }
  return fn;
}

/** A validator for text input (query string, path parameters): converts per the schema, then validates. */
export function compileText(schema: object): ValidateFunction {
  const validate = compile(schema);
  const fn = ((data: unknown) => {
    coerceText(schema, data);
    const ok = validate(data);
    fn.errors = validate.errors;
    return ok;
  }) as ValidateFunction;
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
    // A message on the whole body (one of two fields is required) names the field its first error names.
    if (inner && path.length === 0) return fieldOf(inner, prefix);
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
  // A message on the whole body (give one of two fields) is reported only when no field is wrong itself:
  // a body whose event_id is malformed needs that fixed, not a reminder that since would also do.
  const whole = (e: ErrorObject) => e.keyword === 'errorMessage' && e.instancePath === '';
  const ordered = [...(errors ?? []).filter((e) => !whole(e)), ...(errors ?? []).filter(whole)];
  for (const e of ordered) {
    if (e.keyword === 'if' || e.keyword === 'anyOf' || e.keyword === 'oneOf') continue;
    if (whole(e) && out.size > 0) break;
    const field = fieldOf(e, prefix);
    if (!out.has(field)) out.set(field, messageOf(e, field));
  }
  if (out.size === 0 && errors?.length) out.set(prefix, 'the request is invalid');
  return [...out].map(([field, message]) => ({ field, message }));
}

/**
 * A route's response serializer (fast-json-stringify, as Fastify's own), built the first time the
 * route answers with that status: Fastify builds every route's at boot otherwise.
 */
export function lazySerializer({ schema }: { schema: unknown }): (data: unknown) => string {
  let serialize: ((data: unknown) => string) | undefined;
  return (data) => (serialize ??= fastJson(schema as Parameters<typeof fastJson>[0]))(data);
}
