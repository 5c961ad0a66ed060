// The official TypeScript client of the Sangam API. Built on openapi-fetch over the types that
// openapi-typescript generates from the server's own /openapi.json (schema.ts), so every request and
// response shape comes from the document. This module owns the client: environment from the key, one
// typed method per operation of the document (routes.ts, generated from it; OPERATION_METHODS names the
// method sending each, and the SDK does not build while one has none), automatic idempotency keys,
// retries where a replay is safe (retry.ts), the audit-log and statement iterators, waitForFinal, and
// webhook verification (webhooks.ts).
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './schema.js';
import type { BodyOf, DataOf, KeyOptional, OperationId, QueryOf, RequestOptions, Route } from './types.js';
import { ROUTES } from './routes.js';
import { SangamConnectionError, SangamError, SangamTimeoutError } from './errors.js';
import { delayMs, retryable, sleep } from './retry.js';
import { verify, type WebhookEvent, type WebhookHeaders } from './webhooks.js';

export type { paths, components, operations } from './schema.js';
export type { Body, Data, Query, BodyOf, DataOf, QueryOf, OperationId, RequestOptions } from './types.js';
export { ROUTES } from './routes.js';
export { SangamError, SangamConnectionError, SangamTimeoutError, type FieldError } from './errors.js';
export { verify as verifyWebhook, WebhookVerificationError, type WebhookEvent, type WebhookHeaders } from './webhooks.js';

export type Environment = 'sandbox' | 'live';

/** A transaction as GET /api/v1/transactions/{reference_id} answers it: one shape per operation and status. */
export type Transaction = DataOf<'getTransaction'>;
/** The operations' slugs, as a transaction names them. */
export type OperationSlug = Transaction['operation'];
/**
 * A final transaction (success or failed) of operation `O`, as waitForFinal answers it: narrow on
 * `status` to read its fields with their types (a success UPI payment's `utr`, `amount`, `txn_id`).
 */
export type FinalTransaction<O extends OperationSlug = OperationSlug> = Exclude<Extract<Transaction, { operation: O }>, { status: 'pending' }>;

export interface SangamOptions {
  /** sk_test_… (sandbox) or sk_live_… (live): the key decides the environment. */
  apiKey: string;
  /** Where the API is served (default http://localhost:8080, `npm start`'s address). */
  baseUrl?: string;
  /** A fetch implementation (default: the global fetch). */
  fetch?: (input: Request) => Promise<Response>;
  /** Retries after a transient failure, where a replay is safe (default 2). */
  maxRetries?: number;
  /** Time limit of one attempt, in ms (default 30000). */
  timeoutMs?: number;
}

export interface WaitOptions<O extends OperationSlug = OperationSlug> {
  /** The operation the reference belongs to; another operation's transaction under it is an error. It also types the answer. */
  operation?: O;
  /** Give up after this long, in ms (default 120000): a SangamTimeoutError. */
  timeoutMs?: number;
  /** First pause between polls, in ms (default 500); it grows 1.5× per poll up to maxIntervalMs. */
  intervalMs?: number;
  /** Longest pause between polls, in ms (default 5000). */
  maxIntervalMs?: number;
  signal?: AbortSignal;
}

/** How a request may be repeated: `safe` (replaying it does nothing twice), and the Idempotency-Key it carries. */
interface Replay {
  safe: boolean;
  idempotencyKey?: string;
}
interface Init {
  params?: { path?: Record<string, string>; query?: object };
  body?: unknown;
  parseAs?: 'json' | 'text';
  /** A body sent as it is (a CSV or NDJSON upload), with its Content-Type. */
  raw?: { text: string; contentType: string };
}
type Loose = (path: string, init: Record<string, unknown>) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
type ItemOf<D> = D extends { items: Array<infer I> } ? I : unknown;
/** Export's filters; `format` defaults to csv, as on the server. */
type ExportQuery = Omit<QueryOf<'exportAuditLogs'>, 'format'> & { format?: QueryOf<'exportAuditLogs'>['format'] };
type Page = { items?: unknown[]; next_cursor?: string | null };
/** A batch upload's options (the JSON body's, in the query string). */
export interface UploadOptions {
  client_batch_id?: string;
  validate_only?: boolean;
  on_error?: 'continue' | 'stop';
}
const BATCH_FINAL = new Set(['completed', 'cancelled', 'failed']);


