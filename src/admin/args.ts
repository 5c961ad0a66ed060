// Owns parsing a CLI verb's arguments (node:util parseArgs, strict) and the usage error every verb
// throws for bad arguments (exit 2, with the usage text: admin/run.ts).
import { parseArgs } from 'node:util';

export class UsageError extends Error {}

/** Parses `args` against `options`, allowing up to `positionals` positional arguments. Errors: UsageError. */
export function opts<T extends Record<string, { type: 'string' | 'boolean' }>>(args: string[], options: T, positionals = 0) {
  let parsed;
  try {
    parsed = parseArgs({ args, options, allowPositionals: positionals > 0, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (parsed.positionals.length > positionals) throw new UsageError(`unexpected argument ${parsed.positionals[positionals]}`);
  return parsed;
}

/** Errors: UsageError naming the first missing option. */
export function required(values: Record<string, unknown>, ...names: string[]): void {
  for (const n of names) if (values[n] === undefined) throw new UsageError(`--${n} is required`);
}
