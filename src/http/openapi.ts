// Owns the published OpenAPI document: turns what @fastify/swagger derives from the route schemas into
// the portable document /openapi.json serves. The server keeps validating with its own richer schemas
// (custom Ajv keywords, ajv-errors messages, exact decimals); only the published copy changes, so that
// any standard OpenAPI 3.1 / JSON Schema 2020-12 tool (Redocly, Ajv in strict mode, openapi-typescript,
// Postman) reads it and agrees with the server on what is valid:
// - keywords only our Ajv knows (errorMessage, aadhaar, ifsc, anything else non-standard) become `x-`
//   extensions, which validators ignore;
// - `paise` (an amount is a whole number of paise, checked exactly) becomes `x-decimal-places: 2`, not a
//   fractional `multipleOf`: in binary floating point a standard validator computes 19.99 / 0.01 =
//   1998.9999999999998 and rejects about 14% of valid amounts;
// - info gets its license and contact, tags their descriptions, and every operation an operationId;
// - the error envelopes (one per status, titled Error4xx/Error5xx) are published once under
//   components.schemas and referred to, so a generated client has one named type per error status.
// A pure function of its input: routes/docs.ts computes it once and serves the cached result.

type Json = Record<string, unknown>;

/** The published document's metadata that the route schemas do not carry. */
export const LICENSE = {
  // package.json says UNLICENSED: no SPDX licence grants anything, so the document says so in words.
  name: 'Proprietary: all rights reserved; use of the API is governed by your Sangam agreement',
};
export const CONTACT = { name: 'Sangam API support' };

/** One line per tag the routes use; the order is the order documentation tools show them in. */
export const TAG_DESCRIPTIONS: Record<string, string> = {
  'Document OCR': 'Reading documents: signature match against a cheque or form image.',
  'Identity and KYC': 'Aadhaar identity through DigiLocker: start the consent flow, then download the e-Aadhaar.',
  'Banking and payments': 'Bank account discovery from a mobile number, and UPI payouts.',
  'Recharge and bill payments': 'Mobile and DTH recharges, operators, operator lookup, plans and subscriber details.',
  'DTH and telecom': 'DTH (satellite TV) recharges.',
  Transactions: 'The stored record and final status of any operation, by reference_id.',
  Account: 'The wallet balance (available and held by pending operations) and its statement.',
  Webhooks: 'Endpoints that receive signed event notifications (Standard Webhooks), their deliveries and replays.',
  'Audit logs': 'Every request the account made, searchable, exportable as CSV or NDJSON, and hash-chained.',
  Consents: 'Consent records: the notice, purpose and operations a person agreed to, with a receipt signed by Sangam; cited by consent_id on any operation, and withdrawn with effect.',
  Batches: 'Many rows of one operation in one submission (JSON, CSV or NDJSON), each run as its own call, with progress, items and a results file in row order.',
};

/** Keywords of JSON Schema 2020-12 (core, applicator, validation, unevaluated, format, content, meta-data) and the OpenAPI 3.1 base vocabulary. */
const STANDARD_KEYWORDS = new Set([
  '$schema', '$id', '$ref', '$anchor', '$dynamicRef', '$dynamicAnchor', '$vocabulary', '$comment', '$defs', 'definitions',
  'allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else', 'dependentSchemas', 'prefixItems', 'items', 'contains',
  'properties', 'patternProperties', 'additionalProperties', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties',
  'type', 'const', 'enum', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'maxLength', 'minLength',
  'pattern', 'maxItems', 'minItems', 'uniqueItems', 'maxContains', 'minContains', 'maxProperties', 'minProperties', 'required',
  'dependentRequired', 'format', 'contentEncoding', 'contentMediaType', 'contentSchema',
  'title', 'description', 'default', 'deprecated', 'readOnly', 'writeOnly', 'examples',
  'discriminator', 'xml', 'externalDocs', 'example',
]);

