// Owns the /_sim test-control routes that emulators with webhooks answer alike: the delivery log, the
// webhook URL, the route that forces a payment's outcome (which outcomes, and what moving one means,
// stay the partner's) and the balance a test reads and sets. Answers here use a plain `{ error }` body. Fault routes live in common/faults.ts;
// each partner's ledgers stay in its own admin.ts.
import type { FastifyInstance } from 'fastify';

/** GET /_sim/webhooks: every delivery attempt, in the partner's own log row shape. */
export function registerWebhookLog(app: FastifyInstance, log: () => readonly unknown[]): void {
  app.get('/_sim/webhooks', async () => ({ count: log().length, deliveries: log() }));
}

/** GET/POST /_sim/webhook `{ url }`: where webhooks go; null sends none. */
export function registerWebhookUrl(app: FastifyInstance, get: () => string | null, set: (url: string | null) => void): void {
  app.get('/_sim/webhook', async () => ({ url: get() }));
  app.post<{ Body: { url?: unknown } }>('/_sim/webhook', async (req, reply) => {
    const url = req.body?.url;
    if (url !== null && (typeof url !== 'string' || !URL.canParse(url))) return reply.code(400).send({ error: 'url must be an absolute URL or null' });
    set(url);
    return { url };
  });
}

export interface SettleRoute<B extends { status?: unknown }, R> {
  /** The outcomes a test may force. */
  statuses: readonly string[];
  /** Anything else in the body that is refused (its message), or null. */
  refuse?(body: B): string | null;
  /** Moves the payment `id`: the record, or why it cannot (`unknown` when there is no such payment). */
  force(id: string, body: B): R | string;
  unknown: string;
  view(r: R): unknown;
}

/** POST `path` (with `:id`) `{status, …}`: a payment's outcome forced; 404 for an unknown payment, 409 where it cannot move. */
export function registerSettle<B extends { status?: unknown }, R>(app: FastifyInstance, path: string, o: SettleRoute<B, R>): void {
  app.post<{ Params: { id: string }; Body: unknown }>(path, async (req, reply) => {
    const body = (req.body ?? {}) as B;
    if (typeof body.status !== 'string' || !o.statuses.includes(body.status)) return reply.code(400).send({ error: `status must be one of ${o.statuses.join(', ')}` });
    const refused = o.refuse?.(body);
    if (refused) return reply.code(400).send({ error: refused });
    const r = o.force(req.params.id, body);
    if (typeof r === 'string') return reply.code(r === o.unknown ? 404 : 409).send({ error: r });
    return o.view(r);
  });
}

/**
 * GET/POST `path` `{ [field]: paise }`: the balance a test reads and sets; anything but a whole number
 * ≥ 0 is a 400 saying `refusal`. The POST answers the new balance and whatever `set` reports.
 */
export function registerBalance(app: FastifyInstance, path: string, field: string, o: { get(): number; set(paise: number): object | void; refusal: string }): void {
  app.get(path, async () => ({ [field]: o.get() }));
  app.post<{ Body: Record<string, unknown> | null }>(path, async (req, reply) => {
    const b = req.body?.[field];
    if (typeof b !== 'number' || !Number.isInteger(b) || b < 0) return reply.code(400).send({ error: o.refusal });
    return { [field]: b, ...o.set(b) };
  });
}
