// Owns the Postman collection (dist/sangam.postman_collection.json): converted from the OpenAPI document
// by openapi-to-postmanv2, then made to run as it is, with only `baseUrl` and `apiKey` set (Postman's
// collection runner, or newman in CI):
// - bodies and query values are the document's examples (valid sandbox inputs), not "<string>"
//   placeholders; `reference_id` and `idempotency_key` become {{$guid}}, so every run makes new
//   transactions instead of replaying the last run's answers;
// - path parameters come from what an earlier request saved (a reference, an endpoint id, a request id),
//   and requests run in an order where each finds what it needs (a webhook endpoint is deleted last);
// - every request has tests: HTTP 200, an X-Request-Id, and the envelope (statuscode, ok, message, data)
//   with ok true, since every example is a success in the sandbox; the export checks its content type.
import Converter from 'openapi-to-postmanv2';

/** Bodies for routes whose schemas carry no example (webhooks, erasures, consents, batches): valid sandbox inputs. */
const FALLBACK_BODIES = {
  createWebhookEndpoint: { url: 'https://example.com/webhooks/sangam' },
  rotateWebhookSecret: { overlap_seconds: 3600 },
  replayWebhookEvents: { since: '2026-01-01T00:00:00Z' },
  createErasure: { reference_id: '{{reference_id}}' },
  createConsent: {
    subject: { mobile: '9123456780', reference: 'cust-000042' },
    purpose: { code: 'kyc-onboarding', text: 'To verify your bank account when you open a wallet' },
    operations: ['mobile-to-bank-account'],
    notice: { version: '2026-11', language: 'en', text: 'We will check the bank account linked to your mobile number.' },
    channel: 'app',
  },
  // Each row has its own fresh reference (Postman fills {{$guid}} anywhere in a raw body).
  createBatch: {
    operation: 'name-match',
    items: [
      { reference_id: '{{$guid}}', consent: true, name_1: 'Ramesh Kumar Sharma', name_2: 'R. K. Sharma' },
      { reference_id: '{{$guid}}', consent: true, name_1: 'Priya Nair', name_2: 'Nair Priya' },
    ],
  },
};
/** Required query values whose schemas carry no example or default. */
const FALLBACK_QUERY = { mobile: '9876543210', subject_mobile: '9123456780' };
/** Values a run must not repeat: a repeated reference or key would replay the earlier answer. */
const FRESH = { reference_id: '{{$guid}}', idempotency_key: '{{$guid}}' };
/** Path parameters, filled from what an earlier request saved (CAPTURES); per operation where a name means another thing. */
const PATH_VARIABLES = { reference_id: '{{reference_id}}', id: '{{webhook_endpoint_id}}', request_id: '{{request_id}}' };
const BATCH = { id: '{{batch_id}}' };
const OPERATION_PATH_VARIABLES = {
  getConsent: { id: '{{consent_id}}' },
  withdrawConsent: { id: '{{consent_id}}' },
  getBatch: BATCH,
  listBatchItems: BATCH,
  getBatchResults: BATCH,
  cancelBatch: BATCH,
};
/** What a request saves for later ones: variable → path in the answer's body. */
const CAPTURES = {
  createWebhookEndpoint: { webhook_endpoint_id: 'data.id' },
  listAuditLogs: { request_id: 'data.items.0.request_id' },
  createConsent: { consent_id: 'data.id' },
  createBatch: { batch_id: 'data.id' },
};
const OPERATION_CAPTURE = { reference_id: 'data.reference_id' };
/** Requests that must come after their siblings (they remove what the others use). */
const LAST = new Set(['deleteWebhookEndpoint', 'withdrawConsent', 'cancelBatch']);

const VARIABLES = [
  { key: 'baseUrl', value: 'http://127.0.0.1:8080', type: 'string', description: 'Where the API is served' },
  { key: 'apiKey', value: '', type: 'string', description: 'Your API key: sk_test_… (sandbox) or sk_live_… (live)' },
  { key: 'reference_id', value: '', type: 'string', description: 'Saved by each operation: the reference GET /transactions/{reference_id} and the erasure use' },
  { key: 'webhook_endpoint_id', value: '', type: 'string', description: 'Saved by "Register a webhook endpoint"' },
  { key: 'request_id', value: '', type: 'string', description: 'Saved by "Search the audit log"' },
  { key: 'consent_id', value: '', type: 'string', description: 'Saved by "Record a consent"' },
  { key: 'batch_id', value: '', type: 'string', description: 'Saved by "Submit a batch"' },
];

function convert(doc) {
  const options = { requestNameSource: 'Fallback', folderStrategy: 'Tags', includeAuthInfoInExample: false, parametersResolution: 'Example' };
  return new Promise((resolve, reject) =>
    // The converter writes its made-up values into the document it is given: it gets a copy.
    Converter.convert({ type: 'json', data: structuredClone(doc) }, options, (err, out) => {
      if (err) return reject(err);
      if (!out.result) return reject(new Error(`openapi-to-postmanv2: ${out.reason}`));
      resolve(out.output[0].data);
    }),
  );
}

