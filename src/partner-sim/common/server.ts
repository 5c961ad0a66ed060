// Owns the process scaffolding every emulator shares: option merging (undefined keeps the default), the
// timer set close() cancels, the Fastify instance, the JSON body parser, the one place a partner's error
// shapes are installed, and listen/close. What the bodies say stays in each partner's errors.ts.
import Fastify, { type FastifyInstance, type FastifyRequest, type FastifyServerOptions } from 'fastify';

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
  readonly later = (ms: number, fn: () => void): void => {
    const t = setTimeout(() => {
      this.set.delete(t);
      fn();
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