/** The environment a key belongs to, from its prefix. */
export function environmentOf(apiKey: string): Environment {
  if (apiKey.startsWith('sk_test_')) return 'sandbox';
  if (apiKey.startsWith('sk_live_')) return 'live';
  throw new Error('apiKey must be a Sangam key: sk_test_… (sandbox) or sk_live_… (live)');
}

export class Sangam {
  /** sandbox or live, as the key says. */
  readonly environment: Environment;
  private readonly api: Client<paths>;
  private readonly maxRetries: number;
  private readonly timeoutMs: number;

  constructor(options: SangamOptions) {
    this.environment = environmentOf(options.apiKey);
    this.maxRetries = options.maxRetries ?? 2;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.api = createClient<paths>({
      baseUrl: (options.baseUrl ?? 'http://localhost:8080').replace(/\/+$/, ''),
      headers: { authorization: `Bearer ${options.apiKey}` },
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
  }

  // ---- Operations. A verification is keyed by its reference_id; a payment or recharge by an
  // Idempotency-Key (the body's idempotency_key, the option, or a fresh UUID) that its retries reuse.

  /** Signature match: compares the signature image with a name; `name_match_score` 0 to 100. */
  signatureMatch(body: BodyOf<'signatureMatch'>, opts?: RequestOptions): Promise<DataOf<'signatureMatch'>> {
    return this.call(ROUTES.signatureMatch, { body }, { safe: true }, opts);
  }

  /** Name match: compares name_1 with name_2 (Latin or any Indian script) and explains the score and the decision. */
  nameMatch(body: BodyOf<'nameMatch'>, opts?: RequestOptions): Promise<DataOf<'nameMatch'>> {
    return this.call(ROUTES.nameMatch, { body }, { safe: true }, opts);
  }

  readonly doclocker = {
    /** Starts the document-locker flow: a doclocker__client__id and the URL to send the user to. */
    initialize: (body: BodyOf<'doclockerInitialize'>, opts?: RequestOptions): Promise<DataOf<'doclockerInitialize'>> =>
      this.call(ROUTES.doclockerInitialize, { body }, { safe: true }, opts),
    /** The Aadhaar record of a client id whose user consented. */
    download: (body: BodyOf<'doclockerDownloadAadhaar'>, opts?: RequestOptions): Promise<DataOf<'doclockerDownloadAadhaar'>> =>
      this.call(ROUTES.doclockerDownloadAadhaar, { body }, { safe: true }, opts),
  };

  /** The bank account linked to a mobile number. */
  mobileToBank(body: BodyOf<'mobileToBankAccount'>, opts?: RequestOptions): Promise<DataOf<'mobileToBankAccount'>> {
    return this.call(ROUTES.mobileToBankAccount, { body }, { safe: true }, opts);
  }

  /** Verifies a bank account at an IFSC: account_status, name_at_bank, the bank, and name_match with `name`. May answer `pending`. */
  accountVerification(body: BodyOf<'accountVerification'>, opts?: RequestOptions): Promise<DataOf<'accountVerification'>> {
    return this.call(ROUTES.accountVerification, { body }, { safe: true }, opts);
  }

  /** Verifies a UPI ID: vpa_status, name_at_bank, and name_match with `name`. May answer `pending`. */
  vpaVerification(body: BodyOf<'vpaVerification'>, opts?: RequestOptions): Promise<DataOf<'vpaVerification'>> {
    return this.call(ROUTES.vpaVerification, { body }, { safe: true }, opts);
  }

  /** Pays a VPA. May answer `pending`: see waitForFinal. */
  upiPayment(body: KeyOptional<BodyOf<'upiPaymentStatusPost'>>, opts?: RequestOptions): Promise<DataOf<'upiPaymentStatusPost'>> {
    return this.keyed(ROUTES.upiPaymentStatusPost, body, opts);
  }

  /** Recharges a mobile number (operator and circle looked up when omitted). May answer `pending`. */
  mobileRecharge(body: KeyOptional<BodyOf<'rechargeCommission'>>, opts?: RequestOptions): Promise<DataOf<'rechargeCommission'>> {
    return this.keyed(ROUTES.rechargeCommission, body, opts);
  }

  /** Recharges a DTH subscription. May answer `pending`. */
  dthRecharge(body: KeyOptional<BodyOf<'dthRecharge'>>, opts?: RequestOptions): Promise<DataOf<'dthRecharge'>> {
    return this.keyed(ROUTES.dthRecharge, body, opts);
  }

  // ---- Recharge pre-flight and catalogues.

  readonly recharge = {
    operators: (opts?: RequestOptions): Promise<DataOf<'listMobileOperators'>> => this.get(ROUTES.listMobileOperators, {}, opts),
    operatorLookup: (query: QueryOf<'lookupOperator'>, opts?: RequestOptions): Promise<DataOf<'lookupOperator'>> =>
      this.get(ROUTES.lookupOperator, { params: { query } }, opts),
    plans: (query: QueryOf<'listPlans'>, opts?: RequestOptions): Promise<DataOf<'listPlans'>> => this.get(ROUTES.listPlans, { params: { query } }, opts),
  };

  readonly dth = {
    operators: (opts?: RequestOptions): Promise<DataOf<'listDthOperators'>> => this.get(ROUTES.listDthOperators, {}, opts),
    subscriberInfo: (query: QueryOf<'getDthSubscriber'>, opts?: RequestOptions): Promise<DataOf<'getDthSubscriber'>> =>
      this.get(ROUTES.getDthSubscriber, { params: { query } }, opts),
  };

  // ---- Transactions, wallet.

  readonly transactions = {
    /** The latest state of the operation with this reference_id. */
    get: (referenceId: string, opts?: RequestOptions): Promise<DataOf<'getTransaction'>> =>
      this.get(ROUTES.getTransaction, { params: { path: { reference_id: referenceId } } }, opts),
  };

  /**
   * Polls the transaction until it is final (any status but `pending`: success, or failed, reversals
   * included) and returns its data. Pauses grow 1.5× per poll; throws SangamTimeoutError after timeoutMs.
   */
  async waitForFinal<O extends OperationSlug = OperationSlug>(referenceId: string, options: WaitOptions<O> = {}): Promise<FinalTransaction<O>> {
    const read = () => this.transactions.get(referenceId, options.signal ? { signal: options.signal } : {});
    const final = await this.poll(referenceId, read, options, 120_000, (tx) => {
      if (options.operation && tx.operation !== options.operation) {
        throw new Error(`reference_id ${referenceId} names a ${tx.operation} transaction, not ${options.operation}`);
      }
      return tx.status !== 'pending';
    });
    // Checked above: the operation asked for (when given), and not pending.
    return final as FinalTransaction<O>;
  }

  /** Reads until `done`, pausing 1.5× longer each time; SangamTimeoutError after timeoutMs. */
  private async poll<D>(id: string, read: () => Promise<D>, options: WaitOptions<OperationSlug>, defaultTimeoutMs: number, done: (data: D) => boolean): Promise<D> {
    const deadline = Date.now() + (options.timeoutMs ?? defaultTimeoutMs);
    let pause = options.intervalMs ?? 500;
    for (;;) {
      const data = await read();
      if (done(data)) return data;
      const left = deadline - Date.now();
      if (left <= 0) throw new SangamTimeoutError(id, data);
      await sleep(Math.min(pause, left), options.signal);
      pause = Math.min(pause * 1.5, options.maxIntervalMs ?? 5_000);
    }
  }

  readonly wallet = {
    /** Available and held balance (INR). */
    balance: (opts?: RequestOptions): Promise<DataOf<'getWallet'>> => this.get(ROUTES.getWallet, {}, opts),
    /** One page of the statement, newest first. */
    statement: (query: QueryOf<'getStatement'> = {}, opts?: RequestOptions): Promise<DataOf<'getStatement'>> =>
      this.get(ROUTES.getStatement, { params: { query } }, opts),
    /** Every statement entry, page after page. */
    iterateStatement: (query: Omit<QueryOf<'getStatement'>, 'cursor'> = {}, opts?: RequestOptions): AsyncGenerator<ItemOf<DataOf<'getStatement'>>> =>
      this.pages((cursor) => this.wallet.statement({ ...query, ...(cursor ? { cursor } : {}) }, opts)),
  };

  readonly goLive = {
    /** The go-live checklist per operation and the submission's status (a sandbox key reads the progress only). */
    checklist: (opts?: RequestOptions): Promise<DataOf<'getGoLive'>> => this.get(ROUTES.getGoLive, {}, opts),
  };

  // ---- Consents (CONTRACT §13): a call may cite one by its consent_id.

  readonly consents = {
    /** Records a consent; the answer carries its signed receipt. Not retried but on 429: a repeat records another. */
    create: (body: BodyOf<'createConsent'>, opts?: RequestOptions): Promise<DataOf<'createConsent'>> =>
      this.call(ROUTES.createConsent, { body }, { safe: false }, opts),
    /** A subject's consents, by mobile number, newest first. */
    list: (query: QueryOf<'listConsents'>, opts?: RequestOptions): Promise<DataOf<'listConsents'>> => this.get(ROUTES.listConsents, { params: { query } }, opts),
    /** One consent with its uses. */
    get: (id: string, opts?: RequestOptions): Promise<DataOf<'getConsent'>> => this.get(ROUTES.getConsent, { params: { path: { id } } }, opts),
    /** No call may cite it any more; what it holds is revoked and what was done under it erased. Repeating it is harmless. */
    withdraw: (id: string, opts?: RequestOptions): Promise<DataOf<'withdrawConsent'>> =>
      this.call(ROUTES.withdrawConsent, { params: { path: { id } } }, { safe: true }, opts),
    /** The JWK Set whose keys sign consent receipts (public: the API key is not needed for it). */
    publicKey: (opts?: RequestOptions): Promise<DataOf<'consentReceiptKeys'>> => this.get(ROUTES.consentReceiptKeys, {}, opts),
  };

  // ---- Webhooks.

  readonly webhooks = {
    endpoints: {
      /** Registers a receiver; the answer carries its signing secret, shown once. Not retried but on 429. */
      create: (body: BodyOf<'createWebhookEndpoint'>, opts?: RequestOptions): Promise<DataOf<'createWebhookEndpoint'>> =>
        this.call(ROUTES.createWebhookEndpoint, { body }, { safe: false }, opts),
      list: (opts?: RequestOptions): Promise<DataOf<'listWebhookEndpoints'>> => this.get(ROUTES.listWebhookEndpoints, {}, opts),
      delete: (id: string, opts?: RequestOptions): Promise<DataOf<'deleteWebhookEndpoint'>> =>
        this.call(ROUTES.deleteWebhookEndpoint, { params: { path: { id } } }, { safe: false }, opts),
      /** A new secret; the old one also signs for overlap_seconds (default one day). */
      rotateSecret: (id: string, body: BodyOf<'rotateWebhookSecret'> = {}, opts?: RequestOptions): Promise<DataOf<'rotateWebhookSecret'>> =>
        this.call(ROUTES.rotateWebhookSecret, { params: { path: { id } }, body }, { safe: false }, opts),
      deliveries: (id: string, query: QueryOf<'listWebhookDeliveries'> = {}, opts?: RequestOptions): Promise<DataOf<'listWebhookDeliveries'>> =>
        this.get(ROUTES.listWebhookDeliveries, { params: { path: { id }, query } }, opts),
      /** Sends one event again (event_id), or every failed delivery since a time (since). */
      replay: (id: string, body: BodyOf<'replayWebhookEvents'>, opts?: RequestOptions): Promise<DataOf<'replayWebhookEvents'>> =>
        this.call(ROUTES.replayWebhookEvents, { params: { path: { id } }, body }, { safe: false }, opts),
    },
    /** Verifies a delivery's Standard Webhooks signature and returns its event (throws WebhookVerificationError). */
    verify: (payload: string | Buffer, headers: WebhookHeaders, secret: string): WebhookEvent => verify(payload, headers, secret),
  };

  // ---- Audit logs.

  readonly auditLogs = {
    /** One page, newest first; pass next_cursor as cursor for the next. */
    list: (query: QueryOf<'listAuditLogs'> = {}, opts?: RequestOptions): Promise<DataOf<'listAuditLogs'>> => this.get(ROUTES.listAuditLogs, { params: { query } }, opts),
    /** Every row matching the filters, page after page. */
    iterate: (filters: Omit<QueryOf<'listAuditLogs'>, 'cursor'> = {}, opts?: RequestOptions): AsyncGenerator<ItemOf<DataOf<'listAuditLogs'>>> =>
      this.pages((cursor) => this.auditLogs.list({ ...filters, ...(cursor ? { cursor } : {}) }, opts)),
    /** One row by its request_id, with the redacted request and response bodies. */
    get: (requestId: string, opts?: RequestOptions): Promise<DataOf<'getAuditLog'>> =>
      this.get(ROUTES.getAuditLog, { params: { path: { request_id: requestId } } }, opts),
    /**
     * The matching rows as CSV (default) or NDJSON text; `format: 'verifiable'` adds hashes and signed
     * checkpoint proofs, checked offline with `sangam audit verify-export FILE --public-key KEY`.
     */
    export: (query: ExportQuery = {}, opts?: RequestOptions): Promise<string> =>
      this.call(ROUTES.exportAuditLogs, { params: { query: { format: 'csv', ...query } }, parseAs: 'text' }, { safe: true }, opts),
  };

  readonly erasures = {
    /**
     * Erases one reference's personal content everywhere Sangam keeps it (audit bodies, stored result,
     * webhook events); the audit trail still verifies and the money facts stay. Repeating it is
     * harmless, so it is retried like a read. A pending transaction is a 422: erase it once final.
     */
    create: (referenceId: string, opts?: RequestOptions): Promise<DataOf<'createErasure'>> =>
      this.call(ROUTES.createErasure, { body: { reference_id: referenceId } }, { safe: true }, opts),
  };

  // ---- Batches: many rows of one operation, each run as its own call (CONTRACT §12).

  readonly batches = {
    /**
     * Submits a JSON batch (1 to 1,000 items). With a client_batch_id a repeat answers the same batch,
     * so it is retried like a read; without one it is not retried but on 429.
     */
    create: (body: BodyOf<'createBatch'>, opts?: RequestOptions): Promise<DataOf<'createBatch'>> =>
      this.call(ROUTES.createBatch, { body }, { safe: (body as { client_batch_id?: string }).client_batch_id !== undefined }, opts),
    /** Submits a CSV (a header naming the fields) or NDJSON file of up to 100,000 rows. */
    upload: (operation: string, file: string, format: 'csv' | 'ndjson', options: UploadOptions = {}, opts?: RequestOptions): Promise<DataOf<'createBatch'>> =>
      this.call(
        ROUTES.createBatch,
        { params: { query: { operation, ...options } }, raw: { text: file, contentType: format === 'csv' ? 'text/csv' : 'application/x-ndjson' } },
        { safe: options.client_batch_id !== undefined },
        opts,
      ),
    get: (id: string, opts?: RequestOptions): Promise<DataOf<'getBatch'>> => this.get(ROUTES.getBatch, { params: { path: { id } } }, opts),
    /** One page of rows in row order (`status` filters). */
    items: (id: string, query: QueryOf<'listBatchItems'> = {}, opts?: RequestOptions): Promise<DataOf<'listBatchItems'>> =>
      this.get(ROUTES.listBatchItems, { params: { path: { id }, query } }, opts),
    /** Every row, page after page. */
    iterateItems: (id: string, query: Omit<QueryOf<'listBatchItems'>, 'cursor'> = {}, opts?: RequestOptions): AsyncGenerator<ItemOf<DataOf<'listBatchItems'>>> =>
      this.pages((cursor) => this.batches.items(id, { ...query, ...(cursor ? { cursor } : {}) }, opts)),
    /** Every row's result in row order, as CSV (default) or NDJSON text. */
    results: (id: string, format: 'csv' | 'ndjson' = 'csv', opts?: RequestOptions): Promise<string> =>
      this.call(ROUTES.getBatchResults, { params: { path: { id }, query: { format } }, parseAs: 'text' }, { safe: true }, opts),
    /** Rows not yet started are not run. Repeating it is harmless. */
    cancel: (id: string, opts?: RequestOptions): Promise<DataOf<'cancelBatch'>> =>
      this.call(ROUTES.cancelBatch, { params: { path: { id } } }, { safe: true }, opts),
    /** Polls the batch until it has ended (completed, cancelled or failed); SangamTimeoutError after timeoutMs. */
    wait: (id: string, options: Omit<WaitOptions, 'operation'> = {}): Promise<DataOf<'getBatch'>> =>
      this.poll(id, () => this.batches.get(id, options.signal ? { signal: options.signal } : {}), options, 600_000, (data) =>
        BATCH_FINAL.has((data as { status?: string }).status ?? ''),
      ),
  };

  // ---- Transport.

  private async *pages<D>(page: (cursor: string | undefined) => Promise<D>): AsyncGenerator<ItemOf<D>> {
    let cursor: string | undefined;
    do {
      const data = (await page(cursor)) as unknown as Page;
      for (const item of data.items ?? []) yield item as ItemOf<D>;
      cursor = data.next_cursor ?? undefined;
    } while (cursor);
  }

  private keyed<T>(route: Route, body: { idempotency_key?: string }, opts: RequestOptions = {}): Promise<T> {
    const idempotencyKey = body.idempotency_key ?? opts.idempotencyKey ?? globalThis.crypto.randomUUID();
    return this.call(route, { body }, { safe: true, idempotencyKey }, opts);
  }

  private get<T>(route: Route, init: Init, opts?: RequestOptions): Promise<T> {
    return this.call(route, init, { safe: true }, opts);
  }

  /**
   * Sends one request to an operation's route, retrying it after a transient failure where `replay.safe` allows (retry.ts).
   * Answers the envelope's `data` (the body's text for parseAs text); throws SangamError on a non-2xx
   * answer and SangamConnectionError when none arrived.
   */
  private async call<T>({ method, path }: Route, init: Init, replay: Replay, opts: RequestOptions = {}): Promise<T> {
    const send = this.api[method] as unknown as Loose;
    const maxRetries = opts.maxRetries ?? this.maxRetries;
    const headers = replay.idempotencyKey ? { 'idempotency-key': replay.idempotencyKey } : {};
    for (let attempt = 0; ; attempt++) {
      const timeout = AbortSignal.timeout(opts.timeoutMs ?? this.timeoutMs);
      const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
      let retryAfter: number | undefined;
      try {
        const { raw, ...rest } = init;
        const upload = raw ? { body: raw.text, bodySerializer: (b: string) => b, headers: { ...headers, 'content-type': raw.contentType } } : { headers };
        const { data, error, response } = await send(path, { ...rest, ...upload, signal });
        if (response.ok) return (init.parseAs === 'text' ? data : (data as { data: unknown }).data) as T;
        const failure = SangamError.from(response, error);
        retryAfter = failure.retryAfter;
        if (attempt >= maxRetries || !retryable(failure, replay.safe)) throw failure;
      } catch (err) {
        if (err instanceof SangamError) throw err;
        if (opts.signal?.aborted) throw opts.signal.reason;
        const why = timeout.aborted ? `no answer within ${opts.timeoutMs ?? this.timeoutMs} ms` : `request failed: ${(err as Error).message}`;
        if (attempt >= maxRetries || !replay.safe) throw new SangamConnectionError(why, { cause: err });
      }
      await sleep(delayMs(attempt, retryAfter), opts.signal);
    }
  }
}

/** The dotted names of an object's methods, its namespaces' included ('wallet.balance'). */
type MethodNames<T> = {
  [K in keyof T & string]: T[K] extends (...args: never) => unknown ? K : T[K] extends object ? `${K}.${MethodNames<T[K]>}` : never;
}[keyof T & string];

/**
 * The method of Sangam that sends each operation of the API, by operationId (ROUTES, generated from
 * the document). It must name one for every operation: the SDK does not build while an operation of
 * the document has none, and test/sdk.test.ts checks that each method sends its operation's route.
 * The GET form of the UPI payment (its fields in the query string, for a caller that cannot send a
 * body) is the same operation as its POST form, which upiPayment sends.
 */
export const OPERATION_METHODS = {
  signatureMatch: 'signatureMatch',
  nameMatch: 'nameMatch',
  doclockerInitialize: 'doclocker.initialize',
  doclockerDownloadAadhaar: 'doclocker.download',
  mobileToBankAccount: 'mobileToBank',
  accountVerification: 'accountVerification',
  vpaVerification: 'vpaVerification',
  upiPaymentStatus: 'upiPayment',
  upiPaymentStatusPost: 'upiPayment',
  rechargeCommission: 'mobileRecharge',
  dthRecharge: 'dthRecharge',
  listMobileOperators: 'recharge.operators',
  lookupOperator: 'recharge.operatorLookup',
  listPlans: 'recharge.plans',
  listDthOperators: 'dth.operators',
  getDthSubscriber: 'dth.subscriberInfo',
  getTransaction: 'transactions.get',
  getWallet: 'wallet.balance',
  getStatement: 'wallet.statement',
  getGoLive: 'goLive.checklist',
  createConsent: 'consents.create',
  listConsents: 'consents.list',
  getConsent: 'consents.get',
  withdrawConsent: 'consents.withdraw',
  consentReceiptKeys: 'consents.publicKey',
  createWebhookEndpoint: 'webhooks.endpoints.create',
  listWebhookEndpoints: 'webhooks.endpoints.list',
  deleteWebhookEndpoint: 'webhooks.endpoints.delete',
  rotateWebhookSecret: 'webhooks.endpoints.rotateSecret',
  listWebhookDeliveries: 'webhooks.endpoints.deliveries',
  replayWebhookEvents: 'webhooks.endpoints.replay',
  listAuditLogs: 'auditLogs.list',
  getAuditLog: 'auditLogs.get',
  exportAuditLogs: 'auditLogs.export',
  createErasure: 'erasures.create',
  createBatch: 'batches.create',
  getBatch: 'batches.get',
  listBatchItems: 'batches.items',
  getBatchResults: 'batches.results',
  cancelBatch: 'batches.cancel',
} as const satisfies Record<OperationId, MethodNames<Sangam>>;
