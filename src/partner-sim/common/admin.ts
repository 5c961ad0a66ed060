// Owns the /_sim test-control routes that emulators with webhooks answer alike: the delivery log and the
// webhook URL. Answers here use a plain `{ error }` body. Fault routes live in common/faults.ts; each
// partner's ledgers, forced outcomes and balances stay in its own admin.ts.
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
