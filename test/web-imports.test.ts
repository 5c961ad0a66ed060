// The console's sources (web/src) have no import circle, type imports included: a type two modules
// share lives in a module of its own (web/src/session.ts), never in the module that renders the other.
// Reads the TypeScript sources, as layers.test.ts does for src/.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { circles, relativeImports } from './import-circles.js';

const WEB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/src');

function sources(dir = WEB): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sources(full);
    return /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') ? [path.relative(WEB, full)] : [];
  });
}

/** The module an extensionless specifier names, as the bundler resolves it (a stylesheet is none). */
function resolve(from: string, specifier: string): string | null {
  const base = path.normalize(path.join(path.dirname(from), specifier));
  return ['', '.ts', '.tsx', '/index.ts', '/index.tsx'].map((ext) => base + ext).find((f) => /\.tsx?$/.test(f) && existsSync(path.join(WEB, f))) ?? null;
}

describe('web/src: no import circle', () => {
  const graph = new Map<string, string[]>();
  for (const file of sources()) {
    const targets = relativeImports(readFileSync(path.join(WEB, file), 'utf8')).flatMap((s) => resolve(file, s) ?? []);
    graph.set(file, [...new Set(targets)]);
  }

  it('reads the console: main.tsx imports its pages and the session type', () => {
    assert.ok(graph.get('main.tsx')?.includes(path.join('pages', 'keys.tsx')));
    assert.ok(graph.get(path.join('pages', 'keys.tsx'))?.includes('session.ts'));
  });

  it('has no import circle', () => {
    const found = circles(graph);
    assert.deepEqual(found, [], `import circles:\n${found.map((c) => c.join(' ↔ ')).join('\n')}`);
  });
});
