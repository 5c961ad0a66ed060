// Owns the one way tests hold a partner's traffic against the partner's OWN published schema: the
// OpenAPI documents copied into docs/partners/<kind>/ (each with its SOURCE.md), read with OpenAPI 3.0
// semantics and validated by ajv (already a dependency; no OpenAPI-specific library is needed for what
// these documents use). Given a document, a path, a method and (for an answer) a status, it says whether
// a request body or an answer body is valid, and why not, in ajv's words.
//
// OpenAPI 3.0 reading: `nullable: true` adds null to the type (and to an enum); 3.1-style type lists
// (`"type": ["object", "null"]`) are kept as they are; a boolean `exclusiveMinimum`/`exclusiveMaximum`
// (draft-4 style) becomes the draft-7 number; `$ref`s to `#/components/…` are resolved; annotations
// (`example`, `x-*`, `discriminator`, `xml`, `externalDocs`, `deprecated`, `readOnly`, `writeOnly`) are
// dropped. Formats are ajv-formats' plus `mac`; a format nobody defines is not checked (said, not guessed).
// RazorpayX publishes no machine-readable spec: its folder holds one written from its own Markdown pages
// (every field's `x-source` names the page), read the same way; its webhooks are OpenAPI-3.1 `webhooks`.
// Some partners document several answers under one status (Setu: `200`, `200-failed-fetch`, …): an answer
// is valid when it matches any of them.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

const PARTNERS_DIR = fileURLToPath(new URL('../../docs/partners/', import.meta.url));

type Json = Record<string, unknown>;

/** Schema keywords whose value is a schema, a list of schemas, or a map of schemas. */
const ONE = ['items', 'not', 'additionalProperties', 'additionalItems', 'contains', 'propertyNames', 'if', 'then', 'else'];
const MANY = ['allOf', 'anyOf', 'oneOf'];
const MAPS = ['properties', 'patternProperties', 'definitions', '$defs'];
const DROP = new Set(['example', 'discriminator', 'xml', 'externalDocs', 'deprecated', 'readOnly', 'writeOnly']);

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface SchemaCheck {
  valid: boolean;
  /** ajv's errors, one line each (`/data/refId must be string`); empty when valid. */
  errors: string[];
}

export class PartnerSpec {
  private readonly doc: Json;
  private readonly ajv: Ajv;
  private readonly cache = new Map<string, ValidateFunction>();

  /** `kind` is the folder under docs/partners/, `file` the document in it. */
  constructor(
    readonly kind: string,
    readonly file: string,
  ) {
    this.doc = JSON.parse(readFileSync(`${PARTNERS_DIR}${kind}/${file}`, 'utf8')) as Json;
    this.ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
    addFormats.default(this.ajv);
    this.ajv.addFormat('mac', /^[0-9A-Fa-f]{2}([-:][0-9A-Fa-f]{2}){5}$/);
  }

  /** The request body a partner documents for `method path` against `body`. */
  request(path: string, method: string, body: unknown): SchemaCheck {
    const op = this.operation(path, method);
    const schema = (this.deref(op.requestBody) as Json | undefined)?.content as Json | undefined;
    const json = schema?.['application/json'] as Json | undefined;
    if (!json?.schema) throw new Error(`${this.kind}: ${method.toUpperCase()} ${path} documents no JSON request body`);
    return this.check(`req ${method} ${path}`, [json.schema as Json], body);
  }

  /**
   * An answer to `method path` with HTTP `status` against every answer documented under that status, or
   * only the one named `variant` (Setu's `200-failed-fetch`; `200` alone is its standard answer).
   */
  response(path: string, method: string, status: number | string, body: unknown, variant?: string): SchemaCheck {
    const responses = (this.operation(path, method).responses ?? {}) as Json;
    const keys = Object.keys(responses).filter((k) => (variant ? k === variant : k === String(status) || k.startsWith(`${status}-`)));
    const schemas = keys.map((k) => ((((this.deref(responses[k]) as Json).content as Json | undefined)?.['application/json'] as Json | undefined)?.schema as Json | undefined)).filter(isObj);
    if (!schemas.length) throw new Error(`${this.kind}: ${method.toUpperCase()} ${path} documents no JSON answer under HTTP ${status} (documented: ${Object.keys(responses).join(', ')})`);
    return this.check(`res ${method} ${path} ${variant ?? status}`, schemas, body);
  }

  /**
   * A webhook's payload against the document's OpenAPI-3.1 `webhooks.<name>.post` request body (RazorpayX's
   * document, written from its prose, describes its webhooks there).
   */
  webhook(name: string, body: unknown): SchemaCheck {
    const op = ((this.doc.webhooks as Json | undefined)?.[name] as Json | undefined)?.post as Json | undefined;
    const json = ((op?.requestBody as Json | undefined)?.content as Json | undefined)?.['application/json'] as Json | undefined;
    if (!json?.schema) throw new Error(`${this.kind}: the document describes no webhook ${name}`);
    return this.check(`webhook ${name}`, [json.schema as Json], body);
  }

