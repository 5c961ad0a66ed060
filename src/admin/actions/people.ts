// Owns who a maker-checker action names: the person behind an actor (a console user, or the CLI
// acting as one with --as), the check that a person is an admin console user, and the trimmed,
// bounded free text (reasons, evidence) such actions record. Attention resolutions and go-live
// decisions both use them.
import type { Trx } from '../../db/transaction.js';
import { ApiError } from '../../errors.js';
import type { Actor } from './run.js';

/** The person behind an actor, for maker-checker; null for the anonymous CLI and API keys. */
export const personOf = (actor: Actor): string | null => (actor.startsWith('console:') || actor.startsWith('cli:') ? actor.slice(actor.indexOf(':') + 1).toLowerCase() : null);

/** Errors: forbidden (no person named, or not an admin console user). */
export async function requireAdminPerson(trx: Trx, actor: Actor, what: string): Promise<string> {
  const person = personOf(actor);
  if (!person) throw new ApiError('forbidden', `${what} needs a named admin (the console, or the CLI with --as EMAIL)`);
  const user = await trx.selectFrom('console_users').select('is_admin').where('email', '=', person).executeTakeFirst();
  if (!user?.is_admin) throw new ApiError('forbidden', `${person} is not an admin console user`);
  return person;
}

/** Errors: validation (the field, with what is wrong). */
export function boundedText(field: string, value: string | undefined, max: number, required: boolean): string {
  const v = (value ?? '').trim();
  if (required && !v) throw ApiError.validation([{ field, message: `${field} must not be empty` }]);
  if (v.length > max) throw ApiError.validation([{ field, message: `${field} must be at most ${max} characters` }]);
  return v;
}
