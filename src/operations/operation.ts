// Owns what an operation is: its path, its one TypeBox schema, how it is keyed for idempotency, and
// `execute`, which asks the environment's connector for an Outcome. Adding an operation means adding a
// folder that exports one OperationDef and listing it in registry.ts.
import type { Static, TObject, TSchema } from '@sinclair/typebox';
import type { Transaction } from 'kysely';
import type { DB } from '../db/schema.js';
import type { Environment } from '../db/schema.js';
import type { Outcome } from '../providers/connector.js';
import type { Services } from '../services.js';

export interface OperationContext {
  accountId: string;
  environment: Environment;
  requestId: string;
  txnId: string;
  services: Services;
  /**
   * Writes to make in the database transaction that records this operation's answer (sandbox: the
   * record itself; live: phase 3, the partner's outcome).
   */
  afterRecord: Array<(trx: Transaction<DB>) => Promise<void>>;
}

/** Result fields the client sees but the store must not keep (identity photos), and how they come back. */
export interface Unstored {
  strip(data: Record<string, unknown>): Record<string, unknown>;
  hydrate(data: Record<string, unknown>, environment: Environment): Record<string, unknown>;
}

export type IdempotencyScope =
  | { by: 'reference_id' } // verification operations: reference_id is the key (CONTRACT §5)
  | { by: 'idempotency_key'; required: boolean }; // body field or Idempotency-Key header

export interface OperationDef<S extends TObject = TObject> {
  slug: string;
  method: 'POST' | 'GET';
  path: string;
  summary: string;
  description: string;
  tag: string;
  schema: S;
  /** alias field → canonical field; the alias is accepted when the canonical field is absent. */
  aliases?: Record<string, string>;
  bodyLimit?: number;
  idempotency: IdempotencyScope | null;
  /** Amount in paise, for operations that move money. */
  amountPaise?(input: Static<S>): number;
  /** Commission the operator pays on it, in paise (passed on to the client). */
  commissionPaise?(input: Static<S>): number;
  /**
   * When a live call is paid for: 'completion' (verifications: the check was done, whatever it found)
   * or 'success' (payments and recharges: a failed one costs nothing).
   */
  charge: 'completion' | 'success';
  /**
   * Refusals decided before anything is recorded, held, charged or sent: throws an ApiError (the
   * request leaves no transaction behind, as if it had never been made). Used where the input names
   * something that must belong to the caller.
   */
  admit?(input: Static<S>, ctx: OperationContext): Promise<void>;
  /**
   * Fills in what the caller may leave out (a recharge's operator and circle, by lookup): after the
   * request hash is taken, so a retry of the same request hashes the same, and before anything is
   * recorded, held or sent. Throws an ApiError.
   */
  resolve?(input: Static<S>, ctx: OperationContext): Promise<void>;
  execute(input: Static<S>, ctx: OperationContext): Promise<Outcome>;
  unstored?: Unstored;
  /** camelCase operationId of its route in the OpenAPI document (the POST alias of a GET adds `Post`). */
  operationId: string;
  /**
   * Its own fields of the answer's `data`, beside the standard ones, for the OpenAPI document only
   * (answers are stored and sent as text, never serialized through it).
   */
  result: Record<string, TSchema>;
}

export const defineOperation = <S extends TObject>(def: OperationDef<S>) => def as unknown as OperationDef;
