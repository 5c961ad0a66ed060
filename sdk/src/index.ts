// The official TypeScript client of the Sangam API. Built on openapi-fetch over the types that
// openapi-typescript generates from the server's own /openapi.json (schema.ts), so every request and
// response shape comes from the document. This module owns the client: environment from the key, one
// typed method per operation, automatic idempotency keys, retries where a replay is safe (retry.ts),
// the audit-log and statement iterators, waitForFinal, and webhook verification (webhooks.ts).
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './schema.js';
import type { Body, Data, KeyOptional, Path, Query, RequestOptions } from './types.js';
import { SangamConnectionError, SangamError, SangamTimeoutError } from './errors.js';
import { delayMs, retryable, sleep } from './retry.js';
import { verify, type WebhookEvent, type WebhookHeaders } from './webhooks.js';

export type { paths, components, operations } from './schema.js';
export type { Body, Data, Query, RequestOptions } from './types.js';
export { SangamError, SangamConnectionError, SangamTimeoutError, type FieldError } from './errors.js';
export { verify as verifyWebhook, WebhookVerificationError, type WebhookEvent, type WebhookHeaders } from './webhooks.js';

export type Environment = 'sandbox' | 'live';

/** A transaction as GET /api/v1/transactions/{reference_id} answers it: one shape per operation and status. */
export type Transaction = Data<'/api/v1/transactions/{reference_id}', 'get'>;
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

type HttpMethod = 'GET' | 'POST' | 'DELETE';
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
type ExportQuery = Omit<Query<P['auditExport'], 'get'>, 'format'> & { format?: Query<P['auditExport'], 'get'>['format'] };
type Page = { items?: unknown[]; next_cursor?: string | null };
/** A batch upload's options (the JSON body's, in the query string). */
export interface UploadOptions {
  client_batch_id?: string;
  validate_only?: boolean;
  on_error?: 'continue' | 'stop';
}
const BATCH_FINAL = new Set(['completed', 'cancelled', 'failed']);

