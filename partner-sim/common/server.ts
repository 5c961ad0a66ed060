// Owns the process scaffolding every emulator shares: option merging (undefined keeps the default), the
// timer set close() cancels, the Fastify instance, the JSON body parser, the one place a partner's error
// shapes are installed, listen/close, and startEmulator, the bootstrap that ties them together so an
// emulator is only its routes and its state. What the bodies say stays in each partner's errors.ts.
import Fastify, { type FastifyInstance, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { StateFile, type Persisted } from './persist.js';

export function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** The defaults with every option that was given (CLI flags left out keep the defaults). */
export function withDefaults<S extends object>(defaults: S, opts: object): S {
  return { ...defaults, ...definedOnly(opts) } as S;
}

/** Timers the emulator owns, so close() can cancel lifecycle steps, hangs and webhook retries still waiting. */
export class Timers {
  private readonly set = new Set<NodeJS.Timeout>();
  /** Called after every timer that fires (the state file is written then: common/persist.ts). */
  afterEach: () => void = () => {};
  readonly later = (ms: number, fn: () => void): void => {
    const t = setTimeout(() => {
      this.set.delete(t);
      fn();
      this.afterEach();
    }, ms);
    this.set.add(t);
  };
  readonly sleep = (ms: number): Promise<void> => new Promise((resolve) => this.later(ms, resolve));
  clear(): void {
    for (const t of this.set) clearTimeout(t);
    this.set.clear();
  }
}

/** A Fastify instance as every emulator runs it: no logger, and close() drops keep-alive connections. */
export function emulatorApp(extra: FastifyServerOptions = {}): FastifyInstance {
  return Fastify({ logger: false, forceCloseConnections: true, ...extra });
}

/**
 * Replaces Fastify's JSON parser so a body that is not JSON answers the partner's own 400 (`invalid`).
 * `emptyIsNoBody`: an empty JSON body is no body (a call sent with a JSON content type and nothing else
 * must not fail); otherwise it is invalid JSON too.
 */
export function jsonBodies(app: FastifyInstance, invalid: () => Error, emptyIsNoBody = true): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    if (emptyIsNoBody && body === '') return done(null, undefined);
    try {
      done(null, JSON.parse(body as string));
    } catch {
      done(invalid(), undefined);
    }
  });
}

/** One API request an emulator answered: what was sent (the body parsed) and what it answered. */
export interface ReceivedRequest {
  method: string;
  /** The path without its query. */
  path: string;
  url: string;
  body: unknown;
  status: number;
  /** The answer's body, parsed when it was JSON. */
  answer: unknown;
}

/** How many requests an emulator keeps (the oldest go first). */
const KEPT_REQUESTS = 2000;

/**
 * Keeps every request under `prefix` (not the /_sim test surface) with its answer, so tests can hold the
 * bodies a connector really sends, and the emulator's answers, against the partner's own document.
 */
export function keepRequests(app: FastifyInstance, prefix: string): ReceivedRequest[] {
  const kept: ReceivedRequest[] = [];
  app.addHook('onSend', async (req, reply, payload) => {
    if (!req.url.startsWith(prefix)) return payload;
    let answer: unknown = payload;
    if (typeof payload === 'string') {
      try {
        answer = JSON.parse(payload);
      } catch {
        answer = payload;
      }
    }
    kept.push({ method: req.method, path: req.url.split('?')[0]!, url: req.url, body: req.body, status: reply.statusCode, answer });
    if (kept.length > KEPT_REQUESTS) kept.shift();
    return payload;
  });
  return kept;
}

type StatusError = Error & { statusCode?: number };

export interface ErrorShapes {
  /** The partner's own error as it leaves, or undefined for any other error. */
  known(err: Error, req: FastifyRequest): { status: number; body: unknown; headers?: Record<string, string> } | undefined;
  /** The body for a 4xx Fastify raised itself (bad body, wrong content type, too large); the status is kept. */
  client(err: StatusError & { statusCode: number }, req: FastifyRequest): unknown;
  /** The body of any other failure, always a 500. */
  server(req: FastifyRequest): unknown;
  notFound(req: FastifyRequest): unknown;
}

/** Every error, and every unknown path, leaves in the partner's shape, never Fastify's own. */
export function installErrorShapes(app: FastifyInstance, shapes: ErrorShapes): void {
  app.setErrorHandler((err: StatusError, req, reply) => {
    const known = shapes.known(err, req);
    if (known) return reply.code(known.status).headers(known.headers ?? {}).send(known.body);
    if (err.statusCode && err.statusCode < 500) return reply.code(err.statusCode).send(shapes.client(err as StatusError & { statusCode: number }, req));
    return reply.code(500).send(shapes.server(req));
  });
  app.setNotFoundHandler((req, reply) => reply.code(404).send(shapes.notFound(req)));
}

