// Every function in src/, shared/ and partner-sim/ fits on a screen: no function, method or arrow
// function runs over 70 lines (TigerBeetle's rule, docs/ARCHITECTURE.md). It reads the sources with the
// TypeScript compiler, so a nested function counts on its own and also inside the one that holds it. A function that has a
// reason to be longer is named in ALLOWED with that reason; a name there that is no longer long fails
// too, so the list only shrinks.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MAX_LINES = 70;

/** `file:function` (file relative to the repository root) → why it may be longer than MAX_LINES. */
const ALLOWED: Record<string, string> = {
};

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(full));
    else if (/(?<!\.d|\.test)\.ts$/.test(entry.name)) out.push(full);
  }
  return out;
}

function propertyName(name: ts.PropertyName | ts.BindingName, file: ts.SourceFile): string {
  return ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isPrivateIdentifier(name)
    ? name.text
    : name.getText(file);
}

/** A readable name for an arrow or function expression, from where it stands. */
function contextName(node: ts.Node, file: ts.SourceFile): string {
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) {
    return propertyName(parent.name, file);
  }
  if (ts.isCallExpression(parent)) {
    const callee = parent.expression.getText(file).replace(/\s+/g, '');
    const label = parent.arguments.find((a) => ts.isStringLiteralLike(a));
    return label ? `${callee} ${(label as ts.StringLiteralLike).text}` : `${callee}(…)`;
  }
  return `<anonymous>`;
}

function functionName(node: ts.FunctionLikeDeclaration, file: ts.SourceFile): string {
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const own = node.name ? propertyName(node.name, file) : contextName(node, file);
  let holder: ts.Node | undefined = node.parent;
  while (holder && !ts.isClassLike(holder) && !ts.isSourceFile(holder)) holder = holder.parent;
  return holder && ts.isClassLike(holder) && holder.name && !ts.isArrowFunction(node) && !ts.isFunctionExpression(node)
    ? `${holder.name.text}.${own}`
    : own;
}

interface Long {
  key: string;
  lines: number;
}

function longFunctions(full: string): Long[] {
  const text = readFileSync(full, 'utf8');
  const file = ts.createSourceFile(full, text, ts.ScriptTarget.Latest, true);
  const rel = path.relative(ROOT, full).split(path.sep).join('/');
  const out: Long[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
      const end = file.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = end - start + 1;
      if (lines > MAX_LINES) out.push({ key: `${rel}:${functionName(node as ts.FunctionLikeDeclaration, file)}`, lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

describe('function length', () => {
  const found = ['src', 'shared', 'partner-sim'].flatMap((dir) => sourceFiles(path.join(ROOT, dir))).flatMap(longFunctions);

  it(`no function in src/, shared/ or partner-sim/ is longer than ${MAX_LINES} lines unless it is allowed with a reason`, () => {
    const over = found.filter((f) => !(f.key in ALLOWED)).map((f) => `${f.key} (${f.lines} lines)`);
    assert.deepEqual(over, [], `functions over ${MAX_LINES} lines:\n  ${over.join('\n  ')}`);
  });

  it('every allowed function is still long (the allow-list only shrinks)', () => {
    const stale = Object.keys(ALLOWED).filter((key) => !found.some((f) => f.key === key));
    assert.deepEqual(stale, [], `no longer over ${MAX_LINES} lines, remove from ALLOWED:\n  ${stale.join('\n  ')}`);
  });
});
