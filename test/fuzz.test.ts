// The contract fuzzer (docs/RELIABILITY.md, "Fuzzing"): fast-check sends hostile requests to every
// /api/v1 route — the harness's ROUTES joined with the served OpenAPI document — and checks what the
// contract promises whatever arrives: no 5xx; the envelope { statuscode, ok, message, data } with the
// error data and the X-Request-Id header; and an audit row under that request id.
//
// Hostile means: NUL and lone surrogates in values, keys, query values and path parameters; nesting
// past 32 levels; exotic numbers in bodies (1e309, -0, 30 digits) and in query strings (0x10, " 100 ",
// any script's digits); __proto__ and constructor keys; wrong types for every field; scalars at the
// top level; duplicate keys and query parameters; long strings and over-long path parameters; bad
// percent-encoding; odd methods and content types; empty and missing bodies; valid, live, garbage and
// missing keys.
//
// FUZZ_RUNS sets the number of requests (default 2000: about 20 s on either store on a shared 2-core
// machine); FUZZ_SEED replays a run (the seed is printed as a test diagnostic, and a failure reports
// fast-check's seed and path as well).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { METHODS } from 'node:http';
import fc from 'fast-check';
import { ROUTES, startApp, type Response, type Route, type TestApp } from './harness.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 2000);
const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
/** Where the webhook routes point a valid endpoint: loopback's discard port, never the network. */
const HOOK_URL = 'http://127.0.0.1:9/hooks';

// ---- text and values ------------------------------------------------------------------------------

/** Raw JSON text spliced into a body as it is: numbers JSON.stringify cannot write, duplicate keys. */
class Raw {
  constructor(readonly text: string) {}
}
/** A JSON object as a list of members, so a key may repeat and `__proto__` is an ordinary key. */
class Obj {
  constructor(readonly members: Array<[string, unknown]>) {}
}

function toJson(v: unknown): string {
  if (v instanceof Raw) return v.text;
  if (v instanceof Obj) return `{${v.members.map(([k, x]) => `${JSON.stringify(k)}:${toJson(x)}`).join(',')}}`;
  if (Array.isArray(v)) return `[${v.map(toJson).join(',')}]`;
  if (v !== null && typeof v === 'object') return toJson(new Obj(Object.entries(v)));
  return JSON.stringify(v) ?? 'null';
}

