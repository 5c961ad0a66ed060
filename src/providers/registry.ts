// Owns the list of partner kinds: SANGAM_PARTNER_<NAME>_KIND names one of these, and the router builds
// that partner's connector with its factory. Adding a partner is its folder under providers/ and one
// line here.
import type { ConnectorFactory } from './connector.js';
import { createCashfreePayouts } from './cashfree-payouts/index.js';
import { createDigilocker } from './digilocker/index.js';
import { createRazorpayx } from './razorpayx/index.js';
import { createSangam } from './sangam/index.js';

export const KINDS: Record<string, ConnectorFactory> = {
  sangam: createSangam,
  digilocker: createDigilocker,
  razorpayx: createRazorpayx,
  'cashfree-payouts': createCashfreePayouts,
};
