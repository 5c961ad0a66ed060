// Owns what the DigiLocker connector remembers between calls, in the PartnerSessions store it is lent
// (encrypted there, with the partner and key as associated data): one record per client id (its
// PKCE verifier, the redirect_url, the consent state and, once authorized, the access token), the
// OAuth `state` → client id, and the verified XML of each successful download behind Xml_Url.
import type { PartnerSessions } from '../connector.js';

export type ConsentStatus = 'pending' | 'authorized' | 'denied' | 'failed' | 'used';

export interface ClientSession {
  status: ConsentStatus;
  /** The initialize transaction this session settles. */
  txnId: string;
  verifier: string;
  redirectUrl?: string;
  /** Set only while authorized and unused. */
  accessToken?: string;
  /** Why a failed session failed (the partner's error code and text). */
  reason?: string;
}

/** How long a user has to consent (and the initialize answer's expires_at). */
export const PENDING_TTL_S = 15 * 60;
/** How long a decided or used session is remembered, so a download says why rather than "expired". */
export const DECIDED_TTL_S = 60 * 60;
/** How long the verified XML stays behind Xml_Url (the core's signed link lives no longer). */
export const XML_TTL_S = 24 * 60 * 60;

export const keys = {
  client: (clientId: string) => `client:${clientId}`,
  state: (state: string) => `state:${state}`,
  xml: (txnId: string) => `xml:${txnId}`,
};

export class DigilockerSessions {
  /** The store itself, for revoke.ts's own keys (`revoke:<id>`). */
  constructor(readonly store: PartnerSessions) {}

  client(clientId: string) {
    return this.store.get<ClientSession>(keys.client(clientId));
  }

  putClient(clientId: string, s: ClientSession, ttlS: number) {
    return this.store.put(keys.client(clientId), s, ttlS);
  }

  async open(clientId: string, state: string, s: ClientSession): Promise<void> {
    await this.putClient(clientId, s, PENDING_TTL_S);
    await this.store.put(keys.state(state), { clientId }, PENDING_TTL_S);
  }

  /** The client id a callback's state names, spent on first use: a replayed callback finds nothing. */
  async takeState(state: string): Promise<string | undefined> {
    const v = await this.store.get<{ clientId: string }>(keys.state(state));
    if (v) await this.store.delete(keys.state(state));
    return v?.clientId;
  }

  putXml(txnId: string, xml: string) {
    return this.store.put(keys.xml(txnId), xml, XML_TTL_S);
  }

  xml(txnId: string) {
    return this.store.get<string>(keys.xml(txnId));
  }
}
