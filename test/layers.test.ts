// The house rule (docs/ARCHITECTURE.md, "Layers"): a module imports only from its own room or a lower
// one, type imports included, and no import circle exists in src/; and every HTTP route is registered
// under src/routes/ (the one routes tree). Reads the TypeScript sources (not the build), so it judges
// what a reader sees.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src');

/** From the bottom up. A room is a top-level folder or file of src/, or one of the finer names below. */
export const LAYERS: string[][] = [
  ['errors', 'ids', 'money', 'canonical', 'config', 'polling-loop', 'undici', 'cooperative', 'csv'],
  ['db'],
  ['metrics', 'catalog', 'contract', 'namematch', 'access', 'idempotency'],
  ['audit', 'ledger', 'accounts', 'webhooks'],
  ['http', 'providers'],
  ['transactions', 'catalog/preflight', 'consents', 'golive'],
  ['settlement', 'float'],
  ['attention'],
  ['operations'],
  // Batches run rows through the operations' runners (handed in by app.ts).
  ['batches'],
  // The top: wiring, the routes tree (every HTTP route), and the programs.
  ['services', 'app', 'server', 'cli', 'cluster', 'admin', 'console', 'partner-sim', 'routes'],
];

/** The room of a source file (relative to src/, with .ts). */
export function roomOf(file: string): string {
  const parts = file.split('/');
  if (parts.length === 1) return parts[0]!.replace(/\.ts$/, '');
  if (file === 'catalog/preflight.ts') return 'catalog/preflight';
  return parts[0]!;
}

const rank = new Map(LAYERS.flatMap((rooms, i) => rooms.map((r) => [r, i] as const)));

export function sources(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sources(full);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') && !e.name.endsWith('.d.ts') ? [path.relative(SRC, full)] : [];
  });
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]/g;

/** Each source file's relative imports within src/ (type-only ones included). */
export function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sources()) {
    const text = readFileSync(path.join(SRC, file), 'utf8');
    const targets = [...text.matchAll(IMPORT)].map((m) => path.normalize(path.join(path.dirname(file), m[1]!)).replace(/\.js$/, '.ts'));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** The import circles of a graph (Tarjan's strongly connected components of more than one file, or a self-import). */
export function circles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || graph.get(v)!.includes(v)) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('layers: the import rule of docs/ARCHITECTURE.md', () => {
  const graph = importGraph();

  it('knows every room of src/', () => {
    const unknown = [...new Set([...graph.keys()].map(roomOf))].filter((r) => !rank.has(r));
    assert.deepEqual(unknown, [], `rooms without a layer in test/layers.test.ts: ${unknown.join(', ')}`);
  });

  it('no module imports a higher room, type imports included', () => {
    const upward: string[] = [];
    for (const [file, targets] of graph) {
      for (const target of targets) {
        const [from, to] = [roomOf(file), roomOf(target)];
        if (from !== to && rank.get(to)! > rank.get(from)!) upward.push(`${file} → ${target} (${from} imports ${to})`);
      }
    }
    assert.deepEqual(upward, [], `upward imports:\n${upward.join('\n')}`);
  });

  it('has no import circle', () => {
    const found = circles(graph);
    assert.deepEqual(found, [], `import circles:\n${found.map((c) => c.join(' ↔ ')).join('\n')}`);
  });

  it('finds a circle and an upward import when there is one (the checks themselves)', () => {
    assert.deepEqual(circles(new Map([['a.ts', ['b.ts']], ['b.ts', ['a.ts']], ['c.ts', ['a.ts']]])), [['a.ts', 'b.ts']]);
    assert.equal(roomOf('routes/api/v1/webhook-endpoints/endpoints.ts'), 'routes');
    assert.equal(roomOf('webhooks/endpoints.ts'), 'webhooks');
    assert.equal(roomOf('operations/name-match/handler.ts'), 'operations');
    assert.ok(rank.get('providers')! < rank.get('operations')!);
  });
});

/**
 * A route registration: a Fastify route method called on an instance (`app`, `api`, `scope`, `adminApi`,
 * `fastify`, `instance`, `server`: the names this code base gives one), or a plugin that serves routes
 * of its own (Swagger UI, static files) registered.
 */
export const REGISTRATION = /\b(?:app|api|scope|adminApi|fastify|instance|server)\s*\.\s*(?:get|head|post|put|delete|patch|options|all|route)\s*[<(]|\.register\(\s*(?:swaggerUi|fastifyStatic)\b/;

/**
 * Files outside src/routes/ that may register routes, each with its reason. partner-sim/ is another
 * program (the partner emulators, `sangam partner-sim`), whose servers are not Sangam's API.
 */
const ROUTES_ELSEWHERE: Record<string, string> = { 'partner-sim/': 'the partner emulators: their own servers, not Sangam\'s' };

/** The lines of a source text (relative to src/) that register a route, as `file:line: text`. */
export function registrations(file: string, text: string): string[] {
  return text.split('\n').flatMap((line, i) => (REGISTRATION.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : []));
}

describe('one routes tree: every HTTP route is registered under src/routes/', () => {
  it('no module outside src/routes/ registers a route', () => {
    const outside = sources()
      .filter((file) => roomOf(file) !== 'routes' && !Object.keys(ROUTES_ELSEWHERE).some((prefix) => file.startsWith(prefix)))
      .flatMap((file) => registrations(file, readFileSync(path.join(SRC, file), 'utf8')));
    assert.deepEqual(outside, [], `route registrations outside src/routes/ (move them into the routes tree):\n${outside.join('\n')}`);
  });

  it('finds a registration when there is one (the check itself)', () => {
    assert.equal(registrations('x.ts', "  app.get('/health', { schema: { hide: true } }, handler);").length, 1);
    assert.equal(registrations('x.ts', "  scope.post<{ Params: { name: string } }>('/partners/:name/webhooks', opts, h);").length, 1);
    assert.equal(registrations('x.ts', '  api.route({ method, url });').length, 1);
    assert.equal(registrations('x.ts', "  await app.register(swaggerUi, { routePrefix: '/docs' });").length, 1);
    assert.equal(registrations('x.ts', '  const v = this.cache.get(key); app.addHook(\'onRequest\', f); await app.register(cookie);').length, 0);
  });
});
