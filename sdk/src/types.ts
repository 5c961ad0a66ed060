// Owns the type helpers that read request and response shapes out of the generated `paths` (schema.ts),
// by path and method or by operationId (routes.ts), so no shape is written twice. Where the document
// declares no JSON success body yet, `Data` is `unknown`: the types follow the document, never a guess.
import type { paths } from './schema.js';
import type { ROUTES } from './routes.js';

export type Method = 'get' | 'post' | 'delete';
export type Path = keyof paths;
type Op<P extends Path, M extends Method> = NonNullable<paths[P][M]>;

type Json<C> = C extends { 'application/json': infer B } ? B : never;
type EnvelopeData<E> = E extends { data: infer D } ? D : unknown;

/** The JSON request body of an operation. */
export type Body<P extends Path, M extends Method> = Op<P, M> extends { requestBody?: infer R } ? (NonNullable<R> extends { content: infer C } ? Json<C> : never) : never;

/** The query parameters of an operation. */
export type Query<P extends Path, M extends Method> = Op<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

/** The `data` of the envelope of a 200 answer. */
export type Data<P extends Path, M extends Method> = Op<P, M> extends { responses: infer R }
  ? 200 extends keyof R
    ? R[200] extends { content: { 'application/json': infer E } }
      ? EnvelopeData<E>
      : unknown
    : unknown
  : unknown;

/** The operationIds of the API's operations, every method and path under /api/v1 (routes.ts). */
export type OperationId = keyof typeof ROUTES;
/** An operation's method and path, as routes.ts holds them. */
export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  path: Path;
}
type R<Id extends OperationId> = (typeof ROUTES)[Id];

/** `Body`, `Query` and `Data` of an operation named by its operationId. */
export type BodyOf<Id extends OperationId> = Body<R<Id>['path'], Lowercase<R<Id>['method']>>;
export type QueryOf<Id extends OperationId> = Query<R<Id>['path'], Lowercase<R<Id>['method']>>;
export type DataOf<Id extends OperationId> = Data<R<Id>['path'], Lowercase<R<Id>['method']>>;

/** `T` with `idempotency_key` optional: the SDK fills it in (one key per call, reused by its retries). */
export type KeyOptional<T> = T extends unknown ? Omit<T, 'idempotency_key'> & { idempotency_key?: string } : never;

/** Per-call options. */
export interface RequestOptions {
  /** Idempotency key for an operation that moves money (default: a fresh UUID per call, kept across retries). */
  idempotencyKey?: string;
  /** Retries after a transient failure (default: the client's maxRetries). */
  maxRetries?: number;
  /** Time limit of one attempt, in ms (default: the client's timeoutMs). */
  timeoutMs?: number;
  signal?: AbortSignal;
}
