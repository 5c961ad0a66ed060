// Owns the one small interface between the core and a partner (Hyperswitch's connector boundary). A
// partner is a folder under providers/<kind>/ with its connector (index.ts), its typed requests and
// responses in the partner's own names and their mapping to ours (transformers.ts), its status
// mapping and its webhook verifier; the registry (registry.ts) maps its KIND to a factory. The core
// asks a connector to:
//   - execute one operation (a union of the operation inputs) and answer a PartnerOutcome in our terms
//     (its result typed per kind of operation — a payment's or a recharge's, amounts in integer paise,
//     a signature comparison's, a bank account lookup's, a document-locker session's or download's);
//     the core names the public answer's fields and converts its amounts (answer.ts, applied by the
//     router);
//   - tell the status of a transaction it holds, for reconciliation;
//   - verify and parse an inbound callback into events;
//   - optionally, declare routes of its own (an OAuth callback, webhooks at the partner's paths), which
//     src/routes/partners/ registers.
// Connectors translate; the core persists. What a connector must remember between calls (an OAuth
// session) it keeps in the PartnerSessions store it is given. A partner status we do not recognise maps
// to pending, never to success. Errors a connector throws say what the partner may have done:
// PartnerError — nothing happened there (safe to fail over); NoAnswer — it may have acted (the
// operation stays pending and is reconciled with that same partner).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TxStatus } from '../db/schema.js';

/** A final answer in the core's terms: `fields` are the public answer's own fields (answer.ts builds them). */
export interface FinalOutcome {
  status: 'success' | 'failed';
  message: string;
  fields: Record<string, unknown>;
}

/** An answer in the core's terms, as it is stored and shown. */
export interface Outcome {
  status: TxStatus;
  message: string;
  /** Operation-specific result fields, merged into `data` after the standard ones. */
  fields: Record<string, unknown>;
  /** For a pending outcome whose end is already known (the sandbox): what it becomes, and when. */
  settle?: { after_ms: number; final: FinalOutcome };
  /** The partner's own id for the transaction (a payout id), kept for status enquiries. */
  partnerRef?: string;
}

/**
 * A payment's (upi-payment-status) or a recharge's (recharge-commission, dth-recharge) result as a
 * partner reports it, in our terms: our ids, the partner's reference, amounts in integer paise. The
 * core names its fields and converts its amounts (answer.ts). An absent member is not known from this
 * answer (a callback that knows no amounts leaves the stored ones as they are).
 */
export interface MoneyResult {
  /** Our transaction id. */
  txnId?: string;
  amountPaise?: number;
  /** The operator, where the answer echoes it (the sandbox's recharges). */
  operator?: string;
  /** The payment's UTR, or the operator's or biller's reference of a recharge. */
  utr?: string | null;
  /** The commission passed on to the client (0 when a recharge failed). */
  commissionPaise?: number;
}

/**
 * A signature comparison's result (signature-match), in our terms. An absent member is not part of
 * this answer (a failed comparison carries only what was compared with).
 */
export interface SignatureResult {
  /** 0 to 100: the name read against `name`, or the two signatures' similarity. */
  score?: number;
  /** The name read from the signature; null when the partner reads none. */
  extractedName?: string | null;
  /** The partner's verdict when it compares two signatures (null when it gave none). */
  matched?: boolean | null;
  /** The score at which the partner calls two signatures a match (null when it gave none). */
  threshold?: number | null;
  /** Set when the input was compared with the reference signature. */
  comparedWithReference?: true;
}

/** A bank account linked to a mobile number, as found (its number masked: only the last 4 digits shown). */
export interface LinkedBankAccount {
  holderName: string;
  maskedNumber: string;
  ifsc: string;
  /** The bank's name (the IFSC directory's, else the partner's); null or absent when neither knows it. */
  bankName?: string | null;
  /** The branch name, when the partner network gives one. */
  branch: string | null;
}

/**
 * A mobile-to-bank-account lookup's result, in our terms: the account found (absent when none was,
 * or not yet), and how the account number and IFSC the client gave compare with it (each only when
 * given; `all` when any was: every given one matches).
 */
