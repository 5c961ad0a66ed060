// Owns recharge pre-flight (CONTRACT §10): which operator and circle a mobile number belongs to, and the
// plans of an operator in a circle. The sandbox answers deterministically; live asks the recharge
// partners (those on recharge-commission's route that offer it, in order, the next one only when a
// partner failed before answering) and caches each answer, because lookups cost money at the partner:
// a mobile for SANGAM_OPERATOR_LOOKUP_TTL_S, a plan list for SANGAM_PLANS_TTL_S.
//
// Errors: partner_failed / partner_timeout (502 / 504) when no live partner answers.
import type { Environment } from '../db/schema.js';
import { ApiError } from '../errors.js';
import { TtlCache } from '../access/ttl-cache.js';
import { PartnerError, type OperatorLookup, type RechargePlan } from '../providers/connector.js';
import type { PartnerRouter } from '../providers/router.js';
import { sandboxLookup, sandboxPlans } from '../providers/sandbox/recharge.js';

export class RechargePreflight {
  private lookups: TtlCache<OperatorLookup>;
  private planLists: TtlCache<RechargePlan[]>;

  constructor(
    private partners: PartnerRouter | null,
    ttl: { lookupS: number; plansS: number },
  ) {
    this.lookups = new TtlCache(ttl.lookupS * 1000, 100_000);
    this.planLists = new TtlCache(ttl.plansS * 1000, 10_000);
  }

  lookup(environment: Environment, mobile: string): Promise<OperatorLookup> {
    if (environment === 'sandbox') return Promise.resolve(sandboxLookup(mobile));
    return this.lookups.get(mobile, () => this.live((r) => r.lookupOperator(mobile)));
  }

  plans(environment: Environment, operator: string, circle: string): Promise<RechargePlan[]> {
    if (environment === 'sandbox') return Promise.resolve(sandboxPlans(operator));
    return this.planLists.get(`${operator}|${circle}`, () => this.live((r) => r.plans(operator, circle)));
  }

  private async live<T>(ask: (r: PartnerRouter) => Promise<T>): Promise<T> {
    if (!this.partners) throw new ApiError('partner_failed', 'No live recharge partner is configured on this server');
    try {
      return await ask(this.partners);
    } catch (err) {
      if (err instanceof PartnerError) throw new ApiError(err.kind === 'timeout' ? 'partner_timeout' : 'partner_failed', err.message);
      throw err;
    }
  }
}