const P = {
  signature: '/api/v1/document-ocr/signature-match',
  init: '/api/v1/aadhaar-identity-kyc/doclocker-initialize',
  aadhaar: '/api/v1/aadhaar-identity-kyc/doclocker-download-aadhaar',
  bank: '/api/v1/bank-account/mobile-to-bank-account',
  upi: '/api/v1/upi-payment/upi-payment-status',
  recharge: '/api/v1/mobile-recharge/recharge-commission',
  dth: '/api/v1/dth/dth-recharge',
  rechargeOperators: '/api/v1/mobile-recharge/operators',
  operatorLookup: '/api/v1/mobile-recharge/operator-lookup',
  plans: '/api/v1/mobile-recharge/plans',
  dthOperators: '/api/v1/dth/operators',
  subscriberInfo: '/api/v1/dth/subscriber-info',
  transaction: '/api/v1/transactions/{reference_id}',
  wallet: '/api/v1/account/wallet',
  statement: '/api/v1/account/statement',
  endpoints: '/api/v1/webhook-endpoints',
  endpoint: '/api/v1/webhook-endpoints/{id}',
  rotate: '/api/v1/webhook-endpoints/{id}/rotate-secret',
  deliveries: '/api/v1/webhook-endpoints/{id}/deliveries',
  replay: '/api/v1/webhook-endpoints/{id}/replay',
  audit: '/api/v1/audit-logs',
  auditExport: '/api/v1/audit-logs/export',
  auditRow: '/api/v1/audit-logs/{request_id}',
  erasures: '/api/v1/erasures',
  batches: '/api/v1/batches',
  batch: '/api/v1/batches/{id}',
  batchItems: '/api/v1/batches/{id}/items',
  batchResults: '/api/v1/batches/{id}/results',
  batchCancel: '/api/v1/batches/{id}/cancel',
} as const satisfies Record<string, Path>;
type P = typeof P;

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
  signatureMatch(body: Body<P['signature'], 'post'>, opts?: RequestOptions): Promise<Data<P['signature'], 'post'>> {
    return this.call('POST', P.signature, { body }, { safe: true }, opts);
  }

  readonly doclocker = {
    /** Starts the document-locker flow: a doclocker__client__id and the URL to send the user to. */
    initialize: (body: Body<P['init'], 'post'>, opts?: RequestOptions): Promise<Data<P['init'], 'post'>> =>
      this.call('POST', P.init, { body }, { safe: true }, opts),
    /** The Aadhaar record of a client id whose user consented. */
    download: (body: Body<P['aadhaar'], 'post'>, opts?: RequestOptions): Promise<Data<P['aadhaar'], 'post'>> =>
      this.call('POST', P.aadhaar, { body }, { safe: true }, opts),
  };

  /** The bank account linked to a mobile number. */
  mobileToBank(body: Body<P['bank'], 'post'>, opts?: RequestOptions): Promise<Data<P['bank'], 'post'>> {
    return this.call('POST', P.bank, { body }, { safe: true }, opts);
  }

  /** Pays a VPA. May answer `pending`: see waitForFinal. */
  upiPayment(body: KeyOptional<Body<P['upi'], 'post'>>, opts?: RequestOptions): Promise<Data<P['upi'], 'post'>> {
    return this.keyed(P.upi, body, opts);
  }

  /** Recharges a mobile number (operator and circle looked up when omitted). May answer `pending`. */
  mobileRecharge(body: KeyOptional<Body<P['recharge'], 'post'>>, opts?: RequestOptions): Promise<Data<P['recharge'], 'post'>> {
    return this.keyed(P.recharge, body, opts);
  }

  /** Recharges a DTH subscription. May answer `pending`. */
  dthRecharge(body: KeyOptional<Body<P['dth'], 'post'>>, opts?: RequestOptions): Promise<Data<P['dth'], 'post'>> {
    return this.keyed(P.dth, body, opts);
  }

  // ---- Recharge pre-flight and catalogues.

  readonly recharge = {
    operators: (opts?: RequestOptions): Promise<Data<P['rechargeOperators'], 'get'>> => this.get(P.rechargeOperators, {}, opts),
    operatorLookup: (query: Query<P['operatorLookup'], 'get'>, opts?: RequestOptions): Promise<Data<P['operatorLookup'], 'get'>> =>
      this.get(P.operatorLookup, { params: { query } }, opts),
    plans: (query: Query<P['plans'], 'get'>, opts?: RequestOptions): Promise<Data<P['plans'], 'get'>> => this.get(P.plans, { params: { query } }, opts),
  };

  readonly dth = {
    operators: (opts?: RequestOptions): Promise<Data<P['dthOperators'], 'get'>> => this.get(P.dthOperators, {}, opts),
    subscriberInfo: (query: Query<P['subscriberInfo'], 'get'>, opts?: RequestOptions): Promise<Data<P['subscriberInfo'], 'get'>> =>
      this.get(P.subscriberInfo, { params: { query } }, opts),
  };

  // ---- Transactions, wallet.

  readonly transactions = {
    /** The latest state of the operation with this reference_id. */
    get: (referenceId: string, opts?: RequestOptions): Promise<Data<P['transaction'], 'get'>> =>
      this.get(P.transaction, { params: { path: { reference_id: referenceId } } }, opts),
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
    balance: (opts?: RequestOptions): Promise<Data<P['wallet'], 'get'>> => this.get(P.wallet, {}, opts),
    /** One page of the statement, newest first. */
    statement: (query: Query<P['statement'], 'get'> = {}, opts?: RequestOptions): Promise<Data<P['statement'], 'get'>> =>
      this.get(P.statement, { params: { query } }, opts),
    /** Every statement entry, page after page. */
    iterateStatement: (query: Omit<Query<P['statement'], 'get'>, 'cursor'> = {}, opts?: RequestOptions): AsyncGenerator<ItemOf<Data<P['statement'], 'get'>>> =>
      this.pages((cursor) => this.wallet.statement({ ...query, ...(cursor ? { cursor } : {}) }, opts)),
  };

  // ---- Webhooks.

  readonly webhooks = {
    endpoints: {
      /** Registers a receiver; the answer carries its signing secret, shown once. Not retried but on 429. */
      create: (body: Body<P['endpoints'], 'post'>, opts?: RequestOptions): Promise<Data<P['endpoints'], 'post'>> =>
        this.call('POST', P.endpoints, { body }, { safe: false }, opts),
      list: (opts?: RequestOptions): Promise<Data<P['endpoints'], 'get'>> => this.get(P.endpoints, {}, opts),
      delete: (id: string, opts?: RequestOptions): Promise<Data<P['endpoint'], 'delete'>> =>
        this.call('DELETE', P.endpoint, { params: { path: { id } } }, { safe: false }, opts),
      /** A new secret; the old one also signs for overlap_seconds (default one day). */
      rotateSecret: (id: string, body: Body<P['rotate'], 'post'> = {}, opts?: RequestOptions): Promise<Data<P['rotate'], 'post'>> =>
        this.call('POST', P.rotate, { params: { path: { id } }, body }, { safe: false }, opts),
      deliveries: (id: string, query: Query<P['deliveries'], 'get'> = {}, opts?: RequestOptions): Promise<Data<P['deliveries'], 'get'>> =>
        this.get(P.deliveries, { params: { path: { id }, query } }, opts),
      /** Sends one event again (event_id), or every failed delivery since a time (since). */
      replay: (id: string, body: Body<P['replay'], 'post'>, opts?: RequestOptions): Promise<Data<P['replay'], 'post'>> =>
        this.call('POST', P.replay, { params: { path: { id } }, body }, { safe: false }, opts),
    },
    /** Verifies a delivery's Standard Webhooks signature and returns its event (throws WebhookVerificationError). */
    verify: (payload: string | Buffer, headers: WebhookHeaders, secret: string): WebhookEvent => verify(payload, headers, secret),
  };

  // ---- Audit logs.

  readonly auditLogs = {
    /** One page, newest first; pass next_cursor as cursor for the next. */
    list: (query: Query<P['audit'], 'get'> = {}, opts?: RequestOptions): Promise<Data<P['audit'], 'get'>> => this.get(P.audit, { params: { query } }, opts),
    /** Every row matching the filters, page after page. */
    iterate: (filters: Omit<Query<P['audit'], 'get'>, 'cursor'> = {}, opts?: RequestOptions): AsyncGenerator<ItemOf<Data<P['audit'], 'get'>>> =>
      this.pages((cursor) => this.auditLogs.list({ ...filters, ...(cursor ? { cursor } : {}) }, opts)),
    /** One row by its request_id, with the redacted request and response bodies. */
    get: (requestId: string, opts?: RequestOptions): Promise<Data<P['auditRow'], 'get'>> =>
      this.get(P.auditRow, { params: { path: { request_id: requestId } } }, opts),
    /**
     * The matching rows as CSV (default) or NDJSON text; `format: 'verifiable'` adds hashes and signed
     * checkpoint proofs, checked offline with `sangam audit verify-export FILE --public-key KEY`.
     */
    export: (query: ExportQuery = {}, opts?: RequestOptions): Promise<string> =>
      this.call('GET', P.auditExport, { params: { query: { format: 'csv', ...query } }, parseAs: 'text' }, { safe: true }, opts),
  };

  readonly erasures = {
    /**
     * Erases one reference's personal content everywhere Sangam keeps it (audit bodies, stored result,
     * webhook events); the audit trail still verifies and the money facts stay. Repeating it is
     * harmless, so it is retried like a read. A pending transaction is a 422: erase it once final.
     */
    create: (referenceId: string, opts?: RequestOptions): Promise<Data<P['erasures'], 'post'>> =>
      this.call('POST', P.erasures, { body: { reference_id: referenceId } }, { safe: true }, opts),
  };

  // ---- Batches: many rows of one operation, each run as its own call (CONTRACT §12).

  readonly batches = {
    /**
     * Submits a JSON batch (1 to 1,000 items). With a client_batch_id a repeat answers the same batch,
     * so it is retried like a read; without one it is not retried but on 429.
     */
    create: (body: Body<P['batches'], 'post'>, opts?: RequestOptions): Promise<Data<P['batches'], 'post'>> =>
      this.call('POST', P.batches, { body }, { safe: (body as { client_batch_id?: string }).client_batch_id !== undefined }, opts),
    /** Submits a CSV (a header naming the fields) or NDJSON file of up to 100,000 rows. */
    upload: (operation: string, file: string, format: 'csv' | 'ndjson', options: UploadOptions = {}, opts?: RequestOptions): Promise<Data<P['batches'], 'post'>> =>
      this.call(
        'POST',
        P.batches,
        { params: { query: { operation, ...options } }, raw: { text: file, contentType: format === 'csv' ? 'text/csv' : 'application/x-ndjson' } },
        { safe: options.client_batch_id !== undefined },
        opts,
      ),
    get: (id: string, opts?: RequestOptions): Promise<Data<P['batch'], 'get'>> => this.get(P.batch, { params: { path: { id } } }, opts),
    /** One page of rows in row order (`status` filters). */
    items: (id: string, query: Query<P['batchItems'], 'get'> = {}, opts?: RequestOptions): Promise<Data<P['batchItems'], 'get'>> =>
      this.get(P.batchItems, { params: { path: { id }, query } }, opts),
    /** Every row, page after page. */
    iterateItems: (id: string, query: Omit<Query<P['batchItems'], 'get'>, 'cursor'> = {}, opts?: RequestOptions): AsyncGenerator<ItemOf<Data<P['batchItems'], 'get'>>> =>
      this.pages((cursor) => this.batches.items(id, { ...query, ...(cursor ? { cursor } : {}) }, opts)),
    /** Every row's result in row order, as CSV (default) or NDJSON text. */
    results: (id: string, format: 'csv' | 'ndjson' = 'csv', opts?: RequestOptions): Promise<string> =>
      this.call('GET', P.batchResults, { params: { path: { id }, query: { format } }, parseAs: 'text' }, { safe: true }, opts),
    /** Rows not yet started are not run. Repeating it is harmless. */
    cancel: (id: string, opts?: RequestOptions): Promise<Data<P['batchCancel'], 'post'>> =>
      this.call('POST', P.batchCancel, { params: { path: { id } } }, { safe: true }, opts),
    /** Polls the batch until it has ended (completed, cancelled or failed); SangamTimeoutError after timeoutMs. */
    wait: (id: string, options: Omit<WaitOptions, 'operation'> = {}): Promise<Data<P['batch'], 'get'>> =>
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

  private keyed<T>(path: Path, body: { idempotency_key?: string }, opts: RequestOptions = {}): Promise<T> {
    const idempotencyKey = body.idempotency_key ?? opts.idempotencyKey ?? globalThis.crypto.randomUUID();
    return this.call('POST', path, { body }, { safe: true, idempotencyKey }, opts);
  }

  private get<T>(path: Path, init: Init, opts?: RequestOptions): Promise<T> {
    return this.call('GET', path, init, { safe: true }, opts);
  }

  /**
   * Sends one request, retrying it after a transient failure where `replay.safe` allows (retry.ts).
   * Answers the envelope's `data` (the body's text for parseAs text); throws SangamError on a non-2xx
   * answer and SangamConnectionError when none arrived.
   */
  private async call<T>(method: HttpMethod, path: Path, init: Init, replay: Replay, opts: RequestOptions = {}): Promise<T> {
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
