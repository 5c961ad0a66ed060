// Owns what an operation is: one declaration holding everything about it that the rest of Sangam
// derives — its path and method, its one TypeBox schema (validation, types, OpenAPI, SDK), how it is
// keyed for idempotency, its money rules, its default fee (pricing), its data class (audit retention),
// its sandbox answer and the request it sends a partner. (The pages some serve beside their API path,
// the sandbox consent page and the signed Xml_Url document, are registered in src/routes/.) Adding an
// operation means adding a folder that exports one OperationDef and listing it in registry.ts; the
// registry refuses to load a declaration that leaves a fee or a data class out.
//
// A handler sees a narrow OperationContext: who is calling, in which environment, the ids of this
// request, the connector the runner chose for the environment, and OperationDeps (the few stores and
// services operations read). It never sees the process's whole service bag.
import type { Timing } from '../http/server-timing.js';
import type { Static, TObject, TSchema } from '@sinclair/typebox';
import type { Transaction } from 'kysely';
import type { Db } from '../db/client.js';
import type { Lane } from '../db/group-commit.js';
import type { DB, Environment } from '../db/schema.js';
import type { DataClass } from '../audit/retention.js';
import type { FinalOutcome, OperationRequest, Outcome, PartnerOutcome, VpaHolder } from '../providers/connector.js';
import type { RechargePreflight } from '../catalog/preflight.js';
import type { UrlSigner } from '../http/signed-url.js';
import type { TransactionStore } from '../transactions/store.js';
import type { NameMatchSettingsReader } from '../accounts/name-match-settings.js';
import type { Metrics } from '../metrics.js';

/** Where an operation's partner request goes: the sandbox answer, or the live partners' router. */
export interface OperationConnector {
  execute(req: OperationRequest): Promise<Outcome>;
  /** The payout name check's VPA validation, where the environment offers one. */
  vpaHolder?(vpa: string): Promise<VpaHolder>;
}

/** A signed document a live partner keeps for a transaction (the eAadhaar XML behind Xml_Url). */
export interface PartnerDocuments {
  document(partner: string, txnId: string): Promise<{ contentType: string; body: Buffer | string } | null>;
}

/** The few things operations read beyond their input, wired once per process (services.ts). */
export interface OperationDeps {
  db: Db;
  transactions: TransactionStore;
  urls: UrlSigner;
  preflight: RechargePreflight;
  /** Live partners' documents, when partners are configured. */
  documents: PartnerDocuments | null;
  /** Each account's name-match thresholds and payout review rule. */
  nameMatch: Pick<NameMatchSettingsReader, 'get'>;
  /** What operations count: the validations a recent payee verification saved. */
  metrics: Pick<Metrics, 'verificationReused'>;
  publicUrl: string;
  doclockerSessionTtlS: number;
  xmlUrlTtlS: number;
}

export interface OperationContext {
  accountId: string;
  environment: Environment;
  requestId: string;
  txnId: string;
  /** Chosen by the runner for the environment: the operation's sandbox answer or the partner router. */
  connector: OperationConnector;
  deps: OperationDeps;
  /**
   * Writes to make in the database transaction that records this operation (sandbox: the record
   * itself; live: the recovery point, before the partner is asked): a consent's use, so that a
   * withdrawal while the partner is asked finds it (consents/gate.ts).
   */
  afterRecord: Array<(trx: Transaction<DB>) => Promise<void>>;
  /**
   * Writes to make with the answer that reveals them (sandbox: the record; live: phase 3, the
   * partner's outcome): a document-locker session binding its client id to the caller.
   */
  withAnswer: Array<(trx: Transaction<DB>) => Promise<void>>;
  /**
   * `background` for a batch's row: its writes queue behind interactive calls' in the group commits
   * (db/group-commit.ts), so a batch never holds back a client waiting on an answer.
   */
  lane?: Lane;
  /** The HTTP request's phases (http/server-timing.ts); none for a batch row. */
  timing?: Timing;
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
  /**
   * A valid sandbox request: the OpenAPI document's example (and so the Postman collection's body), and
   * the body the test harness's shared suites send (with a fresh reference_id and idempotency key).
   */
  example: Static<S>;
  /** alias field → canonical field; the alias is accepted when the canonical field is absent. */
  aliases?: Record<string, string>;
  bodyLimit?: number;
  idempotency: IdempotencyScope | null;
  /** The default fee of a live call, in paise; `sangam pricing set` overrides it per deployment. */
  feePaise: number;
  /**
   * Its audit rows' data class, which sets how long their content is kept (audit/retention.ts):
   * `identity` for operations whose bodies hold identity data, `bodies` otherwise.
   */
  dataClass: DataClass;
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
  /**
   * Fields of its answer decided before the partner is asked (a recharge's operator and circle, when
   * looked up; a verification's bank or VPA). A live call stores them from its recovery point on, so an
   * end the partner reports before the call's own answer is written still carries them; execute
   * answers them too.
   */
  recorded?(input: Static<S>): Record<string, unknown>;
  /**
   * Fields of its answer that execute derives itself beside the partner's (a payout's name match).
   * When the partner's end reached the transaction first (a callback, an enquiry), they are added to it
   * where that end lacks them, so the call's answer and the stored result still carry them.
   */
  own?: readonly string[];
  /** The request a partner (or the sandbox) is asked to carry out. */
  request?(input: Static<S>, ctx: OperationContext): OperationRequest;
  /** The deterministic sandbox answer to that request (CONTRACT §7), in a connector's terms. */
  sandbox?(req: OperationRequest, opts: { pendingMs: number }): Promise<PartnerOutcome>;
  /**
   * What the operation does with its connector's answer; by default it sends `request` and answers the
   * outcome as it is. An operation with no partner computes its answer here.
   */
  execute?(input: Static<S>, ctx: OperationContext): Promise<Outcome>;
  /**
   * A live call whose end may come after its answer left (a partner callback, a status enquiry):
   * `keep` names what that end needs from the request (null: nothing), kept sealed from the recovery
   * point until the end (transactions/notes.ts); `finish` adds what the operation derives from it to the
   * partner's final outcome (the name match of a verification), as execute does for an end it sees.
   */
  later?: {
    keep(input: Static<S>): string | null;
    finish(final: FinalOutcome, note: string, scope: Pick<OperationContext, 'deps' | 'accountId'>): Promise<FinalOutcome>;
  };
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

/** Runs the operation: its own execute, or its request sent to the connector the runner chose. */
export function executeOperation(def: OperationDef, input: Record<string, unknown>, ctx: OperationContext): Promise<Outcome> {
  if (def.execute) return def.execute(input, ctx);
  if (!def.request) throw new Error(`operation ${def.slug} declares neither execute nor request`);
  return ctx.connector.execute(def.request(input, ctx));
}