/** Listens where the settings say; answers the origin and the port actually bound (for port 0). */
export async function listen(app: FastifyInstance, s: { port: number; host: string }): Promise<{ origin: string; port: number }> {
  const origin = await app.listen({ port: s.port, host: s.host });
  return { origin, port: Number(new URL(origin).port) };
}

/** Stops an emulator: pending timers first (no step fires into a closed server), then `also`, then the server. */
export async function closeEmulator(app: FastifyInstance, timers: Timers, also: () => void = () => {}): Promise<void> {
  timers.clear();
  also();
  await app.close();
}

/** What starting any emulator answers; each adds its own ledgers and webhook controls. */
export interface EmulatorHandle<S, F> {
  app: FastifyInstance;
  url: string;
  settings: S;
  /** Replaces the fault set (fields left out reset), as POST /_sim/faults does. */
  setFaults(f: Partial<F>): void;
  close(): Promise<void>;
}

/** What the scaffold lends an emulator's own part: its app, settings, timers and the current fault set. */
export interface EmulatorParts<S, F> {
  app: FastifyInstance;
  settings: S;
  timers: Timers;
  /** The fault set a route reads at call time. */
  faults(): F;
  /** Replaces the whole fault set (POST /_sim/faults has already filled in what was left out). */
  replaceFaults(f: F): void;
}

/** What an emulator's own part answers: what its handle adds, where its API sits under the origin, what to stop on close. */
export interface EmulatorBuilt<X> {
  handle: X;
  /** The API base under the origin (`/payout`), when it is not the origin itself. */
  basePath?: string;
  /** Stopped on close, after the timers and before the server (a webhook sender). */
  close?: () => void;
  /** Its books, kept in the data dir's state file when the emulator is given one (common/persist.ts). */
  persist?: Persisted;
}

export interface EmulatorSpec<S extends { port: number; host: string }, F, X> {
  /** The kind, named in its state file. */
  kind?: string;
  defaults: S;
  /** The options given (undefined keeps the default). */
  opts: object;
  /** Behave: the fault set at start and after setFaults({}). */
  noFaults: F;
  appOptions?(s: S): FastifyServerOptions;
  /** The partner's body parsing and error shapes (installErrorShapes). */
  errors(app: FastifyInstance): void;
  /** The partner's state and routes. */
  build(parts: EmulatorParts<S, F>): Promise<EmulatorBuilt<X>>;
}

/**
 * With a data dir: the books saved there are restored now, and saved again before every answer to a
 * request that may change them (any but GET/HEAD) and after every lifecycle step (common/persist.ts).
 */
export function keepBooks(app: FastifyInstance, timers: Timers, kind: string, dataDir: string | null | undefined, persist: Persisted | undefined): void {
  if (!dataDir || !persist) return;
  const file = new StateFile(dataDir, kind);
  const saved = file.read();
  if (saved !== undefined) persist.restore(saved);
  const save = () => file.write(persist.save());
  timers.afterEach = save;
  app.addHook('onSend', async (req, _reply, payload) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') save();
    return payload;
  });
}

/**
 * The bootstrap every emulator shares: settings from the defaults, the Fastify app, the timers, the
 * fault set, the partner's error shapes, its state and routes (`build`), listen, and the handle with
 * close. A new emulator is its routes and its state.
 */
export async function startEmulator<S extends { port: number; host: string }, F, X>(
  spec: EmulatorSpec<S, F, X>,
): Promise<EmulatorHandle<S, F> & X & { origin: string }> {
  const s = withDefaults(spec.defaults, spec.opts);
  const app = emulatorApp(spec.appOptions?.(s));
  const timers = new Timers();
  let faults: F = { ...spec.noFaults };
  spec.errors(app);
  const built = await spec.build({ app, settings: s, timers, faults: () => faults, replaceFaults: (f) => void (faults = f) });
  keepBooks(app, timers, spec.kind ?? 'emulator', (spec.opts as { dataDir?: string | null }).dataDir, built.persist);
  const { origin, port } = await listen(app, s);
  return {
    ...built.handle,
    app,
    url: `${origin}${built.basePath ?? ''}`,
    origin,
    settings: { ...s, port },
    setFaults: (f: Partial<F>) => void (faults = { ...spec.noFaults, ...f }),
    close: () => closeEmulator(app, timers, built.close),
  };
}
