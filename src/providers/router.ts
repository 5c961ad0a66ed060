// Owns routing live calls across partners. Partners are built from configuration through the kind
// registry (registry.ts). Each operation has an ordered list of partners (SANGAM_PARTNER_ROUTES;
// default: every partner that serves it, in the order configured). A call goes to the first partner
// whose circuit breaker (opossum) is not open; it fails over to the next only when the partner failed
// before any outcome (PartnerError: unreachable, refused, a 503 it documents as not executed). A
// partner that took the request and did not answer (NoAnswer) is NOT failed over: the money may have
// moved, so the operation stays pending and reconciliation asks that same partner later. Every call's
// latency and result feed the metrics. What a connector reports (its answer, a status enquiry's, a
// callback's, its own routes') reaches the core as the public answer (answer.ts). Each call to a
// partner is a span `partner <operation>` with the partner's name and the outcome (tracing/): no input,
// no answer.
import CircuitBreaker from 'opossum';
import type { FastifyBaseLogger } from 'fastify';
import { ConfigError, type Config } from '../config.js';
import type { Metrics } from '../metrics.js';
import {
  NoAnswer,
  PartnerError,
  type Connector,
  type DthSubscriber,
  type FloatBalance,
  type FloatTerms,
  type OperationRequest,
  type OperationSlug,
  type OperatorLookup,
  type Outcome,
  type PartnerOutcome,
  type Polling,
  type RechargePlan,
  type PartnerEvent,
  type PartnerReport,
  type PartnerRoute,
  type PartnerRouteHooks,
  type TxRef,
  type VpaHolder,
} from './connector.js';
import { answerOf, reportAnswer } from './answer.js';
import { KINDS } from './registry.js';
import type { PartnerSessionStore } from './sessions.js';
import { inSpan, type Span } from '../tracing/index.js';

interface Endpoint {
  name: string;
  kind: string;
  vars: Record<string, string>;
  connector: Connector;
  breaker: CircuitBreaker<[() => Promise<PartnerOutcome>], PartnerOutcome>;
}

/** A partner's prepaid float as src/float/ reads it: its terms and its balance now. */
export interface FloatAccount {
  partner: string;
  terms: FloatTerms;
  balance(): Promise<FloatBalance>;
}

/** The partner that produced an outcome travels with it, so the transaction records who holds it. */
export type RoutedOutcome = Outcome & { partner?: string };

/** The core's side of a connector's route hooks: reports arrive as the core keeps them (answer.ts). */
export type CoreRouteHooks = Omit<PartnerRouteHooks, 'report' | 'warn'> & { report(report: PartnerReport): Promise<void> };

/** The optional pre-flight questions a connector may answer (no money moves), and what each is called in a failure. */
const PREFLIGHT_NAMES = { lookupOperator: 'operator lookup', plans: 'plans', dthSubscriberInfo: 'subscriber info', vpaHolder: 'VPA validation' } as const;

/** How an error names the partners of a route. */
const SERVICE_NAMES: Partial<Record<OperationSlug, string>> = { 'dth-recharge': 'DTH', 'recharge-commission': 'recharge', 'upi-payment-status': 'UPI payout' };

const invalid = (what: string) => new ConfigError(`Invalid configuration:\n  ${what}`);

export class PartnerRouter {
  private endpoints = new Map<string, Endpoint>();
  private routes: Record<string, string[]>;

