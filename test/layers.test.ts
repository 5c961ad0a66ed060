// The house rule (docs/ARCHITECTURE.md, "Layers"): a module imports only from its own room or a lower
// one, type imports included, and no import circle exists in src/; every HTTP route is registered under
// src/routes/ (the one routes tree); beside src/, the emulators (partner-sim/) import nothing of src/,
// what both share (shared/) imports neither, and the server loads the emulators only on demand. Reads
// the TypeScript sources (not the build), so it judges what a reader sees.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { circles, relativeImports } from './import-circles.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SRC = path.join(ROOT, 'src');

/** From the bottom up. A room is a top-level folder or file of src/, or one of the finer names below. */
export const LAYERS: string[][] = [
  ['errors', 'ids', 'money', 'canonical', 'config', 'tracing', 'polling-loop', 'undici', 'cooperative', 'csv'],
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
  ['services', 'app', 'server', 'cli', 'cluster', 'admin', 'console', 'routes'],
];

/** The room of a source file (relative to src/, with .ts). */
export function roomOf(file: string): string {
  const parts = file.split('/');
  if (parts.length === 1) return parts[0]!.replace(/\.ts$/, '');
  if (file === 'catalog/preflight.ts') return 'catalog/preflight';
  return parts[0]!;
}

const rank = new Map(LAYERS.flatMap((rooms, i) => rooms.map((r) => [r, i] as const)));

/** The TypeScript files under `root` (relative to it), tests included only when asked. */
export function sources(root = SRC, tests = false, dir = root): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : sources(root, tests, full);
    return e.name.endsWith('.ts') && (tests || !e.name.endsWith('.test.ts')) && !e.name.endsWith('.d.ts') ? [path.relative(root, full)] : [];
  });
}

/** Each source file's relative imports within src/ (type-only ones included). */
export function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sources()) {
    const text = readFileSync(path.join(SRC, file), 'utf8');
    const targets = relativeImports(text).map((m) => path.normalize(path.join(path.dirname(file), m)).replace(/\.js$/, '.ts'));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** A static import or export `from` a relative path: its target, and whether it is `import type` (erased at run time). */
const STATIC = /(?:^|\n)\s*(?:import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]/g;
const DYNAMIC = /\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

/** Every relative import of the files under `dir` (a folder of the repository), tests included, as repository paths. */
function importsUnder(dir: string): Array<{ file: string; target: string; typeOnly: boolean; dynamic: boolean }> {
  return sources(path.join(ROOT, dir), true).flatMap((f) => {
    const file = path.join(dir, f);
    const text = readFileSync(path.join(ROOT, file), 'utf8');
    const to = (spec: string) => path.normalize(path.join(path.dirname(file), spec));
    return [
      ...[...text.matchAll(STATIC)].map((m) => ({ file, target: to(m[2]!), typeOnly: m[1] !== undefined, dynamic: false })),
      ...[...text.matchAll(DYNAMIC)].map((m) => ({ file, target: to(m[1]!), typeOnly: false, dynamic: true })),
    ];
  });
}

const under = (target: string, ...dirs: string[]) => dirs.some((d) => target.startsWith(`${d}/`));

describe('emulators apart: partner-sim/ and shared/ beside src/ (docs/ARCHITECTURE.md, "Layers")', () => {
  it('no file under partner-sim/ imports from src/', () => {
    const found = importsUnder('partner-sim').filter((i) => under(i.target, 'src'));
    assert.deepEqual(found.map((i) => `${i.file} → ${i.target}`), []);
  });

  it('no file under shared/ imports from src/ or partner-sim/', () => {
    const found = importsUnder('shared').filter((i) => under(i.target, 'src', 'partner-sim'));
    assert.deepEqual(found.map((i) => `${i.file} → ${i.target}`), []);
  });

  it('the server loads the emulators only for `sangam partner-sim` (admin/partner-sim.ts, on demand)', () => {
    const imports = importsUnder('src').filter((i) => !i.file.endsWith('.test.ts') && under(i.target, 'partner-sim'));
    const loaded = imports.filter((i) => !i.typeOnly && !(i.dynamic && i.file === 'src/admin/partner-sim.ts'));
    assert.deepEqual(loaded.map((i) => `${i.file} → ${i.target}`), []);
    assert.ok(imports.some((i) => i.dynamic), 'admin/partner-sim.ts loads the emulators with import()');
    const cli = importsUnder('src').filter((i) => i.file === 'src/cli.ts' && i.target === 'src/admin/partner-sim.js');
    assert.deepEqual(cli.map((i) => i.dynamic), [true], 'src/cli.ts imports admin/partner-sim.ts on demand only');
  });
});

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

/** The lines of a source text (relative to src/) that register a route, as `file:line: text`. */
export function registrations(file: string, text: string): string[] {
  return text.split('\n').flatMap((line, i) => (REGISTRATION.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : []));
}

describe('one routes tree: every HTTP route is registered under src/routes/', () => {
  it('no module outside src/routes/ registers a route', () => {
    // No exception: app.ts only calls routes/index.ts (the emulators' own servers are partner-sim/, beside src/).
    const outside = sources()
      .filter((file) => roomOf(file) !== 'routes')
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