const NASTY = [
  '\u0000', '\ud800', '\udfff', 'a\u0000b', 'x\ud800y', '\udc00\ud800', 'ok\udfff',
  '', ' ', '\t\r\n', '０１２３', '١٢٣٤', '१२३४', '  100 ', '0x10', '1e2', '-0', 'NaN', 'Infinity', '1e309',
  '__proto__', 'constructor', 'prototype', 'true', 'null', '[]', '{}', '%00', '%ud800', '\\u0000',
  "' OR 1=1 --", '<script>alert(1)</script>', '../../etc/passwd', '\u202eevil', '🙂', 'e\u0301', '\ufeff', '\uffff',
  '2026-02-30T00:00:00Z', '2016-12-31T23:59:60Z', '0000-01-01T00:00:00Z', '2026-01-01T00:00:00Z', '9'.repeat(40),
  'success@sandbox', 'JIO', 'TS', '9876543210', '234123412346', 'INR', 'csv', 'ndjson',
];
/** Any UTF-16 code unit, lone surrogates included. */
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
const longString = fc.constantFrom(65, 101, 257, 4097, 70_000).chain((n) => fc.constantFrom('a', '\u0000', '\ud800', '9', 'é').map((c) => c.repeat(n)));
const hostileString = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY) },
  { weight: 2, arbitrary: fc.string({ unit: codeUnit, maxLength: 12 }) },
  { weight: 2, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 1, arbitrary: longString },
);
const hostileKey = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', '\u0000', '\ud800', 'a\udfffb', '', ' ', 'reference_id', 'consent', 'x'.repeat(300)),
  fc.string({ unit: codeUnit, maxLength: 6 }),
);
const exoticNumber = fc.constantFrom('1e309', '-1e309', '-0', '-0.0', '123456789012345678901234567890', '9007199254740993', '1E2', '0.1e-400', '100.000000001', '100.50', '0.001', '-100', '1e-7');
const leaf = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double() },
  { weight: 2, arbitrary: exoticNumber.map((t) => new Raw(t)) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(true, false, null) },
);
const { value: jsonish } = fc.letrec<{ value: unknown; arr: unknown[]; obj: Obj }>((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, tie('arr'), tie('obj')),
  arr: fc.array(tie('value'), { maxLength: 4 }),
  obj: fc.array(fc.tuple(hostileKey, tie('value')), { maxLength: 4 }).map((m) => new Obj(m)),
}));
/** Arrays or objects nested `depth` levels; past MAX_DEPTH (32) the body is a 400. */
const nested = fc.tuple(fc.integer({ min: 1, max: 300 }), fc.boolean()).map(([depth, arrays]) => ({
  depth,
  raw: new Raw(arrays ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`),
}));

// ---- URLs --------------------------------------------------------------------------------------------

/** Percent-encodes like encodeURIComponent, but a lone surrogate becomes its (invalid) 3-byte UTF-8 form. */
function encode(s: string): string {
  let out = '';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    out += c >= 0xd800 && c <= 0xdfff ? `%${(0xe0 | (c >> 12)).toString(16)}%${(0x80 | ((c >> 6) & 0x3f)).toString(16)}%${(0x80 | (c & 0x3f)).toString(16)}`.toUpperCase() : encodeURIComponent(ch);
  }
  return out;
}
const BAD_PERCENT = ['%', '%zz', '%E0%A4%A', '%ud800', '%00', '%C0%80', '%ED%A0%80', '%FF', '%2', '%%41', '%F4%90%80%80'];
const urlPiece = fc.oneof(
  { weight: 3, arbitrary: hostileString.filter((s) => s.length < 5000).map(encode) },
  { weight: 2, arbitrary: fc.constantFrom(...BAD_PERCENT) },
  { weight: 1, arbitrary: fc.integer({ min: 90, max: 400 }).map((n) => 'a'.repeat(n)) },
);
const queryValue = fc.oneof(
  { weight: 3, arbitrary: urlPiece },
  {
    weight: 3,
    arbitrary: fc
      .constantFrom('0', '-1', '1', '100', '100.50', '1e2', '0x10', ' 100 ', '+100', '１００', '١٠٠', '१००', '99999999999999999999', 'true', 'TRUE', 'false', '1', 'yes', 'csv', 'ndjson', 'xml', 'sandbox', 'live', '200', '2026-01-01T00:00:00Z', '2026-02-30T00:00:00Z', 'AAAA', 'eyJ4IjoxfQ', 'success@sandbox', 'INR', 'USD')
      .map(encode),
  },
);

interface Case {
  route: Route;
  method: string;
  url: string;
  payload?: string;
  headers: Record<string, string>;
  key: 'sandbox' | 'live' | 'none' | 'garbage';
  /** The nesting depth of a deep value spliced into the body, if any. */
  depth?: number;
}

const ODD_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'QUERY', 'TRACE', 'PROPFIND', 'SEARCH', 'MKCOL', 'LOCK', 'PURGE'].filter((m) => METHODS.includes(m));
const CONTENT_TYPES = [
  'application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON', 'application/json; charset=latin1', 'text/plain', 'text/json',
  'application/x-www-form-urlencoded', 'multipart/form-data; boundary=xyz', 'application/jsonx', 'application/problem+json', '', '*/*',
];
const GARBAGE_TEXT = [
  '{', '{"a":}', "{'a':1}", 'a=1&b=2', '--xyz\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--xyz--', '\u0000', '\ufeff{}',
  '{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{"polluted":1}}}', '{"a":1}{"b":2}', 'null', 'true', '0', '-0', '1e309', '"x"', '[]',
  '{"reference_id":"r","consent":true,"amount":1e309}', '{"amount":-0,"consent":true}', '\ud800', 'NaN', '   ',
];

/** Valid query for the one operation that reads its fields from the query string. */
const validQuery = (body: Record<string, unknown>): Array<[string, string]> => Object.entries(body).map(([k, v]) => [k, encode(String(v))]);

function caseArb(routes: Described[], ids: Record<string, string>) {
  return fc
    .record({
      route: fc.constantFrom(...routes),
      methodChoice: fc.oneof({ weight: 3, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constantFrom(...ODD_METHODS) }),
      pathParam: fc.oneof({ weight: 2, arbitrary: fc.constant(null) }, { weight: 3, arbitrary: urlPiece }),
      pathTail: fc.oneof({ weight: 8, arbitrary: fc.constant('') }, { weight: 1, arbitrary: fc.constantFrom('/', '//', '/extra', '/%00', '/..', '/.%2e', `/${'b'.repeat(150)}`) }),
      queryPairs: fc.array(fc.tuple(fc.oneof(fc.constant(''), urlPiece), queryValue), { maxLength: 3 }),
      fieldQuery: fc.array(fc.tuple(fc.nat(), queryValue), { maxLength: 3 }),
      dupQuery: fc.boolean(),
      bodyKind: fc.constantFrom('valid', 'valid', 'mutated', 'mutated', 'mutated', 'any', 'deep', 'garbage', 'empty', 'none'),
      mutations: fc.array(fc.tuple(fc.nat(), fc.oneof(jsonish, fc.constant(undefined)), fc.boolean()), { minLength: 1, maxLength: 3 }),
      extraKey: hostileKey,
      anyBody: jsonish,
      deep: nested,
      deepTopLevel: fc.boolean(),
      garbage: fc.constantFrom(...GARBAGE_TEXT),
      contentType: fc.oneof({ weight: 4, arbitrary: fc.constant('application/json') }, { weight: 2, arbitrary: fc.constantFrom(...CONTENT_TYPES) }, { weight: 1, arbitrary: fc.constant(null) }),
      key: fc.constantFrom('sandbox', 'sandbox', 'sandbox', 'sandbox', 'live', 'none', 'garbage'),
      garbageAuth: fc.constantFrom('Bearer', 'Bearer ', 'Basic dXNlcjpwYXNz', 'Bearer sk_test_', 'Bearer sk_test_' + 'A'.repeat(31), 'Bearer sk_live_\u00e9\u00e9', 'bearer x y z', 'Bearer ' + 'A'.repeat(5000), 'Token sk_test_x'),
      idemHeader: fc.option(fc.constantFrom('', ' ', 'not-a-uuid', '00000000-0000-0000-0000-000000000000', 'x'.repeat(300), '\u00ff\u00fe'), { freq: 4 }),
      refId: fc.stringMatching(/^[A-Za-z0-9._:-]{1,24}$/),
      idem: fc.uuid(),
    })
    .map((g): Case => {
      const { route } = g;
      const method = g.methodChoice ?? route.method;
      const param = g.pathParam ?? (route.path.includes('{id}') ? ids.webhook! : route.path.includes('{request_id}') ? ids.request! : ids.reference!);
      const url0 = route.path.replace(/\{[^}]+\}/g, param) + g.pathTail;
      const pairs: Array<[string, string]> = [];
      let body: unknown;
      let depth: number | undefined;
      // A valid body with the generated reference and idempotency key, so a replay sends the same request.
      const valid = (): Record<string, unknown> => {
        const b = route.body?.() ?? {};
        if ('reference_id' in b) b.reference_id = g.refId;
        if ('idempotency_key' in b) b.idempotency_key = g.idem;
        if ('url' in b) b.url = HOOK_URL;
        return b;
      };
      if (route.method === 'GET' && route.body && g.bodyKind !== 'any') pairs.push(...validQuery(valid()));
      for (const [i, v] of g.fieldQuery) if (route.query.length) pairs.push([route.query[i % route.query.length]!, v]);
      pairs.push(...g.queryPairs);
      if (g.dupQuery && pairs.length) pairs.push(pairs[0]!);
      if (route.method === 'GET' && route.body && g.bodyKind === 'mutated') {
        for (const [i, v] of g.mutations) pairs.push([route.query[i % route.query.length]!, typeof v === 'string' ? encode(v) : encode(toJson(v ?? null))]);
      }
      const query = pairs.map(([k, v]) => `${k}=${v}`).join('&');
      const url = query ? `${url0}?${query}` : url0;

      let payload: string | undefined;
      switch (g.bodyKind) {
        case 'valid':
          body = route.body ? valid() : undefined;
          break;
        case 'mutated': {
          const members = Object.entries(route.body ? valid() : {});
          const fields = route.fields.length ? route.fields : ['reference_id'];
          for (const [i, v, asExtra] of g.mutations) {
            const name = asExtra ? g.extraKey : fields[i % fields.length]!;
            const at = members.findIndex(([k]) => k === name);
            if (v === undefined) {
              if (at >= 0) members.splice(at, 1);
            } else if (at >= 0 && !asExtra) members[at] = [name, v];
            else members.push([name, v]);
          }
          body = new Obj(members);
          break;
        }
        case 'any':
          body = g.anyBody;
          break;
        case 'deep':
          depth = g.deep.depth;
          body = g.deepTopLevel ? g.deep.raw : new Obj([...Object.entries(route.body ? valid() : {}), ['x', g.deep.raw]]);
          if (!g.deepTopLevel) depth += 1;
          break;
        case 'garbage':
          payload = g.garbage;
          break;
        case 'empty':
          payload = '';
          break;
      }
      if (body !== undefined) payload = toJson(body);
      const headers: Record<string, string> = {};
      if (payload !== undefined && g.contentType !== null) headers['content-type'] = g.contentType;
      if (g.key === 'garbage') headers.authorization = g.garbageAuth;
      if (g.idemHeader !== null) headers['idempotency-key'] = g.idemHeader;
      return { route, method, url, payload, headers, key: g.key as Case['key'], depth };
    });
}

// ---- what every answer must be ------------------------------------------------------------------------

function assertEnvelope(c: Case, r: Response): void {
  const b = r.body;
  assert.ok(b && typeof b === 'object' && !Array.isArray(b), `not a JSON object: ${r.text.slice(0, 300)}`);
  assert.deepEqual(Object.keys(b).sort(), ['data', 'message', 'ok', 'statuscode']);
  assert.ok(['TXN', 'TUP', 'ERR'].includes(b.statuscode), `statuscode ${b.statuscode}`);
  assert.equal(typeof b.ok, 'boolean');
  assert.equal(b.ok, b.statuscode !== 'ERR');
  assert.equal(typeof b.message, 'string');
  assert.ok(b.data && typeof b.data === 'object' && !Array.isArray(b.data), 'data is an object');
  if (r.status >= 400) {
    assert.equal(b.statuscode, 'ERR');
    assert.ok(Number.isInteger(b.data.Errorcode), 'Errorcode');
    assert.equal(b.data.Status, 'Failed');
    assert.equal(typeof b.data.Message, 'string');
    assert.equal(b.data.request_id, r.headers['x-request-id']);
    if (r.status === 422) {
      assert.ok(Array.isArray(b.data.errors) && b.data.errors.length > 0, '422 lists its fields');
      for (const e of b.data.errors) assert.ok(typeof e.field === 'string' && typeof e.message === 'string', JSON.stringify(e));
    }
  }
  // A body nested past the limit is never accepted where a body is read (Fastify reads none on GET or
  // HEAD, except the GET operation's, json-body.ts); at or under the limit depth is never the reason.
  const bodyRead = (c.method !== 'GET' && c.method !== 'HEAD') || c.url.startsWith('/api/v1/upi-payment/upi-payment-status');
  if (c.depth !== undefined && c.depth > 32 && bodyRead) assert.ok(r.status >= 400, `a ${c.depth}-deep body was accepted`);
  if (r.status === 400 && /deeper than/.test(b.message)) {
    assert.ok(c.depth !== undefined && c.depth > 32, 'refused for depth without being deep');
    assert.equal(b.data.Errorcode, 103);
  }
}

async function check(t: TestApp, c: Case, r: Response): Promise<void> {
  assert.ok(r.status < 500, `${r.status}: ${r.text.slice(0, 300)}`);
  const id = r.headers['x-request-id'];
  assert.ok(typeof id === 'string' && /^req_[0-9A-Za-z]{20}$/.test(id), `X-Request-Id ${String(id)}`);
  const type = String(r.headers['content-type'] ?? '');
  if (c.method === 'HEAD') assert.equal(r.text, '');
  else if (/^(text\/csv|application\/x-ndjson)/.test(type)) {
    // Only a successful audit export streams rows without the envelope.
    assert.equal(r.status, 200);
    assert.match(c.url, /^\/api\/v1\/audit-logs\/export\/?(\?|$)/);
  } else {
    assert.match(type, /^application\/json/);
    assertEnvelope(c, r);
  }
  const row = await t.store.db.selectFrom('audit_logs').select(['http_status']).where('request_id', '=', id).executeTakeFirst();
  assert.ok(row, `no audit row for ${id}`);
  assert.equal(row.http_status, r.status, 'the audit row records the status sent');
}

// ---- the run ----------------------------------------------------------------------------------------

type Described = Route & { query: string[]; fields: string[] };

/** The routes: the shared list, plus anything the served document has that the list lacks, with their fields. */
async function describeRoutes(t: TestApp): Promise<Described[]> {
  const doc = (await t.call('GET', '/openapi.json', { key: null })).body as {
    paths: Record<string, Record<string, { parameters?: Array<{ in: string; name: string }>; requestBody?: { content?: Record<string, { schema?: { properties?: object } }> } }>>;
  };
  const routes = new Map(ROUTES.map((r) => [`${r.method} ${r.path}`, r]));
  for (const [p, ms] of Object.entries(doc.paths)) {
    for (const m of Object.keys(ms)) if (p.startsWith('/api/v1/') && !routes.has(`${m.toUpperCase()} ${p}`)) routes.set(`${m.toUpperCase()} ${p}`, { method: m.toUpperCase(), path: p });
  }
  return [...routes.values()].map((r) => {
    const op = doc.paths[r.path]?.[r.method.toLowerCase()];
    const query = (op?.parameters ?? []).filter((x) => x.in === 'query').map((x) => x.name);
    const fields = Object.keys(op?.requestBody?.content?.['application/json']?.schema?.properties ?? {});
    return { ...r, query, fields: r.method === 'GET' ? query : fields };
  });
}

describe('fuzz: hostile requests to every /api/v1 route keep the contract', () => {
  let t: TestApp;
  let routes: Described[];
  let ids: Record<string, string>;
  const send = (c: Case) => t.call(c.method, c.url, { payload: c.payload, headers: c.headers, key: c.key === 'sandbox' ? t.key : c.key === 'live' ? t.liveKey : null });
  before(async () => {
    t = await startApp({ SANGAM_WEBHOOK_ALLOW_PRIVATE: '1', SANGAM_WEBHOOK_RETRY_SCHEDULE: '3600' });
    routes = await describeRoutes(t);
    // Real handles for the path parameters, so some requests reach past "not found".
    const hook = await t.call('POST', '/api/v1/webhook-endpoints', { body: { url: HOOK_URL } });
    const op = await t.call('POST', '/api/v1/mobile-recharge/recharge-commission', { body: ROUTES.find((r) => r.path.endsWith('recharge-commission'))!.body!() });
    assert.equal(hook.status, 200, hook.text);
    ids = { webhook: hook.body.data.id as string, request: String(op.headers['x-request-id']), reference: op.body.data.reference_id as string };
  });
  after(() => t.close());

  it('every route answers every method, with or without a key, and refuses a body one level past the limit', async () => {
    for (const route of routes) {
      const url = route.path.replace('{id}', ids.webhook!).replace('{request_id}', ids.request!).replace('{reference_id}', ids.reference!);
      for (const method of ODD_METHODS) {
        for (const key of ['sandbox', 'none'] as const) {
          const c: Case = { route, method, url, headers: {}, key };
          const r = await send(c);
          await check(t, c, r);
          if (r.status === 405) assert.ok(String(r.headers.allow ?? '').includes(route.method), `${method} ${url}: Allow ${String(r.headers.allow)}`);
        }
      }
      if (route.method === 'GET' && !route.body) continue;
      // Body and the value under "x" together: 33 levels is one too many, 32 is fine.
      for (const depth of [32, 33]) {
        const body = { ...(route.body?.() ?? {}), ...(route.path.startsWith('/api/v1/webhook-endpoints') ? { url: HOOK_URL } : {}) };
        const payload = `${JSON.stringify(body).slice(0, -1)}${Object.keys(body).length ? ',' : ''}"x":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;
        const c: Case = { route, method: route.method, url, payload, headers: { 'content-type': 'application/json' }, key: 'sandbox', depth };
        const r = await send(c);
        await check(t, c, r);
        if (depth === 33 && !r.text.includes('"errors"')) assert.equal(r.status, 400, `${route.method} ${url}: ${r.text}`);
        if (depth === 32) assert.doesNotMatch(r.text, /deeper than/);
      }
    }
  });

  const FUZZ_SECONDS = Number(process.env.FUZZ_SECONDS ?? 45);
  it(`${RUNS} hostile requests: no 5xx, always the envelope and the request id, always an audit row`, async (ctx) => {
    const statuses = new Map<number, number>();
    let requests = 0;
    const started = Date.now();
    ctx.diagnostic(`FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS} routes=${routes.length} store=${t.store.kind}`);
    await fc.assert(
      fc.asyncProperty(caseArb(routes, ids), async (c) => {
        const r = await send(c);
        requests++;
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        await check(t, c, r);
      }),
      // A loaded machine runs fewer of the requests rather than more minutes (FUZZ_SECONDS, default 45;
      // the long run sets it high); how many ran is in the diagnostics.
      { numRuns: RUNS, seed: SEED, includeErrorInReport: true, interruptAfterTimeLimit: FUZZ_SECONDS * 1000, markInterruptAsFailure: false },
    );
    const histogram = [...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}:${n}`).join(' ');
    ctx.diagnostic(`runs=${RUNS} requests=${requests} seconds=${((Date.now() - started) / 1000).toFixed(1)} statuses ${histogram}`);
    // The server is still whole after all that.
    assert.equal((await t.call('GET', '/api/v1/account/wallet')).status, 200);
  });
});