export interface AccountResult {
  account?: LinkedBankAccount;
  accountNumberMatch?: boolean;
  ifscMatch?: boolean;
  all?: boolean;
}

/** A document-locker consent session (doclocker-initialize): its client id, where the user consents, and when it expires. */
export interface DoclockerSession {
  clientId?: string;
  authorizationUrl?: string;
  expiresAt?: Date;
}

/** The identity record read from a signed eAadhaar document; only the last 4 digits of the number survive. */
export interface AadhaarRecord {
  fullName: string;
  careOf: string;
  dob: string;
  gender: string;
  /** XXXXXXXX and the last 4 digits. */
  maskedAadhaar: string;
  fullAddress: string;
  /** The photo, base64. */
  photo: string;
  address: { country: string; state: string; district: string; street: string };
}

/**
 * A document-locker download's result (doclocker-download-aadhaar), in our terms: the record (when
 * downloaded), and whether the download was made, with its message (absent when not known yet).
 */
export interface AadhaarResult {
  record?: AadhaarRecord;
  download?: { done: boolean; message: string };
}

/**
 * A payee verification's result (account-verification as `bankAccount`, vpa-verification as `vpa`;
 * CONTRACT §14), in our terms.
 * `status` is the partner's finding, never a guess: `unknown` when the bank did not answer (the
 * transaction is then failed or pending). The core adds the bank from the IFSC directory and the
 * §11 name match; the connector only reports what the partner said.
 */
export interface PayeeResult {
  status: 'valid' | 'invalid' | 'unknown';
  /** Why `invalid` (does not exist, closed, frozen, cannot be credited), in our words; absent otherwise. */
  reason?: string;
  /** The holder's name as the bank has it; null when the partner gave none. */
  nameAtBank: string | null;
  /** account-verification: how the partner checked (`penny_drop` carries its `utr`). */
  method?: 'penny_drop' | 'pennyless';
  utr?: string;
  /** vpa-verification: the account behind the VPA, where the partner returns them. */
  ifsc?: string;
  accountType?: string;
}

/**
 * What a connector's answer carries, typed per kind of operation: a payment's or a recharge's result
 * (`money`), a signature comparison's, a bank account lookup's, a document-locker session's or
 * download's. answer.ts names its public fields.
 */
export type PartnerResult =
  | { money: MoneyResult }
  | { signature: SignatureResult }
  | { account: AccountResult }
  | { session: DoclockerSession }
  | { aadhaar: AadhaarResult }
  | { bankAccount: PayeeResult }
  | { vpa: PayeeResult };

/** A final answer in a connector's terms. */
export type PartnerFinal = { status: 'success' | 'failed'; message: string } & PartnerResult;

/** An answer in a connector's terms (answer.ts turns it into the core's Outcome). */
export type PartnerOutcome = {
  status: TxStatus;
  message: string;
  /** For a pending outcome whose end is already known (the sandbox): what it becomes, and when. */
  settle?: { after_ms: number; final: PartnerFinal };
  /** The partner's own id for the transaction (a payout id), kept for status enquiries. */
  partnerRef?: string;
} & PartnerResult;

/** What the core asks a partner to do: one of the operations (and the document-locker initialize step). */
export type OperationRequest = { txnId: string } & (
  | { operation: 'signature-match'; input: string; name?: string; referenceSignature?: string }
  | { operation: 'doclocker-initialize'; redirectUrl?: string }
  | { operation: 'doclocker-download-aadhaar'; clientId: string; aadhaarNumber?: string }
  | { operation: 'mobile-to-bank-account'; mobile: string; accountNumber?: string; ifsc?: string }
  | { operation: 'upi-payment-status'; vpa: string; amountPaise: number }
  | { operation: 'recharge-commission'; mobile: string; operator: string; circle?: string; type: 'prepaid' | 'postpaid'; amountPaise: number; commissionPaise: number }
  | { operation: 'dth-recharge'; subscriberId: string; operator: string; amountPaise: number; commissionPaise: number }
  | { operation: 'account-verification'; accountNumber: string; ifsc: string; name?: string }
  | { operation: 'vpa-verification'; vpa: string; name?: string }
);