  /** `operations`: every operation's slug (the registry's, passed down so this room never imports it). */
  constructor(config: Config['partner'], publicUrl: string, sessions: PartnerSessionStore, private metrics: Metrics, operations: readonly string[]) {
    for (const p of config.endpoints) {
      const factory = KINDS[p.kind];
      if (!factory) throw invalid(`SANGAM_PARTNER_${p.name.toUpperCase()}_KIND: unknown kind ${p.kind} (known: ${Object.keys(KINDS).join(', ')})`);
      let connector: Connector;
      try {
        connector = factory({
          name: p.name,
          url: p.url,
          vars: p.vars,
          webhookUrl: `${publicUrl}/partners/${p.name}/webhooks`,
          oauthCallbackUrl: `${publicUrl}/partners/${p.name}/oauth/callback`,
          timeoutFor: (slug) => config.timeouts[`${p.name}/${slug}`] ?? config.timeouts[`${p.name}/*`] ?? config.timeouts[`*/${slug}`] ?? config.timeoutMs,
          sessions: sessions.for(p.name),
        });
      } catch (err) {
        throw invalid(`partner ${p.name} (kind ${p.kind}): ${(err as Error).message}`);
      }
      const breaker = new CircuitBreaker(async (thunk: () => Promise<PartnerOutcome>) => thunk(), {
        timeout: false, // deadlines are the connector's own, per operation
        errorThresholdPercentage: config.breaker.errorPct,
        volumeThreshold: config.breaker.minCalls,
        resetTimeout: config.breaker.resetMs,
        rollingCountTimeout: 10_000,
      });
      breaker.on('open', () => metrics.breakerState(p.name, 'open'));
      breaker.on('halfOpen', () => metrics.breakerState(p.name, 'halfOpen'));
      breaker.on('close', () => metrics.breakerState(p.name, 'close'));
      metrics.breakerState(p.name, 'close');
      const pace = p.vars.BATCH_ROWS_PER_SEC;
      if (pace !== undefined && !(/^[0-9]+(\.[0-9]+)?$/.test(pace) && Number(pace) > 0 && Number(pace) <= 10_000)) {
        throw invalid(`SANGAM_PARTNER_${p.name.toUpperCase()}_BATCH_ROWS_PER_SEC: live batch rows a second at this partner, a number above 0 and at most 10000 (got ${pace})`);
      }
      this.endpoints.set(p.name, { name: p.name, kind: p.kind, vars: p.vars, connector, breaker });
    }
    for (const [slug, list] of Object.entries(config.routes)) {
      if (!operations.includes(slug)) throw invalid(`SANGAM_PARTNER_ROUTES: unknown operation ${slug}`);
      for (const n of list) {
        const e = this.endpoints.get(n);
        if (!e) throw invalid(`SANGAM_PARTNER_ROUTES: unknown partner ${n}`);
        if (!e.connector.serves.includes(slug as OperationSlug)) throw invalid(`SANGAM_PARTNER_ROUTES: partner ${n} (kind ${e.kind}) does not serve ${slug}`);
      }
    }
    const serving = (slug: OperationSlug) => [...this.endpoints.values()].filter((e) => e.connector.serves.includes(slug)).map((e) => e.name);
    this.routes = Object.fromEntries(operations.map((slug) => [slug, config.routes[slug] ?? serving(slug as OperationSlug)]));
  }

  /** Breaker state per partner, for the health endpoint. */
  health(): Record<string, 'closed' | 'open' | 'half-open'> {
    return Object.fromEntries([...this.endpoints.values()].map((e) => [e.name, e.breaker.opened ? 'open' : e.breaker.halfOpen ? 'half-open' : 'closed']));
  }

  route(slug: string): string[] {
    return this.routes[slug] ?? [];
  }

  has(partner: string): boolean {
    return this.endpoints.has(partner);
  }

  /**
   * The pace of live batch rows of `operation` at the partner routed first for it
   * (SANGAM_PARTNER_<NAME>_BATCH_ROWS_PER_SEC, rows a second, shared by every operation routed to that
   * partner); null when that partner sets none (the operation's own pace, SANGAM_BATCH_LIVE_ROWS_PER_SEC,
   * still applies either way).
   */
  batchPace(operation: string): { partner: string; perSec: number } | null {
    const partner = this.route(operation)[0];
    const text = partner === undefined ? undefined : this.endpoints.get(partner)?.vars.BATCH_ROWS_PER_SEC;
    // Checked at boot (the constructor): a number above 0.
    return partner === undefined || text === undefined ? null : { partner, perSec: Number(text) };
  }

