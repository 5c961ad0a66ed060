// Owns the list of partner kinds: SANGAM_PARTNER_<NAME>_KIND names one of these, and the router builds
// that partner's connector with its factory. Adding a partner is its folder under providers/ and one
// line here.
import type { ConnectorFactory } from './connector.js';
import { createCashfreePayouts } from './cashfree-payouts/index.js';
import { createCashfreeVerification } from './cashfree-verification/index.js';
import { createDigilocker } from './digilocker/index.js';
import { createRazorpayx } from './razorpayx/index.js';
import { createSangam } from './sangam/index.js';
import { createSetuDth, KEPT_FOR_REFUNDS as SETU_DTH_KEPT } from './setu-dth/index.js';
import { createSetuRecharge, KEPT_FOR_REFUNDS as SETU_RECHARGE_KEPT } from './setu-recharge/index.js';
import { createSurepassSignature } from './surepass-signature/index.js';

export const KINDS: Record<string, ConnectorFactory> = {
  sangam: createSangam,
  digilocker: createDigilocker,
  razorpayx: createRazorpayx,
  'cashfree-payouts': createCashfreePayouts,
  'cashfree-verification': createCashfreeVerification,
  'surepass-signature': createSurepassSignature,
  'setu-recharge': createSetuRecharge,
  'setu-dth': createSetuDth,
};

/**
 * The purposes of connectors' session records (`<purpose>:<txn id>`) that a partner's later refund of
 * a final transaction needs (to match it and credit it to the paisa): an erasure keeps them until they
 * expire, where it deletes every other record of the transaction (transactions/erasure.ts).
 */
export const KEPT_FOR_REFUNDS: ReadonlySet<string> = new Set([...SETU_RECHARGE_KEPT, ...SETU_DTH_KEPT]);