export type OperationSlug = OperationRequest['operation'];

/** A transaction a partner holds, as reconciliation knows it. */
export interface TxRef {
  txnId: string;
  operation: OperationSlug;
  /** The partner's own id, when its answer gave one. */
  partnerRef: string | null;
  amountPaise: number | null;
  commissionPaise: number;
}

/** A final state reported again as undone: a processed payout later reversed, a recharge refunded. */
export interface Reversal {
  reason: string;
  at: Date;
}

/**
 * What a partner says about one transaction, from a status enquiry or a callback: in the connector's
 * terms (`PartnerReport<PartnerOutcome>`) until the router hands it to the core (`PartnerReport`).
 */
export interface PartnerReport<O extends PartnerOutcome | Outcome = Outcome> {
  /** Our transaction id when the partner echoes it; otherwise partnerRef finds it. */
  txnId: string | null;
  partnerRef: string | null;
  outcome: O;
  /** Set when a success was reversed after the fact. */
  reversal?: Reversal;
}

export interface PartnerEvent<O extends PartnerOutcome | Outcome = Outcome> extends PartnerReport<O> {
  /** The partner's unique event id: a repeat is acknowledged and dropped. */
  eventId: string;
}

/** Where a mobile number lives, in our codes (CONTRACT §3, §10). */
export interface OperatorLookup {
  operator: string;
  circle: string;
  ported: boolean;
}

/** A prepaid plan, in paise and our terms. */
export interface RechargePlan {
  amountPaise: number;
  validity: string;
  description: string;
  category: 'unlimited' | 'data' | 'talktime' | 'annual' | 'other';
}

/** A DTH subscriber as the biller knows them; null where the partner leaves a detail out. */
export interface DthSubscriber {
  name: string | null;
  /** The current pack (plan) name. */
  pack: string | null;
  balancePaise: number | null;
  /** YYYY-MM-DD. */
  nextRechargeDate: string | null;
}

/**
 * A VPA as the payout partner's validation found it (RazorpayX fund account validation, Cashfree's UPI
 * verification): whether it exists, and its holder's registered name (null when the partner gave none).
 */
export interface VpaHolder {
  exists: boolean;
  name: string | null;
}

/**
 * How often a partner may be asked about a pending transaction: the first enquiry after `firstS`, then
 * no closer than `gapS` apart, and after `cutoffS` the transaction goes to manual review (hold kept).
 */
export interface Polling {
  firstS: number;
  gapS: number;
  cutoffS: number;
}

/**
 * The reversal watch of a partner whose status enquiry can show a success undone (CONTRACT §9): for the
 * operations it names, a success is asked about again at each of `scheduleS` (seconds after the
 * success). SANGAM_REVERSAL_WATCH_SCHEDULE replaces the schedule, never the operations. A partner
 * whose status cannot show a reversal declares none: its reversals arrive by callback only.
 */
export interface ReversalWatch {
  operations: readonly OperationSlug[];
  scheduleS: readonly number[];
}

/**
 * A prepaid float the partner keeps for us (a wallet it debits for each operation it executes and
 * credits when it refunds one: Setu's prepaid wallet). Declared by a connector that can read its
 * balance; src/float/ compares that balance with what Sangam's own books say it should be
 * (docs/RELIABILITY.md, "Float reconciliation"). The partner is assumed to debit an operation's face
 * amount (`amount_paise`) when it accepts it and to credit it back on a failure or a reversal.
 */
export interface FloatTerms {
  /** The operations whose transactions draw on the float. */
  operations: readonly OperationSlug[];
  /**
   * How long after a success the partner may still reverse it, in seconds: drift candidates are
   * looked for inside it. SANGAM_FLOAT_WINDOW_S overrides it.
   */
  reversalWindowS: number;
  /** Whether the partner offers a statement that names each movement (then a drift names its transaction exactly). */
  statement: boolean;
}