  /** A partner's polling etiquette: its variables over its documented defaults; null when it has none. */
  polling(partner: string): Polling | null {
    const e = this.endpoints.get(partner);
    if (!e) return null;
    const own = e.connector.polling;
    const v = (name: string, fallback: number | undefined) => {
      const text = e.vars[`POLL_${name}_S`];
      return text !== undefined && /^[0-9]+(\.[0-9]+)?$/.test(text) ? Number(text) : fallback;
    };
    const firstS = v('FIRST', own?.firstS);
    const gapS = v('GAP', own?.gapS);
    const cutoffS = v('CUTOFF', own?.cutoffS);
    return firstS === undefined || gapS === undefined || cutoffS === undefined ? null : { firstS, gapS, cutoffS };
  }

  /**
   * When to ask a partner again about a success of `operation` it can still undo (seconds after the
   * success): `override` (SANGAM_REVERSAL_WATCH_SCHEDULE) or its documented schedule; null when its
   * status cannot show a reversal of that operation.
   */
  reversalWatch(partner: string, operation: string, override: readonly number[] | null): readonly number[] | null {
    const w = this.endpoints.get(partner)?.connector.reversalWatch;
    if (!w || !w.operations.includes(operation as OperationSlug)) return null;
    return override ?? w.scheduleS;
  }

  /** What a partner's connector declares a pending with it normally takes to become final (seconds). */
  expectedFinalS(partner: string): number | undefined {
    return this.endpoints.get(partner)?.connector.expectedFinalS;
  }

  /** The partners that keep a prepaid float for us and can read its balance (src/float/), in configuration order. */
  floats(): FloatAccount[] {
    return [...this.endpoints.values()].flatMap((e) => {
      const c = e.connector;
      return c.float && c.floatBalance ? [{ partner: e.name, terms: c.float, balance: () => c.floatBalance!() }] : [];
    });
  }

  /** The configured partners' names, in configuration order. */
  names(): string[] {
    return [...this.endpoints.keys()];
  }

  /** Runs the request on the first partner of its route that takes it; see the module header. */
  async execute(req: OperationRequest): Promise<RoutedOutcome> {
    const slug = req.operation;
    let last: PartnerError | null = null;
    for (const name of this.route(slug)) {
      const tried = await inSpan(`partner ${slug}`, { 'sangam.partner': name, 'sangam.operation': slug }, (span) => this.tryPartner(name, req, span));
      if ('outcome' in tried) return tried.outcome;
      last = tried.error; // failed before any outcome: the next partner may take it
    }
    throw last ?? new PartnerError('unavailable', `No partner network is configured for ${slug}; nothing was executed or debited`);
  }

  /**
   * One partner's try: its outcome, or the PartnerError after which the next partner may try. The call's
   * result goes to the metrics and to its span.
   */
  private async tryPartner(name: string, req: OperationRequest, span: Span): Promise<{ outcome: RoutedOutcome } | { error: PartnerError }> {
    const e = this.endpoints.get(name)!;
    const started = performance.now();
    const called = (result: string, ms = performance.now() - started) => {
      this.metrics.partnerCall(name, req.operation, result, ms);
      span.setAttribute('sangam.partner.outcome', result);
    };
    try {
      const outcome = await e.breaker.fire(() => e.connector.execute(req));
      called(outcome.status);
      return { outcome: { ...answerOf(outcome), partner: name } };
    } catch (err) {
      if (err instanceof NoAnswer) {
        called('no_answer');
        return { outcome: { ...answerOf(err.outcome), partner: name } };
      }
      if ((err as { code?: string }).code === 'EOPENBREAKER') {
        called('breaker_open', 0);
        return { error: new PartnerError('unavailable', `Partner ${name} is failing (circuit open); nothing was executed or debited`) };
      }
      if (err instanceof PartnerError) {
        called(err.kind);
        return { error: err };
      }
      throw err;
    }
  }

  /** The operator and circle of a mobile, from the recharge partners that offer a lookup. */
  lookupOperator(mobile: string): Promise<OperatorLookup> {
    return this.firstOf('recharge-commission', 'lookupOperator', (c) => c.lookupOperator!(mobile));
  }