/** Subschema positions: a single schema, a list of schemas, or a map of name to schema. */
const ONE = ['not', 'if', 'then', 'else', 'items', 'contains', 'additionalProperties', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties', 'contentSchema'];
const LIST = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const MAP = ['properties', 'patternProperties', 'dependentSchemas', '$defs', 'definitions'];

/** What each of our Ajv's own keywords becomes (src/http/validation.ts, src/operations/fields.ts). */
const CUSTOM: Record<string, (schema: Json, value: unknown) => void> = {
  // ajv-errors' messages are useful to a reader: kept under an extension name.
  errorMessage: (s, v) => void (s['x-error-message'] = v),
  // The shape is standard; the Verhoeff check digit is not, so it is said in words and as an extension.
  aadhaar: (s, v) => {
    s['x-aadhaar-verhoeff'] = v;
    s.pattern ??= '^([2-9][0-9]{11}|[0-9]{16})$';
    appendDescription(s, 'A 12-digit number must also pass the Verhoeff check digit (x-aadhaar-verhoeff).');
  },
  paise: (s) => {
    s['x-decimal-places'] = 2;
    appendDescription(s, 'x-decimal-places: 2: the server refuses more decimal places (not written as a fractional multipleOf, which floating-point validators apply inexactly, refusing values such as 19.99).');
  },
  personName: (s, v) => {
    s['x-person-name'] = v;
    appendDescription(s, 'It must hold a letter, and every letter must be Latin, of an Indian script or Perso-Arabic (x-person-name).');
  },
  ifsc: (s, v) => {
    s['x-ifsc-exists'] = v;
    appendDescription(s, 'The code must also exist in the RBI list of bank branches (x-ifsc-exists).');
  },
};

function appendDescription(s: Json, sentence: string): void {
  const d = typeof s.description === 'string' ? s.description.trim() : '';
  if (!d.includes(sentence)) s.description = d ? `${d}${/[.!?]$/.test(d) ? '' : '.'} ${sentence}` : sentence;
}

const kebab = (k: string) => k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** Rewrites one schema (and its subschemas) in place. */
function portableSchema(s: unknown): void {
  if (s === null || typeof s !== 'object' || Array.isArray(s)) return;
  const schema = s as Json;
  for (const k of ONE) portableSchema(schema[k]);
  for (const k of LIST) if (Array.isArray(schema[k])) (schema[k] as unknown[]).forEach(portableSchema);
  for (const k of MAP) if (schema[k] && typeof schema[k] === 'object') Object.values(schema[k] as Json).forEach(portableSchema);
  for (const key of Object.keys(schema)) {
    if (STANDARD_KEYWORDS.has(key) || key.startsWith('x-')) continue;
    const value = schema[key];
    delete schema[key];
    (CUSTOM[key] ?? ((t: Json, v: unknown) => void (t[`x-${kebab(key)}`] = v)))(schema, value);
  }
}

/** Every schema in a parameter, header, media-type map, request body or response. */
function portableContent(content: unknown): void {
  for (const media of Object.values((content ?? {}) as Record<string, Json>)) portableSchema(media.schema);
}
function portableParameter(p: Json): void {
  portableSchema(p.schema);
  portableContent(p.content);
}
function portableResponse(r: Json): void {
  portableContent(r.content);
  for (const h of Object.values((r.headers ?? {}) as Record<string, Json>)) portableParameter(h);
}

/** Response bodies published once, under components, by their title (http/responses.ts sets it): the error envelopes. */
const SHARED_TITLE = /^Error[1-5][0-9]{2}$/;

/** Moves a response body with a shared title to components.schemas and refers to it, so clients get one named type. */
function shareComponents(r: Json, components: Record<string, Record<string, Json> | undefined>): void {
  for (const media of Object.values((r.content ?? {}) as Record<string, Json>)) {
    const schema = media.schema as Json | undefined;
    const title = schema?.title;
    if (typeof title !== 'string' || !SHARED_TITLE.test(title)) continue;
    components.schemas ??= {};
    components.schemas[title] ??= schema!;
    media.schema = { $ref: `#/components/schemas/${title}` };
  }
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** A stable camelCase operationId from method and path: GET /api/v1/webhook-endpoints/{id}/deliveries → getWebhookEndpointsByIdDeliveries. */
export function fallbackOperationId(method: string, path: string): string {
  const words = path
    .split('/')
    .filter((seg) => seg && seg !== 'api' && !/^v\d+$/.test(seg))
    .flatMap((seg) => (seg.startsWith('{') ? ['by', ...seg.slice(1, -1).split(/[^A-Za-z0-9]+/)] : seg.split(/[^A-Za-z0-9]+/)))
    .filter(Boolean);
  return [method.toLowerCase(), ...words.map((w) => w[0]!.toUpperCase() + w.slice(1))].join('');
}

/** The portable document served at /openapi.json, from app.swagger(). Does not modify its input. */
export function portableDocument(source: object): Json {
  const doc = structuredClone(source) as Json;
  const info = (doc.info ?? {}) as Json;
  doc.info = { ...info, license: info.license ?? LICENSE, contact: info.contact ?? CONTACT };

  const components = (doc.components ?? {}) as Record<string, Record<string, Json> | undefined>;
  for (const s of Object.values(components.schemas ?? {})) portableSchema(s);
  for (const p of Object.values(components.parameters ?? {})) portableParameter(p);
  for (const h of Object.values(components.headers ?? {})) portableParameter(h);
  for (const r of Object.values(components.responses ?? {})) portableResponse(r);
  for (const b of Object.values(components.requestBodies ?? {})) portableContent(b.content);

  const used = new Set<string>();
  const paths = (doc.paths ?? {}) as Record<string, Json>;
  const ids = new Set(Object.values(paths).flatMap((item) => METHODS.map((m) => (item[m] as Json | undefined)?.operationId).filter((id) => typeof id === 'string' && id)));
  for (const [path, item] of Object.entries(paths)) {
    for (const p of (item.parameters ?? []) as Json[]) portableParameter(p);
    for (const method of METHODS) {
      const op = item[method] as Json | undefined;
      if (!op) continue;
      for (const p of (op.parameters ?? []) as Json[]) portableParameter(p);
      portableContent((op.requestBody as Json | undefined)?.content);
      for (const r of Object.values((op.responses ?? {}) as Record<string, Json>)) {
        portableResponse(r);
        shareComponents(r, components);
      }
      for (const t of (op.tags ?? []) as string[]) used.add(t);
      if (typeof op.operationId !== 'string' || !op.operationId) {
        let id = fallbackOperationId(method, path);
        for (let n = 2; ids.has(id); n++) id = `${fallbackOperationId(method, path)}${n}`;
        op.operationId = id;
        ids.add(id);
      }
    }
  }

  if (components.schemas && Object.keys(components.schemas).length) doc.components = components;

  // Declared tags first (keeping any description a route gave), then the described ones in table order.
  const declared = new Map(((doc.tags ?? []) as Json[]).map((t) => [t.name as string, t]));
  const names = [...new Set([...declared.keys(), ...Object.keys(TAG_DESCRIPTIONS).filter((n) => used.has(n)), ...used])];
  doc.tags = names.map((name) => {
    const description = (declared.get(name)?.description as string | undefined) ?? TAG_DESCRIPTIONS[name];
    return { ...declared.get(name), name, ...(description ? { description } : {}) };
  });
  return doc;
}
