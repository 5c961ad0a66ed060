// Owns routing live calls across partner endpoints. Each operation has an ordered list of partners
// (SANGAM_PARTNER_ROUTES; default: every partner in the order configured). A call goes to the first
// partner whose circuit breaker (opossum) is not open; it fails over to the next only when the partner
// failed before any outcome (unreachable, refused, 503). A partner that took the request and did not
// answer is NOT failed over: the money may have moved, so the operation stays pending and reconciliation
// asks that same partner later. Every call's latency and result feed the metrics.
import CircuitBreaker from 'opossum';
import { ConfigError, type Config } from '../config.js';
import type { LegacyConnector, Outcome } from './connector.js';
import { HttpPartnerConnector, NoAnswer, PartnerError, OP_OF_SLUG } from './http-partner/index.js';
import type { PartnerAnswer } from './http-partner/protocol.js';
import type { Metrics } from '../metrics.js';

type Op = (typeof OP_OF_SLUG)[string];
const SLUG_OF_OP = Object.fromEntries(Object.entries(OP_OF_SLUG).map(([slug, op]) => [op, slug])) as Record<Op, string>;

interface Endpoint {
  name: string;
  connector: HttpPartnerConnector;
  breaker: CircuitBreaker<[() => Promise<Outcome>], Outcome>;
}

/** The partner that produced an outcome travels with it, so the transaction records who holds it. */
export type RoutedOutcome = Outcome & { partner?: string };

export class PartnerRouter implements LegacyConnector {
  private endpoints = new Map<string, Endpoint>();
  private routes: Record<string, string[]>;

  constructor(
    private config: Config['partner'],
    callbackUrl: string,
    private metrics: Metrics,
  ) {
    for (const { name, url } of config.endpoints) {
      const connector = new HttpPartnerConnector({
        baseUrl: url,
        callbackUrl,
        timeoutMs: config.timeoutMs,
        timeoutFor: (slug) => config.timeouts[`${name}/${slug}`] ?? config.timeouts[`${name}/*`] ?? config.timeouts[`*/${slug}`] ?? config.timeoutMs,
      });
      const breaker = new CircuitBreaker(async (thunk: () => Promise<Outcome>) => thunk(), {
        timeout: false, // deadlines are the connector's own, per operation
        errorThresholdPercentage: config.breaker.errorPct,
        volumeThreshold: config.breaker.minCalls,
        resetTimeout: config.breaker.resetMs,
        rollingCountTimeout: 10_000,
      });
      breaker.on('open', () => metrics.breakerState(name, 'open'));
      breaker.on('halfOpen', () => metrics.breakerState(name, 'halfOpen'));
      breaker.on('close', () => metrics.breakerState(name, 'close'));
      metrics.breakerState(name, 'close');
      this.endpoints.set(name, { name, connector, breaker });
    }
    const names = config.endpoints.map((e) => e.name);
    for (const [slug, list] of Object.entries(config.routes)) {
      if (!OP_OF_SLUG[slug]) throw new ConfigError(`Invalid configuration:\n  SANGAM_PARTNER_ROUTES: unknown operation ${slug}`);
      for (const n of list) if (!this.endpoints.has(n)) throw new ConfigError(`Invalid configuration:\n  SANGAM_PARTNER_ROUTES: unknown partner ${n}`);
    }
    this.routes = Object.fromEntries(Object.keys(OP_OF_SLUG).map((slug) => [slug, config.routes[slug] ?? names]));
  }

  /** Breaker state per partner, for the health endpoint. */
  health(): Record<string, 'closed' | 'open' | 'half-open'> {
    return Object.fromEntries([...this.endpoints.values()].map((e) => [e.name, e.breaker.opened ? 'open' : e.breaker.halfOpen ? 'half-open' : 'closed']));
  }

  route(slug: string): string[] {
    return this.routes[slug] ?? [];
  }

  /** Status enquiry at one partner; null when it does not know the transaction. */
  status(partner: string, clientRef: string): Promise<PartnerAnswer | null> {
    const e = this.endpoints.get(partner);
    if (!e) return Promise.resolve(null);
    return e.connector.status(clientRef);
  }

  private async call(op: Op, run: (c: HttpPartnerConnector) => Promise<Outcome>): Promise<RoutedOutcome> {
    const slug = SLUG_OF_OP[op];
    let last: PartnerError | null = null;
    for (const name of this.route(slug)) {
      const e = this.endpoints.get(name)!;
      const started = performance.now();
      try {
        const outcome = await e.breaker.fire(() => run(e.connector));
        this.metrics.partnerCall(name, slug, outcome.status, performance.now() - started);
        return { ...outcome, partner: name };
      } catch (err) {
        if (err instanceof NoAnswer) {
          this.metrics.partnerCall(name, slug, 'no_answer', performance.now() - started);
          return { ...err.outcome, partner: name };
        }
        if ((err as { code?: string }).code === 'EOPENBREAKER') {
          this.metrics.partnerCall(name, slug, 'breaker_open', 0);
          last = new PartnerError('unavailable', `Partner ${name} is failing (circuit open); nothing was executed or debited`);
          continue;
        }
        if (err instanceof PartnerError) {
          this.metrics.partnerCall(name, slug, err.kind, performance.now() - started);
          last = err;
          continue; // failed before any outcome: the next partner may take it
        }
        throw err;
      }
    }
    throw last ?? new PartnerError('unavailable', `No partner network is configured for ${slug}; nothing was executed or debited`);
  }

  signatureMatch(r: Parameters<LegacyConnector['signatureMatch']>[0]) {
    return this.call('signatureMatch', (c) => c.signatureMatch(r));
  }
  aadhaarInitialize(r: { txnId: string; redirectUrl?: string }) {
    return this.call('aadhaarInitialize', (c) => c.aadhaarInitialize(r));
  }
  aadhaarDownload(r: Parameters<LegacyConnector['aadhaarDownload']>[0]) {
    return this.call('aadhaarDownload', (c) => c.aadhaarDownload(r));
  }
  mobileToBank(r: Parameters<LegacyConnector['mobileToBank']>[0]) {
    return this.call('mobileToBank', (c) => c.mobileToBank(r));
  }
  upiPay(r: Parameters<LegacyConnector['upiPay']>[0]) {
    return this.call('upiPay', (c) => c.upiPay(r));
  }
  mobileRecharge(r: Parameters<LegacyConnector['mobileRecharge']>[0]) {
    return this.call('mobileRecharge', (c) => c.mobileRecharge(r));
  }
  dthRecharge(r: Parameters<LegacyConnector['dthRecharge']>[0]) {
    return this.call('dthRecharge', (c) => c.dthRecharge(r));
  }

  async close(): Promise<void> {
    for (const e of this.endpoints.values()) {
      e.breaker.shutdown();
      await e.connector.close();
    }
  }
}