  /** The plans of an operator in a circle, from the recharge partners that offer them. */
  plans(operator: string, circle: string): Promise<RechargePlan[]> {
    return this.firstOf('recharge-commission', 'plans', (c) => c.plans!(operator, circle));
  }

  /** A DTH subscriber's name, pack, balance and next recharge date, from the DTH partners that offer it. */
  dthSubscriberInfo(operator: string, subscriberId: string): Promise<DthSubscriber | null> {
    return this.firstOf('dth-recharge', 'dthSubscriberInfo', (c) => c.dthSubscriberInfo!(operator, subscriberId));
  }

  /** A VPA's registered holder, from the UPI payout partners that validate VPAs (the payout name check). */
  vpaHolder(vpa: string): Promise<VpaHolder> {
    return this.firstOf('upi-payment-status', 'vpaHolder', (c) => c.vpaHolder!(vpa));
  }

  /** Asks the partners of `slug`'s route that have `method`, the next only after a PartnerError. */
  private async firstOf<T>(slug: OperationSlug, method: keyof typeof PREFLIGHT_NAMES, ask: (c: Connector) => Promise<T>): Promise<T> {
    let last: PartnerError | null = null;
    for (const name of this.route(slug)) {
      const c = this.endpoints.get(name)!.connector;
      if (!c[method]) continue;
      try {
        return await ask(c);
      } catch (err) {
        if (!(err instanceof PartnerError)) throw err;
        last = err;
      }
    }
    throw last ?? new PartnerError('unavailable', `No live ${SERVICE_NAMES[slug] ?? slug} partner offers ${PREFLIGHT_NAMES[method]}`);
  }

  /** Status enquiry at one partner; null when it does not know the transaction (or cannot be asked). */
  async status(partner: string, tx: TxRef): Promise<PartnerReport | null> {
    const c = this.endpoints.get(partner)?.connector;
    return inSpan('partner status enquiry', { 'sangam.partner': partner }, async (span) => {
      const report = c?.status ? await c.status(tx) : null;
      span.setAttribute('sangam.partner.outcome', report ? report.outcome.status : 'unknown');
      return report && reportAnswer(report);
    });
  }

  /** Verifies and parses a callback sent to /partners/<partner>/webhooks; undefined for an unknown partner. */
  parseCallback(partner: string, req: Parameters<NonNullable<Connector['parseCallback']>>[0]): PartnerEvent[] | undefined {
    const c = this.endpoints.get(partner)?.connector;
    return c?.parseCallback?.(req).map(reportAnswer);
  }

  /** The signed document a partner still holds for a transaction (Xml_Url in live). */
  async document(partner: string, txnId: string): Promise<{ contentType: string; body: string } | null> {
    const c = this.endpoints.get(partner)?.connector;
    return c?.document ? c.document(txnId) : null;
  }

  /** Revokes the grant a partner still holds for a client id (a consent withdrawn); false when it holds none. */
  async revokeGrant(partner: string, clientId: string): Promise<boolean> {
    const c = this.endpoints.get(partner)?.connector;
    return c?.revokeGrant ? c.revokeGrant(clientId) : false;
  }

  /** The partners' own routes (an OAuth callback), each with its partner's name (its URLs are under /partners/<name>/). */
  ownRoutes(log: FastifyBaseLogger, hooks: (partner: string) => CoreRouteHooks): Array<{ partner: string; route: PartnerRoute }> {
    return [...this.endpoints.values()].flatMap((e) => {
      // A connector's alarm: a warning in the log and a count in /metrics.
      const warn = (kind: string, message: string, fields: Record<string, unknown> = {}) => {
        this.metrics.partnerAlarm(e.name, kind);
        log.warn({ partner: e.name, kind, ...fields }, message);
      };
      const core = hooks(e.name);
      return (e.connector.routes?.({ warn, ...core, report: (r) => core.report(reportAnswer(r)) }) ?? []).map((route) => ({ partner: e.name, route }));
    });
  }

  async close(): Promise<void> {
    for (const e of this.endpoints.values()) {
      e.breaker.shutdown();
      await e.connector.close?.();
    }
  }
}