/** The document's operations by "METHOD /path" (path with {name} parameters). */
function operationsOf(doc) {
  const out = new Map();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) if (op && typeof op === 'object' && op.operationId) out.set(`${method.toUpperCase()} ${path}`, op);
  }
  return out;
}

const keyOf = (request) => `${request.method} /${request.url.path.map((seg) => (seg.startsWith(':') ? `{${seg.slice(1)}}` : seg)).join('/')}`;
/** An operation of CONTRACT §3: its answers are stored and replayed. */
const isOperation = (op) => 'Idempotent-Replayed' in (op.responses?.['200']?.headers ?? {});

/** The values an operation must not repeat from run to run; none for the other routes. */
const freshOf = (op) => (isOperation(op) ? FRESH : {});

/** The example of a JSON body (media-type example, or the schema's first), with fresh references. */
function bodyOf(op) {
  const media = op.requestBody?.content?.['application/json'];
  if (!media) return undefined;
  const example = media.example ?? media.schema?.examples?.[0] ?? FALLBACK_BODIES[op.operationId];
  if (example === undefined) return undefined;
  return Object.fromEntries(Object.entries(example).map(([k, v]) => [k, freshOf(op)[k] ?? v]));
}

/** A query value: fresh, the parameter's example, its schema's first example, or for a required one, its default, first allowed value or a fallback. */
function queryValue(param, fresh) {
  const s = param.schema ?? {};
  const given = fresh[param.name] ?? param.example ?? s.examples?.[0];
  return given !== undefined || !param.required ? given : (s.default ?? s.enum?.[0] ?? FALLBACK_QUERY[param.name]);
}

function fillRequest(request, op) {
  const params = new Map((op.parameters ?? []).map((p) => [`${p.in}:${p.name}`, p]));
  for (const q of request.url.query ?? []) {
    const p = params.get(`query:${q.key}`);
    const value = p ? queryValue(p, freshOf(op)) : undefined;
    // Optional parameters without an example stay listed, switched off, for the reader to fill in.
    q.disabled = value === undefined;
    q.value = value === undefined ? '' : String(value);
  }
  for (const v of request.url.variable ?? []) v.value = OPERATION_PATH_VARIABLES[op.operationId]?.[v.key] ?? PATH_VARIABLES[v.key] ?? v.value;
  // The key travels in the body (or query); both at once must be the same value, so the header is off.
  for (const h of request.header ?? []) if (h.key === 'Idempotency-Key') h.disabled = true;
  const body = bodyOf(op);
  if (body !== undefined) request.body = { mode: 'raw', raw: JSON.stringify(body, null, 2), options: { raw: { language: 'json' } } };
}

/** The test script of one request. */
function testsOf(op) {
  const json = Boolean(op.responses?.['200']?.content?.['application/json']);
  const captures = { ...(isOperation(op) ? OPERATION_CAPTURE : {}), ...CAPTURES[op.operationId] };
  const lines = [
    "pm.test('HTTP 200', () => pm.response.to.have.status(200));",
    "pm.test('X-Request-Id header', () => pm.response.to.have.header('X-Request-Id'));",
  ];
  if (!json) {
    const types = Object.keys(op.responses['200'].content ?? {});
    lines.push(`pm.test('content type', () => pm.expect(${JSON.stringify(types)}).to.include(String(pm.response.headers.get('Content-Type')).split(';')[0]));`);
    return lines;
  }
  lines.push(
    'const body = pm.response.json();',
    "pm.test('envelope', () => {",
    "  pm.expect(body).to.include.all.keys('statuscode', 'ok', 'message', 'data');",
    "  pm.expect(['TXN', 'TUP', 'ERR']).to.include(body.statuscode);",
    "  pm.expect(body.ok).to.equal(body.statuscode !== 'ERR');",
    "  pm.expect(body.message).to.be.a('string');",
    "  pm.expect(body.data).to.be.an('object');",
    '});',
    "pm.test('ok (every example is a sandbox success)', () => pm.expect(body.ok, body.message).to.equal(true));",
  );
  for (const [name, path] of Object.entries(captures)) {
    lines.push(`{ const v = ${JSON.stringify(path.split('.'))}.reduce((o, k) => (o == null ? o : o[k]), body); if (v != null) pm.collectionVariables.set(${JSON.stringify(name)}, String(v)); }`);
  }
  return lines;
}

function finishItems(items, ops) {
  for (const item of items) {
    if (item.item) {
      finishItems(item.item, ops);
      const last = (i) => Number(Boolean(i.request) && LAST.has(ops.get(keyOf(i.request))?.operationId));
      item.item.sort((a, b) => last(a) - last(b));
      continue;
    }
    const op = ops.get(keyOf(item.request));
    if (!op) throw new Error(`postman: no operation in the document for ${keyOf(item.request)}`);
    fillRequest(item.request, op);
    item.event = [{ listen: 'test', script: { type: 'text/javascript', exec: testsOf(op) } }];
  }
}

/** The runnable collection for an OpenAPI document. */
export async function postmanCollection(doc) {
  const collection = await convert(doc);
  const ops = operationsOf(doc);
  finishItems(collection.item, ops);
  collection.variable = VARIABLES;
  collection.auth = { type: 'bearer', bearer: [{ key: 'token', value: '{{apiKey}}', type: 'string' }] };
  return collection;
}
