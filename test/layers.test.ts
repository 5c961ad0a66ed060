// The house rule (docs/ARCHITECTURE.md, "Layers"): a module imports only from its own room or a lower
// one, type imports included, and no import circle exists in src/. Reads the TypeScript sources (not
// the build), so it judges what a reader sees.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { circles, relativeImports } from './import-circles.js';

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
  // The top: wiring, route registrars (a room's HTTP face), and the programs.
  ['services', 'app', 'server', 'cli', 'cluster', 'admin', 'console', 'partner-sim', 'routes'],
];

/** The room of a source file (relative to src/, with .ts). */
export function roomOf(file: string): string {
  const parts = file.split('/');
  if (parts.length === 1) return parts[0]!.replace(/\.ts$/, '');
  if (parts.at(-1) === 'routes.ts' || parts.slice(1, -1).includes('routes')) return 'routes';
  if (file === 'catalog/preflight.ts') return 'catalog/preflight';
  return parts[0]!;
}

const rank = new Map(LAYERS.flatMap((rooms, i) => rooms.map((r) => [r, i] as const)));

function sources(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sources(full);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') && !e.name.endsWith('.d.ts') ? [path.relative(SRC, full)] : [];
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
    assert.equal(roomOf('webhooks/routes/endpoints.ts'), 'routes');
    assert.equal(roomOf('operations/name-match/handler.ts'), 'operations');
    assert.ok(rank.get('providers')! < rank.get('operations')!);
  });
});
