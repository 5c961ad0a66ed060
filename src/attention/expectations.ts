// Owns how long a live pending may take to become final before it is overdue, per partner: what the
// partner's connector declares from its documentation (`expectedFinalS`), unless
// SANGAM_EXPECTED_FINAL_S names the partner (or `*`, every partner not named). A pending that no
// partner holds yet, or one with a partner that declares nothing, falls back to `*` or UNROUTED_S.
// The values and their sources are in docs/RELIABILITY.md ("Overdue").
import { ConfigError } from '../config.js';
import type { PartnerRouter } from '../providers/router.js';

/**
 * A pending no partner holds is one whose request never got an answer: the reconciler fails it once
 * no request can still be in flight (about a minute) or settles it at its first enquiry (90 s by
 * default), so 15 minutes means it is stuck.
 */
export const UNROUTED_S = 900;

export class Expectations {
  private byPartner = new Map<string, number>();
  readonly fallbackS: number;

  /** Errors: ConfigError when SANGAM_EXPECTED_FINAL_S names a partner that is not configured. */
  constructor(overrides: Record<string, number>, partners: Pick<PartnerRouter, 'names' | 'expectedFinalS'> | null) {
    const names = partners?.names() ?? [];
    for (const name of Object.keys(overrides)) {
      if (name !== '*' && !names.includes(name)) throw new ConfigError(`Invalid configuration:\n  SANGAM_EXPECTED_FINAL_S: unknown partner ${name} (configured: ${names.join(', ') || 'none'})`);
    }
    this.fallbackS = overrides['*'] ?? UNROUTED_S;
    for (const name of names) this.byPartner.set(name, overrides[name] ?? overrides['*'] ?? partners!.expectedFinalS(name) ?? UNROUTED_S);
  }

  /** Seconds a pending held by `partner` (null: none yet) may take before it is overdue. */
  of(partner: string | null): number {
    return (partner === null ? undefined : this.byPartner.get(partner)) ?? this.fallbackS;
  }

  /** Every configured partner with its expectation, for the store to compare in one statement. */
  table(): Array<{ partner: string; seconds: number }> {
    return [...this.byPartner].map(([partner, seconds]) => ({ partner, seconds }));
  }
}