  /** The HTTP statuses an operation documents (`200`, `400`, …), variants folded. */
  statuses(path: string, method: string): string[] {
    return [...new Set(Object.keys((this.operation(path, method).responses ?? {}) as Json).map((k) => k.split('-')[0]!))];
  }

  /** A body against one of the document's own components (`#/components/schemas/<name>`). */
  component(name: string, body: unknown): SchemaCheck {
    return this.check(`component ${name}`, [{ $ref: `#/components/schemas/${name}` }], body);
  }

  /** Whether the document has the operation at all. */
  has(path: string, method: string): boolean {
    return isObj(((this.doc.paths as Json)[path] as Json | undefined)?.[method.toLowerCase()]);
  }

  /** A response object that is a `$ref` (to `#/components/responses/…`), followed. */
  private deref(v: unknown): unknown {
    for (let i = 0; i < 10 && isObj(v) && typeof v.$ref === 'string'; i++) {
      let at: unknown = this.doc;
      for (const part of v.$ref.slice(2).split('/')) at = isObj(at) ? at[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
      v = at;
    }
    return v;
  }

  private operation(path: string, method: string): Json {
    const op = ((this.doc.paths as Json)[path] as Json | undefined)?.[method.toLowerCase()];
    if (!isObj(op)) throw new Error(`${this.kind}: the partner documents no ${method.toUpperCase()} ${path}`);
    return op;
  }

  private check(key: string, schemas: Json[], body: unknown): SchemaCheck {
    let v = this.cache.get(key);
    if (!v) {
      const converted = schemas.map((s) => this.convert(s, new Set()));
      v = this.ajv.compile(converted.length === 1 ? converted[0]! : { anyOf: converted });
      this.cache.set(key, v);
    }
    const valid = v(body) === true;
    return { valid, errors: valid ? [] : (v.errors ?? []).map(line) };
  }

  /** An OpenAPI 3.0 schema object as a draft-7 JSON schema (see the header). */
  private convert(s: unknown, seen: Set<string>): unknown {
    if (!isObj(s)) return s;
    if (typeof s.$ref === 'string') return this.resolve(s.$ref, seen);
    const out: Json = {};
    for (const [k, v] of Object.entries(s)) {
      if (DROP.has(k) || k.startsWith('x-') || k === 'nullable') continue;
      if (ONE.includes(k) && isObj(v)) out[k] = this.convert(v, seen);
      else if (MANY.includes(k) && Array.isArray(v)) out[k] = v.map((x) => this.convert(x, seen));
      else if (MAPS.includes(k) && isObj(v)) out[k] = Object.fromEntries(Object.entries(v).map(([n, x]) => [n, this.convert(x, seen)]));
      else out[k] = v;
    }
    for (const [bound, limit] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const) {
      if (typeof out[bound] === 'boolean') {
        if (out[bound] && typeof out[limit] === 'number') out[bound] = out[limit];
        else delete out[bound];
        if (typeof out[bound] === 'number') delete out[limit];
      }
    }
    if (s.nullable === true) {
      if (typeof out.type === 'string') out.type = [out.type, 'null'];
      else if (Array.isArray(out.type) && !out.type.includes('null')) out.type = [...(out.type as string[]), 'null'];
      if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...(out.enum as unknown[]), null];
    }
    if (typeof out.format === 'string' && !this.ajv.formats[out.format]) delete out.format;
    return out;
  }

  private resolve(ref: string, seen: Set<string>): unknown {
    if (!ref.startsWith('#/')) throw new Error(`${this.kind}: only local $refs are read (${ref})`);
    if (seen.has(ref)) return {}; // a recursive schema: checked down to where it repeats
    let at: unknown = this.doc;
    for (const part of ref.slice(2).split('/')) at = isObj(at) ? at[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
    if (!isObj(at)) throw new Error(`${this.kind}: $ref ${ref} points nowhere`);
    return this.convert(at, new Set([...seen, ref]));
  }
}

const line = (e: ErrorObject): string => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}${e.params && 'missingProperty' in e.params ? ` (${String(e.params.missingProperty)})` : ''}`;

/** The documents Sangam holds, by partner kind. */
export const SPECS = {
  'setu-dth': () => new PartnerSpec('setu-dth', 'bbps-billpay-v2.subset.json'),
  'cashfree-verification': () => new PartnerSpec('cashfree-verification', 'openapi-VRS.subset.json'),
  'setu-recharge': () => new PartnerSpec('setu-recharge', 'mobile-prepaid-recharge.json'),
  'cashfree-payouts': () => new PartnerSpec('cashfree-payouts', 'openapi-PO.transfers.json'),
  // Not the partner's own document (RazorpayX publishes none): written from its Markdown docs, every field with its x-source.
  razorpayx: () => new PartnerSpec('razorpayx', 'razorpayx.openapi.json'),
} as const;