/** A partner's float balance as it reports it now, in paise. */
export interface FloatBalance {
  balancePaise: number;
  /** When the partner says it read it (its answer's time), else when we asked. */
  at: Date;
}

/** A callback that failed verification: answered 4xx, nothing changes. */
export class CallbackRefused extends Error {}

/** The partner refused or never received the request: nothing was executed (safe to fail over). */
export class PartnerError extends Error {
  constructor(
    readonly kind: 'unavailable' | 'timeout',
    message: string,
  ) {
    super(message);
  }
}

/** The partner took the request and gave no usable answer; `outcome` is the pending state to keep. */
export class NoAnswer extends Error {
  constructor(readonly outcome: PartnerOutcome) {
    super(outcome.message);
  }
}

/** Small server-side state a partner needs between calls (OAuth state, PKCE verifiers, tokens), by key. */
export interface PartnerSessions {
  get<T>(key: string): Promise<T | undefined>;
  put(key: string, value: unknown, ttlSeconds: number): Promise<void>;
  delete(key: string): Promise<void>;
  /** The unexpired keys that start with `prefix`, in key order. */
  keys(prefix: string): Promise<string[]>;
}

/** What the core lends a connector. */
export interface PartnerContext {
  /** The partner's configured name (lower case): `primary`, `rzp`, … */
  name: string;
  /** Its base URL (SANGAM_PARTNER_<NAME>_URL). */
  url: string;
  /** Its own variables, SANGAM_PARTNER_<NAME>_<VAR> without the prefix: KEY_ID, WEBHOOK_SECRET, … */
  vars: Record<string, string>;
  /** Where it calls back: {SANGAM_PUBLIC_URL}/partners/<name>/webhooks. */
  webhookUrl: string;
  /** Where an OAuth partner sends users back: {SANGAM_PUBLIC_URL}/partners/<name>/oauth/callback. */
  oauthCallbackUrl: string;
  /** Deadline for one operation's call. */
  timeoutFor(operation: OperationSlug): number;
  sessions: PartnerSessions;
}

/**
 * Reading a partner's own variables in its factory: `name` is the full variable name for messages, and
 * `need` returns a variable, trimmed, or refuses its absence naming the variable and the kind (`hint`
 * says what it should hold).
 */
export function partnerVars(ctx: PartnerContext, kind: string) {
  const name = (v: string) => `SANGAM_PARTNER_${ctx.name.toUpperCase()}_${v}`;
  const need = (v: string, hint?: string) => {
    const value = ctx.vars[v]?.trim();
    if (!value) throw new Error(`${name(v)} is required for a partner of kind ${kind}${hint ? ` (${hint})` : ''}`);
    return value;
  };
  return { name, need };
}

/**
 * A route of a partner's own under /partners/<name>/ (an OAuth callback, webhooks at the paths the partner
 * posts to): the connector declares it with its handler, src/routes/partners/ registers it (hidden from the
 * OpenAPI document), so no connector registers a route itself.
 */
export interface PartnerRoute {
  method: 'GET' | 'POST';
  /** Below /partners/<name>, such as /oauth/callback. */
  path: string;
  handler(req: FastifyRequest, reply: FastifyReply): Promise<unknown>;
}

/** Hooks a connector's own routes may call: the core's effects, never its internals. */
export interface PartnerRouteHooks {
  /** Applies a report exactly as a verified callback would be (settlement, ledger, outbox). */
  report(report: PartnerReport<PartnerOutcome>): Promise<void>;
  /**
   * Has the core ask the partner about a transaction again soon (a pending's next status enquiry, or a
   * success's next reversal-watch enquiry, made due now): for news the connector could not confirm yet.
   */
  recheck(txnId: string): Promise<void>;
  /**
   * Something went wrong that the connector keeps trying to put right outside any operation (a
   * DigiLocker token it could not revoke): logged as a warning with `fields`, and counted in
   * sangam_partner_alarms_total{partner, kind}. Absent where no core is behind the connector (its tests).
   */
  warn?(kind: string, message: string, fields?: Record<string, unknown>): void;
  /**
   * Puts a transaction in "Needs attention" (its conflict flag, `why`), its state unchanged: for what the
   * connector could not put right and a person must know. Absent where no core is behind the connector.
   */
  flag?(txnId: string, why: string): Promise<void>;
}

