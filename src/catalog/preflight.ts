// Owns recharge pre-flight (CONTRACT §10): which operator and circle a mobile number belongs to, and the
// plans of an operator in a circle. The sandbox answers deterministically; live asks the recharge
// partners (those on recharge-commission's route that offer it, in order, the next one only when a
// partner failed before answering) and caches each answer, because lookups cost money at the partner:
// a mobile for SANGAM_OPERATOR_LOOKUP_TTL_S, a plan list for SANGAM_PLANS_TTL_S.
// Its DTH counterpart: a DTH subscriber's name, current pack, balance and next recharge date, from the
// partners on dth-recharge's route that offer it, cached for SANGAM_DTH_INFO_TTL_S (short: the balance
// moves with every day and every recharge).
//
// Errors: partner_failed / partner_timeout (502 / 504) when no live partner answers; not_found (404) for a
// subscriber the biller does not know.
import type { Environment } from '../db/schema.js';
import { ApiError } from '../errors.js';
import { TtlCache } from '../access/ttl-cache.js';
import { PartnerError, type DthSubscriber, type OperatorLookup, type RechargePlan } from '../providers/connector.js';
import type { PartnerRouter } from '../providers/router.js';
import { sandboxDthSubscriber, sandboxLookup, sandboxPlans } from '../providers/sandbox/recharge.js';
import { DTH_OPERATORS } from './operators.js';

export class RechargePreflight {
  private lookups: TtlCache<OperatorLookup>;
  private planLists: TtlCache<RechargePlan[]>;
  private subscribers: TtlCache<DthSubscriber | null>;

  constructor(
    private partners: PartnerRouter | null,
    ttl: { lookupS: number; plansS: number; dthInfoS: number },
  ) {
    this.lookups = new TtlCache(ttl.lookupS * 1000, 100_000);
    this.planLists = new TtlCache(ttl.plansS * 1000, 10_000);
    this.subscribers = new TtlCache(ttl.dthInfoS * 1000, 100_000);
  }

  lookup(environment: Environment, mobile: string): Promise<OperatorLookup> {
    if (environment === 'sandbox') return Promise.resolve(sandboxLookup(mobile));
    return this.lookups.get(mobile, () => this.live((r) => r.lookupOperator(mobile)));
  }

  plans(environment: Environment, operator: string, circle: string): Promise<RechargePlan[]> {
    if (environment === 'sandbox') return Promise.resolve(sandboxPlans(operator));
    return this.planLists.get(`${operator}|${circle}`, () => this.live((r) => r.plans(operator, circle)));
  }

  /** A DTH subscriber as the biller knows them; not_found when it knows no such subscriber. */
  async dthSubscriber(environment: Environment, operator: string, subscriberId: string): Promise<DthSubscriber> {
    const found =
      environment === 'sandbox'
        ? sandboxDthSubscriber(operator, subscriberId)
        : await this.subscribers.get(`${operator}|${subscriberId}`, () => this.live((r) => r.dthSubscriberInfo(operator, subscriberId), 'DTH'));
    if (found) return found;
    const name = DTH_OPERATORS.find((o) => o.code === operator)?.name ?? operator;
    throw new ApiError('not_found', `${name} knows no subscriber ${subscriberId}`);
  }

  private async live<T>(ask: (r: PartnerRouter) => Promise<T>, kind = 'recharge'): Promise<T> {
    if (!this.partners) throw new ApiError('partner_failed', `No live ${kind} partner is configured on this server`);
    try {
      return await ask(this.partners);
    } catch (err) {
      if (err instanceof PartnerError) throw new ApiError(err.kind === 'timeout' ? 'partner_timeout' : 'partner_failed', err.message);
      throw err;
    }
  }
}
