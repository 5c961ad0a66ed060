// Owns partner callbacks in: POST /partners/<name>/webhooks (CONTRACT §9). The partner's connector
// verifies the raw bytes with its own scheme (Standard Webhooks, X-Razorpay-Signature…) and parses
// them into events; one that does not verify gets a 401 and changes nothing. Each event is applied by
// settlement exactly once (a repeated event id is acknowledged and dropped); a report that disagrees
// with a final state is flagged for review, never applied; an event whose partner id belongs to another
// transaction than the one it names (or whose transaction another partner holds) is refused with a 409
// and flagged.
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../errors.js';
import { CallbackRefused } from '../../providers/connector.js';
import type { PartnerRouter } from '../../providers/router.js';
import type { Settlement } from '../../settlement/settlement.js';

export function registerPartnerWebhooks(app: FastifyInstance, partners: PartnerRouter, settlement: Settlement): void {
  app.register(async (scope) => {
    // A signature covers the exact bytes sent: keep the body as a string.
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => done(null, body));
    scope.post<{ Params: { name: string } }>('/partners/:name/webhooks', { schema: { hide: true } }, async (req, reply) => {
      let events;
      try {
        events = partners.parseCallback(req.params.name, { headers: req.headers, rawBody: typeof req.body === 'string' ? req.body : '' });
      } catch (err) {
        if (!(err instanceof CallbackRefused)) throw err;
        req.log.warn({ partner: req.params.name, reason: err.message }, 'partner callback refused');
        throw new ApiError('unauthenticated', err.message);
      }
      if (!events) throw new ApiError('not_found', `No partner ${req.params.name} takes callbacks here`);
      const results = [];
      for (const e of events) {
        const result = await settlement.apply(e, req.params.name, e.eventId);
        if (result === 'conflict') req.log.warn({ partner: req.params.name, txn_id: e.txnId, partner_ref: e.partnerRef }, 'conflicting partner callback flagged');
        if (result === 'mismatch') req.log.warn({ partner: req.params.name, txn_id: e.txnId, partner_ref: e.partnerRef }, 'partner callback names a transaction its payout is not: refused and flagged');
        results.push(result);
      }
      // An event whose partner id and transaction disagree is refused (409), never applied.
      const refused = results.includes('mismatch');
      return reply.code(refused ? 409 : 200).send({ ok: !refused, result: results.length === 1 ? results[0] : results });
    });
  });
}
