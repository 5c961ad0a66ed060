// Owns the setu-dth connector's own variables beyond the Setu products' common ones (../setu/settings.ts):
// the BBPS agent block every bill fetch carries (AGENT_ID, AGENT_CHANNEL and the channel's own fields, as
// Setu's OpenAPI lists them per channel) and the payer of a payment (REMITTER_NAME, ACCOUNT_INFO). A
// missing or malformed one stops the boot naming the full variable.
import { AGENT_CHANNELS, type BbpsAgent, type Payer } from './transformers.js';

type Need = (v: string) => string;
type Full = (v: string) => string;

/** Our variable for each agent field besides id and channel. */
const AGENT_VARS: Readonly<Record<string, string>> = {
  ip: 'AGENT_IP',
  mac: 'AGENT_MAC',
  app: 'AGENT_APP',
  os: 'AGENT_OS',
  imei: 'AGENT_IMEI',
  postalCode: 'AGENT_POSTAL_CODE',
  geocode: 'AGENT_GEOCODE',
  terminalId: 'AGENT_TERMINAL_ID',
  ifsc: 'AGENT_IFSC',
};

/** [P] the field rules the OpenAPI states (ipv4, a MAC such as 48-4D-7E-CB-DB-6F, iOS|Android, a PIN code). */
const RULES: Readonly<Record<string, { re: RegExp; says: string }>> = {
  ip: { re: /^((25[0-5]|2[0-4][0-9]|1?[0-9]?[0-9])\.){3}(25[0-5]|2[0-4][0-9]|1?[0-9]?[0-9])$/, says: 'an IPv4 address' },
  mac: { re: /^[0-9A-Fa-f]{2}([-:][0-9A-Fa-f]{2}){5}$/, says: 'a MAC address such as 48-4D-7E-CB-DB-6F' },
  os: { re: /^(iOS|Android)$/, says: 'iOS or Android' },
  postalCode: { re: /^[1-9][0-9]{5}$/, says: 'a 6-digit PIN code' },
};

/** The agent block: id, channel (default INT, an internet portal: Sangam is a web API) and what that channel requires. */
export function agentOf(vars: Record<string, string>, need: Need, full: Full): BbpsAgent {
  const channel = vars.AGENT_CHANNEL?.trim() || 'INT';
  const required = AGENT_CHANNELS[channel];
  if (!required) throw new Error(`${full('AGENT_CHANNEL')} must be one of ${Object.keys(AGENT_CHANNELS).join(', ')} (the BBPS initiating channel)`);
  const agent: BbpsAgent = { id: need('AGENT_ID'), channel };
  for (const field of required) {
    const v = AGENT_VARS[field]!;
    const value = need(v);
    const rule = RULES[field];
    if (rule && !rule.re.test(value)) throw new Error(`${full(v)} must be ${rule.says}`);
    (agent as unknown as Record<string, string>)[field] = value;
  }
  return agent;
}

/** The payer of every payment: remitter.name and the debit instrument (1–50 characters each, Setu's limits). */
export function payerOf(mode: string, need: Need, full: Full): Payer {
  const remitterName = need('REMITTER_NAME');
  const accountInfo = need('ACCOUNT_INFO');
  if (remitterName.length > 50) throw new Error(`${full('REMITTER_NAME')} must be at most 50 characters (Setu's remitter.name)`);
  if (accountInfo.length > 50) throw new Error(`${full('ACCOUNT_INFO')} must be at most 50 characters (Setu's paymentDetails.accountInfo)`);
  // [P] remittance_flows_guide.mdx: Wallet is `WalletName|MobileNo`, 12 to 50 characters.
  if (mode === 'Wallet' && !/^[^|]+\|[0-9]{10}$/.test(accountInfo)) throw new Error(`${full('ACCOUNT_INFO')} must be WalletName|MobileNo for the Wallet payment mode (NPCI's format)`);
  return { mode, accountInfo, remitterName };
}
