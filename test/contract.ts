// Owns the response contract check of the test suite: every answer an app built by the harness sends
// is checked against the document that app serves at /openapi.json, with Ajv in its default strict
// mode on JSON Schema 2020-12 (the dialect of OpenAPI 3.1). An answer breaks the contract when its
// status is not declared for its path and method (nor covered by `4XX` or `default`), when its content
// type is not declared, when a JSON body does not match the declared schema, or when a header the
// response declares as required is missing.
// Only documented routes are checked: hidden ones (/health, the console, partner callbacks), a method
// the document does not list for a path (HEAD, a 405) and unrouted URLs are counted, not judged.
// Streamed bodies (the audit export) are checked for status, type and headers only.
// SANGAM_CONTRACT_STRICT=0 records violations without failing (for debugging); the default fails.
// Observed (method, path, status) triples and any violations go to
// test-artifacts/contract-coverage/<pid>.json for scripts/contract-coverage.mjs to summarise.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

type Json = Record<string, unknown>;
interface Doc {
  paths: Record<string, Record<string, Json>>;
  components?: { schemas?: Record<string, Json> };
}

export const CONTRACT_STRICT = process.env.SANGAM_CONTRACT_STRICT !== '0';

/** Keywords of the OpenAPI 3.1 base vocabulary, annotations for a JSON Schema validator. */
const OAS_KEYWORDS = ['example', 'xml', 'externalDocs'];
const COMPONENTS_ID = 'sangam:components';

function walk(node: unknown, visit: (obj: Json) => void): void {
  if (Array.isArray(node)) node.forEach((n) => walk(n, visit));
  else if (node && typeof node === 'object') {
    visit(node as Json);
    Object.values(node).forEach((n) => walk(n, visit));
  }
}

/**
 * A 2020-12 Ajv in default strict mode, knowing the document's `x-` extension keywords as annotations.
 * allowUnionTypes: OpenAPI 3.1 writes a nullable value as a type list (`type: ['string', 'null']`), which
 * strict mode accepts but logs about unless told it is meant.
 */
export function strictAjv(doc: object, logger?: { log: (...a: unknown[]) => void; warn: (...a: unknown[]) => void; error: (...a: unknown[]) => void }): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, allowUnionTypes: true, ...(logger ? { logger } : {}) });
  addFormats.default(ajv);
  const extensions = new Set<string>();
  walk(doc, (o) => Object.keys(o).forEach((k) => k.startsWith('x-') && extensions.add(k)));
  ajv.addVocabulary([...OAS_KEYWORDS, ...extensions]);
  const schemas = (doc as Doc).components?.schemas;
  if (schemas) ajv.addSchema({ $id: COMPONENTS_ID, $defs: rewriteRefs(schemas) });
  return ajv;
}

/** `#/components/schemas/X` → the registered components schema, so each schema compiles on its own. */
export function rewriteRefs<T>(schema: T): T {
  const copy = structuredClone(schema);
  walk(copy, (o) => {
    if (typeof o.$ref === 'string' && o.$ref.startsWith('#/components/schemas/')) o.$ref = `${COMPONENTS_ID}#/$defs/${o.$ref.slice('#/components/schemas/'.length)}`;
  });
  return copy;
}

/** The response object that declares `status`: exact, then `4XX`-style, then `default`. */
export function declaredResponse(responses: Record<string, Json> | undefined, status: number): Json | undefined {
  const r = responses ?? {};
  return r[String(status)] ?? r[`${Math.floor(status / 100)}XX`] ?? r[`${Math.floor(status / 100)}xx`] ?? r.default;
}

export interface Answer {
  method: string;
  /** The Fastify route pattern (`/a/:id`), undefined when unrouted. */
  route: string | undefined;
  status: number;
  headers: Record<string, unknown>;
  /** The serialised body; undefined for a stream. */
  body: string | undefined;
}

export class Contract {
  readonly ajv: Ajv2020;
  private readonly validators = new Map<string, ValidateFunction>();
  constructor(readonly doc: Doc) {
    this.ajv = strictAjv(doc);
  }

