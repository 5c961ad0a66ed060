// Owns the one text rule every route shares (docs/RELIABILITY.md, "Hostile input"): no string, object
// key, query value or path parameter may hold U+0000 or an unpaired UTF-16 surrogate, and a JSON body
// may nest at most MAX_DEPTH levels. PostgreSQL's text and jsonb cannot store the first, and no
// upstream would accept it; the second would cost unbounded recursion wherever a body is walked
// (hashing, redaction). Such a request is refused before any handler runs: 422 naming the field, or
// 400 for the depth. The walk is iterative, so a hostile body cannot overflow the stack here either.
// Text this guard does not see parsed (a batch upload's NDJSON rows) is held to the same depth by
// tooDeep, on the text before it is parsed.
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';

export const MAX_DEPTH = 32;

/** A NUL, a high surrogate not followed by a low one, or a low surrogate not preceded by a high one. */
const BAD_TEXT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export const isCleanText = (s: string): boolean => !BAD_TEXT.test(s);

const BAD_TEXT_MESSAGE = 'must not contain NUL (U+0000) or unpaired UTF-16 surrogate characters';

/**
 * Whether JSON text nests deeper than `max` levels, found in one pass over the text before it is
 * parsed, so a hostile text (10,000 levels in 20 kB) costs no recursion anywhere: the top-level key
 * holding the deep value (null when the deep value is the text itself, or an array), or undefined when
 * the text stays within `max`. Text that is not JSON is left to the parser.
 */
export function tooDeep(text: string, max = MAX_DEPTH): { field: string | null } | undefined {
  let depth = 0;
  let topIsObject = false;
  let key: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const start = i;
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c /* \ */) i++;
      if (depth === 1 && topIsObject) key = text.slice(start, i + 1);
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (depth === 0) topIsObject = c === 0x7b;
      if (++depth > max) return { field: topIsObject && key !== null ? keyText(key) : null };
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) depth--;
  }
  return undefined;
}

/** A key's text from its JSON literal (as written, when it does not decode). */
function keyText(literal: string): string {
  try {
    return String(JSON.parse(literal));
  } catch {
    return literal.slice(1, -1);
  }
}

/** The dotted path of the first string or key in `value` that breaks the rule, or null. */
function findBadText(value: unknown, root: string | null): { field: string; key: boolean } | { depth: true } | null {
  const stack: Array<[unknown, string | null, number]> = [[value, root, 0]];
  while (stack.length > 0) {
    const [v, path, depth] = stack.pop()!;
    if (typeof v === 'string') {
      if (!isCleanText(v)) return { field: path ?? 'body', key: false };
    } else if (v !== null && typeof v === 'object') {
      if (depth >= MAX_DEPTH) return { depth: true };
      const entries = Array.isArray(v) ? v.map((x, i) => [String(i), x] as const) : Object.entries(v);
      for (const [k, x] of entries) {
        if (!isCleanText(k)) return { field: path ?? 'body', key: true };
        stack.push([x, path ? `${path}.${k}` : k, depth + 1]);
      }
    }
  }
  return null;
}

function check(value: unknown, root: string | null): void {
  const bad = findBadText(value, root);
  if (!bad) return;
  if ('depth' in bad) throw new ApiError('invalid_json', `Request body nests deeper than ${MAX_DEPTH} levels`);
  const field = bad.field;
  throw ApiError.validation([{ field, message: bad.key ? `a key inside ${field} ${BAD_TEXT_MESSAGE}` : `${field} ${BAD_TEXT_MESSAGE}` }]);
}

/** preHandler for every route: runs after the body is parsed and before any handler reads it. */
export async function inputGuard(req: FastifyRequest): Promise<void> {
  check(req.params, null);
  check(req.query, null);
  if (req.body !== undefined) check(req.body, null);
}
