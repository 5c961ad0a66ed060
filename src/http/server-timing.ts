// Owns the time a request spends, by phase, as the client and the operator see it: every answer (the
// /api/v1 ones are documented) carries a `Server-Timing` header (W3C Server Timing) with Sangam's own time (`sangam`: the whole
// request less the time the partner took) and, for a live call, the partner's (`partner`), so a client
// can tell who was slow; and the phases of a call (`checks`: auth, validation, consent and the
// operation's refusals; `record`: the claim, the hold and the pending row committed; `partner`: the
// partner call; `outcome`: the outcome committed; `answer`: the rest, the answer built and handed to the
// socket) as the histogram `sangam_call_phase_seconds`. The
// runners mark the phases (operations/live-runner.ts, sandbox-runner.ts); a request that has none (a
// read, an error) carries its total only.
import type { FastifyInstance } from 'fastify';
import type { Metrics } from '../metrics.js';

export type Phase = 'checks' | 'record' | 'partner' | 'outcome' | 'answer';

/** One request's phases: how long each took, in milliseconds. */
export class Timing {
  readonly start = performance.now();
  readonly phases = new Map<Phase, number>();

  /** Adds `ms` to `phase`. */
  add(phase: Phase, ms: number): void {
    this.phases.set(phase, (this.phases.get(phase) ?? 0) + ms);
  }

  /** The `checks` phase: from the request's start to now (the runner calls it as it takes the call). */
  checked(): void {
    if (!this.phases.has('checks')) this.phases.set('checks', performance.now() - this.start);
  }

  /** Closes the phases at `total` ms: what none of them took is the answer's (built and sent). */
  close(total: number): void {
    if (this.phases.size === 0 || this.phases.has('answer')) return;
    let marked = 0;
    for (const ms of this.phases.values()) marked += ms;
    this.phases.set('answer', Math.max(0, total - marked));
  }

  /** The header's value; `total` is the request's whole time so far. */
  header(total: number): string {
    const partner = this.phases.get('partner') ?? 0;
    const entries = [`sangam;dur=${fmt(total - partner)};desc="Sangam"`];
    if (this.phases.has('partner')) entries.push(`partner;dur=${fmt(partner)};desc="Partner"`);
    for (const p of ['checks', 'record', 'outcome', 'answer'] as const) {
      const ms = this.phases.get(p);
      if (ms !== undefined) entries.push(`${p};dur=${fmt(ms)}`);
    }
    entries.push(`total;dur=${fmt(total)}`);
    return entries.join(', ');
  }
}

const fmt = (ms: number) => Math.max(0, ms).toFixed(1);

declare module 'fastify' {
  interface FastifyRequest {
    timing?: Timing;
  }
}

/** Times every request from its start; sets Server-Timing on every answer and observes an operation call's phases. */
export function registerServerTiming(app: FastifyInstance, metrics: Metrics): void {
  app.decorateRequest('timing', undefined);
  app.addHook('onRequest', async (req) => {
    req.timing = new Timing();
  });
  app.addHook('onSend', async (req, reply, payload) => {
    const t = req.timing;
    if (!t) return payload;
    const total = performance.now() - t.start;
    t.close(total);
    reply.header('server-timing', t.header(total));
    if (t.phases.size > 0) metrics.callPhases(req.routeOptions.config?.operation, req.auth?.environment, t.phases, total);
    return payload;
  });
}