  /** The document's path for a Fastify route pattern, if documented. */
  docPath(route: string | undefined): string | undefined {
    if (!route) return undefined;
    const p = route.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\/$/, '') || '/';
    return this.doc.paths[p] ? p : undefined;
  }

  /** A response or header object, following a `#/components/...` reference. */
  private deref(o: Json | undefined): Json | undefined {
    for (let i = 0; i < 10 && typeof o?.$ref === 'string'; i++) {
      o = (o.$ref as string).slice(2).split('/').reduce<unknown>((n, k) => (n as Json | undefined)?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], this.doc) as Json | undefined;
    }
    return o;
  }

  private validator(key: string, schema: object): ValidateFunction {
    let v = this.validators.get(key);
    if (!v) this.validators.set(key, (v = this.ajv.compile(rewriteRefs(schema))));
    return v;
  }

  /** Problems with one answer (empty when it keeps the contract), or undefined when its route is not documented. */
  check(a: Answer): string[] | undefined {
    const p = this.docPath(a.route);
    const op = p ? this.doc.paths[p]?.[a.method.toLowerCase()] : undefined;
    if (!p || !op) return undefined;
    const declared = this.deref(declaredResponse(op.responses as Record<string, Json> | undefined, a.status));
    if (!declared) return [`status ${a.status} is not declared`];
    const problems: string[] = [];
    for (const [name, h] of Object.entries((declared.headers ?? {}) as Record<string, Json>)) {
      if (this.deref(h)?.required === true && a.headers[name.toLowerCase()] === undefined) problems.push(`required header ${name} is missing`);
    }
    const content = declared.content as Record<string, Json> | undefined;
    const type = String(a.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    const empty = a.body !== undefined && a.body.length === 0;
    if (!content) {
      if (!empty && a.method !== 'HEAD') problems.push(`a ${type || 'untyped'} body is sent but the ${a.status} response declares no content`);
      return problems;
    }
    const mediaKey = content[type] ? type : content[`${type.split('/')[0]}/*`] ? `${type.split('/')[0]}/*` : content['*/*'] ? '*/*' : undefined;
    if (!mediaKey) return [...problems, `content type "${type}" is not declared (declared: ${Object.keys(content).join(', ')})`];
    const schema = content[mediaKey]!.schema as object | undefined;
    if (!schema || a.body === undefined || !/[/+]json$/.test(type)) return problems;
    let data: unknown;
    try {
      data = JSON.parse(a.body);
    } catch {
      return [...problems, `the ${type} body is not JSON`];
    }
    const validate = this.validator(`${p} ${a.method} ${a.status} ${mediaKey}`, schema);
    if (!validate(data)) problems.push(`body does not match the schema: ${this.ajv.errorsText(validate.errors?.slice(0, 5), { dataVar: 'body' })}`);
    return problems;
  }
}

// ---- one contract per served document, and the process's record ----------------------------------------

const contracts = new Map<string, Contract>();
function contractFor(docText: string): Contract {
  let c = contracts.get(docText);
  if (!c) contracts.set(docText, (c = new Contract(JSON.parse(docText) as Doc)));
  return c;
}

export interface Violation {
  method: string;
  path: string;
  status: number;
  requestId: string;
  problems: string[];
}

const observed = new Map<string, number>();
const violations: Violation[] = [];
let skipped = 0;

export const describeViolation = (v: Violation) => `contract violation: ${v.method} ${v.path} → ${v.status} (${v.requestId}): ${v.problems.join('; ')}`;

process.on('exit', () => {
  if (observed.size === 0 && violations.length === 0) return;
  const dir = path.join(process.cwd(), 'test-artifacts', 'contract-coverage');
  mkdirSync(dir, { recursive: true });
  const file = path.basename(process.argv[1] ?? 'unknown');
  writeFileSync(
    path.join(dir, `${process.pid}.json`),
    JSON.stringify({ file, observed: Object.fromEntries(observed), skipped, violations }, null, 1),
  );
  if (violations.length) process.stderr.write(`${violations.length} contract violation(s) in ${file}${CONTRACT_STRICT ? '' : ' (SANGAM_CONTRACT_STRICT=0: recorded, not failed)'}\n`);
});

/** What the harness keeps per app: violations not yet reported to a test. */
export interface ContractWatch {
  /** The violation of the answer with this request id, taken off the pending list. */
  take(requestId: string): Violation | undefined;
  /** Violations no request helper has reported (answers to direct inject or socket clients). */
  pending(): Violation[];
}

/**
 * Adds the contract hook to an app before it is ready; `ready()` loads the app's own document once it is.
 * Must be called before app.ready().
 */
export function watchContract(app: FastifyInstance): { watch: ContractWatch; ready: () => Promise<void> } {
  let contract: Contract | undefined;
  const mine = new Map<string, Violation>();
  app.addHook('onSend', async (req, reply, payload) => {
    if (!contract) return payload;
    const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : payload == null ? '' : undefined;
    const answer: Answer = { method: req.method, route: req.routeOptions.url, status: reply.statusCode, headers: reply.getHeaders(), body };
    const problems = contract.check(answer);
    if (problems === undefined) {
      skipped++;
      return payload;
    }
    const p = contract.docPath(answer.route)!;
    const key = `${req.method} ${p} ${reply.statusCode}`;
    observed.set(key, (observed.get(key) ?? 0) + 1);
    if (problems.length) {
      const v = { method: req.method, path: p, status: reply.statusCode, requestId: String(req.id), problems };
      violations.push(v);
      mine.set(v.requestId, v);
    }
    return payload;
  });
  return {
    watch: {
      take(id) {
        const v = mine.get(id);
        mine.delete(id);
        return v;
      },
      pending: () => [...mine.values()],
    },
    ready: async () => {
      const res = await app.inject({ method: 'GET', url: '/openapi.json' });
      contract = contractFor(res.body);
    },
  };
}