export interface Connector {
  /** Operations this partner serves (the router refuses a route that names another). */
  readonly serves: readonly OperationSlug[];
  /** The partner's documented polling etiquette; SANGAM_PARTNER_<NAME>_POLL_FIRST_S / _GAP_S / _CUTOFF_S override it. */
  readonly polling?: Polling;
  /** When its status can show a success undone: which operations to watch, and when (see ReversalWatch). */
  readonly reversalWatch?: ReversalWatch;
  /**
   * How long a pending with this partner normally takes to become final, in seconds, from its
   * documentation (or a stated assumption); past it the transaction is overdue (src/attention/).
   * SANGAM_EXPECTED_FINAL_S overrides it.
   */
  readonly expectedFinalS?: number;
  /** Throws PartnerError (nothing happened) or NoAnswer (it may have); otherwise a PartnerOutcome. */
  execute(req: OperationRequest): Promise<PartnerOutcome>;
  /** The transaction as the partner now sees it; null when the partner has never heard of it. */
  status?(tx: TxRef): Promise<PartnerReport<PartnerOutcome> | null>;
  /** Verifies a callback over its raw bytes and parses it; throws CallbackRefused when it does not verify. */
  parseCallback?(req: { headers: Record<string, string | string[] | undefined>; rawBody: string }): PartnerEvent<PartnerOutcome>[];
  /**
   * The partner's signed document behind a download (the eAadhaar XML, exactly as signed), while the
   * connector still holds it; null when it has none or no longer. Served through Xml_Url.
   */
  document?(txnId: string): Promise<{ contentType: string; body: string } | null>;
  /**
   * Gives back what a user's grant still holds for a client id (a document-locker access token not yet
   * spent): forgets it and revokes it at the partner, when a consent is withdrawn. True when a grant
   * was held. A failed revoke at the partner still forgets the token (it expires there on its own).
   */
  revokeGrant?(clientId: string): Promise<boolean>;
  /**
   * Recharge pre-flight (CONTRACT §10), for partners that serve recharge-commission and offer it: the
   * operator and circle of a mobile number, and the plans of an operator in a circle, mapped to our
   * codes in the partner's transformer. A partner's operator or circle we do not map is a PartnerError
   * that says so, never a guess.
   */
  lookupOperator?(mobile: string): Promise<OperatorLookup>;
  plans?(operator: string, circle: string): Promise<RechargePlan[]>;
  /**
   * DTH pre-flight (CONTRACT §10's DTH counterpart), for partners that serve dth-recharge and offer it:
   * the subscriber's name, current pack, balance and next recharge date, read without paying (a BBPS
   * bill fetch) and mapped in the partner's transformer. Null when the biller knows no such subscriber
   * (or cannot have one: an id its rules refuse); a PartnerError when it could not be asked.
   */
  dthSubscriberInfo?(operator: string, subscriberId: string): Promise<DthSubscriber | null>;
  /**
   * The payout name check (CONTRACT §11), for partners that serve upi-payment-status and offer it: the
   * VPA's registered holder, learnt without paying. A PartnerError when it could not be asked (nothing
   * is paid then); never a NoAnswer, because a validation moves no money.
   */
  vpaHolder?(vpa: string): Promise<VpaHolder>;
  /**
   * A prepaid float at the partner (see FloatTerms), with `floatBalance()` reading it: a PartnerError
   * when it could not be read (nothing is concluded then). Both or neither.
   */
  readonly float?: FloatTerms;
  floatBalance?(): Promise<FloatBalance>;
  /** Routes of its own, under /partners/<name>/ (an OAuth callback), with the hooks their handlers call. */
  routes?(hooks: PartnerRouteHooks): PartnerRoute[];
  close?(): Promise<void>;
}

export type ConnectorFactory = (ctx: PartnerContext) => Connector;

