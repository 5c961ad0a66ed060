// Owns what every console route shares: the signed-in user on the request (set by session.ts), the
// account a client page acts on, the admin check, and the actor the user's changes are audited as.
import type { FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { ApiError } from '../../../errors.js';
import { consoleActor, type Actor } from '../../../admin/actions/index.js';
import type { ConsoleUser } from '../../../console/users.js';

declare module 'fastify' {
  interface FastifyRequest {
    consoleUser?: ConsoleUser & { csrf: string };
  }
}

export const Env = Type.Union([Type.Literal('sandbox'), Type.Literal('live')], { errorMessage: 'environment must be sandbox or live' });

/** The signed-in user's account. Errors: forbidden (a user with no account, e.g. an operator). */
export function accountOf(req: FastifyRequest): string {
  const id = req.consoleUser!.account_id;
  if (!id) throw new ApiError('forbidden', 'This console user has no account; ask an admin to attach one');
  return id;
}

/** Errors: forbidden (not an admin, or an admin whose rights wait for another admin's approval). */
export function requireAdmin(req: FastifyRequest): void {
  const u = req.consoleUser!;
  if (u.admin_pending) throw new ApiError('forbidden', 'Admins only: your admin rights wait for approval by another admin');
  if (!u.is_admin) throw new ApiError('forbidden', 'Admins only');
}

export const actorOf = (req: FastifyRequest): Actor => consoleActor(req.consoleUser!.email);
