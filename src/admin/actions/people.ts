// Owns who a maker-checker action names, and the rule every maker-checker check applies: the person
// behind an actor (a console user, or the CLI acting as one with --as), the check that a person is an
// admin console user whose admin rights are in effect (a new admin made from the console waits for a
// second admin's approval: users.ts), the checker rule, and the trimmed, bounded free text (reasons,
// evidence) such actions record. Attention resolutions, go-live decisions and admin approvals use them.
//
// The checker rule (issue #37: one admin could make a second admin and approve their own proposal):
// people are compared by console user id, never by e-mail; and a checker's admin rights must have
// been in effect before the thing checked was proposed, so no admin made after a proposal can check it.
import type { Trx } from '../../db/transaction.js';
import { ApiError } from '../../errors.js';
import type { Actor } from './run.js';

/** The person behind an actor, for maker-checker; null for the anonymous CLI and API keys. */
export const personOf = (actor: Actor): string | null => (actor.startsWith('console:') || actor.startsWith('cli:') ? actor.slice(actor.indexOf(':') + 1).toLowerCase() : null);

/** A console user named by an actor. */
export interface Person {
  id: string;
  email: string;
}

/** An admin whose rights are in effect, and since when; who made and who approved them (null: the CLI, or at once). */
export interface AdminPerson extends Person {
  since: Date;
  createdBy: string | null;
  approvedBy: string | null;
}

/** Errors: forbidden (no person named, or no such console user). */
export async function requirePerson(trx: Trx, actor: Actor, what: string): Promise<Person> {
  const email = personOf(actor);
  if (!email) throw new ApiError('forbidden', `${what} needs a named person (the console, or the CLI with --as EMAIL)`);
  const user = await trx.selectFrom('console_users').select(['id', 'email']).where('email', '=', email).executeTakeFirst();
  if (!user) throw new ApiError('forbidden', `${email} is not a console user`);
  return user;
}

/** Errors: forbidden (no person named, not an admin console user, or an admin still waiting for approval). */
export async function requireAdminPerson(trx: Trx, actor: Actor, what: string): Promise<AdminPerson> {
  const person = personOf(actor);
  if (!person) throw new ApiError('forbidden', `${what} needs a named admin (the console, or the CLI with --as EMAIL)`);
  const user = await trx
    .selectFrom('console_users')
    .select(['id', 'email', 'is_admin', 'admin_since', 'admin_created_by', 'admin_approved_by'])
    .where('email', '=', person)
    .executeTakeFirst();
  if (!user?.is_admin) throw new ApiError('forbidden', `${person} is not an admin console user`);
  if (!user.admin_since) throw new ApiError('forbidden', `${person}'s admin rights wait for approval by another admin: until then ${person} cannot act as an admin`);
  return { id: user.id, email: user.email, since: user.admin_since, createdBy: user.admin_created_by, approvedBy: user.admin_approved_by };
}

/**
 * The maker-checker rule. `maker` is who proposed (by user id; `email` only for rows from before ids
 * were kept), `madeAt` when. Errors: forbidden (the checker is the maker; the checker's admin rights
 * took effect at or after the proposal).
 */
export function assertChecker(checker: AdminPerson, maker: { id: string | null; email: string }, madeAt: Date, what: string): void {
  const same = maker.id !== null ? maker.id === checker.id : maker.email.toLowerCase() === checker.email;
  if (same) throw new ApiError('forbidden', `Maker-checker: ${checker.email} proposed ${what}, so a different admin must decide it`);
  if (checker.since.getTime() >= madeAt.getTime()) {
    throw new ApiError(
      'forbidden',
      `Maker-checker: ${checker.email}'s admin rights took effect at ${checker.since.toISOString()}, after ${what} was proposed (${madeAt.toISOString()}): an admin who was already one then must decide it`,
    );
  }
}

/** What an approval's audit row says of its checker: who they are and how they became an admin. */
export const checkerFacts = (c: AdminPerson) => ({ checker: c.email, checker_user: c.id, checker_admin_since: c.since.toISOString(), checker_admin_created_by: c.createdBy, checker_admin_approved_by: c.approvedBy });

/** Errors: validation (the field, with what is wrong). */
export function boundedText(field: string, value: string | undefined, max: number, required: boolean): string {
  const v = (value ?? '').trim();
  if (required && !v) throw ApiError.validation([{ field, message: `${field} must not be empty` }]);
  if (v.length > max) throw ApiError.validation([{ field, message: `${field} must be at most ${max} characters` }]);
  return v;
}
