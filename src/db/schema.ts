// Owns the TypeScript shape of the tables, as Kysely sees them. Keep in step with migrations/.
import type { ColumnType, Generated } from 'kysely';

export type Environment = 'sandbox' | 'live';
export type TxStatus = 'success' | 'pending' | 'failed';
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Timestamp = ColumnType<Date, Date | string, Date | string>;
type Json = ColumnType<Record<string, unknown>, string, string>;

export interface AccountsTable {
  id: string;
  name: string;
  created_at: CreatedAt;
  rate_limit_per_sec: number | null;
  rate_limit_burst: number | null;
  /** Name match thresholds and the review rule for payouts (migration 0017); null: the defaults. */
  name_match_approve_at: number | null;
  name_match_review_at: number | null;
  name_match_on_review: 'pay' | 'hold' | null;
  /** Live calls must cite a consent_id (migration 0019). */
  require_consent_live: ColumnType<boolean, boolean | undefined, boolean>;
  /** The operator's opt-in to showing sandbox keys the live wallet (migration 0028); off: the simulated one. */
  sandbox_live_wallet: ColumnType<boolean, boolean | undefined, boolean>;
  /** How long a vpa-verification stands in for a payout's name check, in seconds (migration 0029); null: 24 h. */
  verification_reuse_window_s: number | null;
}

export interface IpAllowlistTable {
  account_id: string;
  environment: Environment;
  cidr: string;
  created_at: CreatedAt;
}

export interface ApprovalsTable {
  account_id: string;
  operation: string;
  approved_at: CreatedAt;
}

export interface ApiKeysTable {
  id: string;
  account_id: string;
  environment: Environment;
  key_hash: string;
  prefix: string;
  last4: string;
  created_at: CreatedAt;
  expires_at: Timestamp | null;
  revoked_at: Timestamp | null;
  last_used_at: Timestamp | null;
  rolled_to: string | null;
  name: string | null;
}

export interface WalletsTable {
  account_id: string;
  balance_paise: ColumnType<number, number | undefined, number>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** A view: the wallet's available balance and what its pending holds reserve. */
export interface WalletBalancesView {
  account_id: string;
  balance_paise: number;
  held_paise: number;
}

export interface LedgerEntriesTable {
  id: Generated<number>;
  posting_id: string;
  ledger_account: string;
  amount_paise: number;
  kind: string;
  memo: string | null;
  created_at: CreatedAt;
}

export interface HoldsTable {
  txn_id: string;
  account_id: string;
  amount_paise: number;
  principal_paise: number;
  fee_paise: number;
  commission_paise: number;
  status: 'pending' | 'posted' | 'voided';
  created_at: CreatedAt;
  resolved_at: Timestamp | null;
}

export interface PricingTable {
  operation: string;
  fee_paise: number;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface PartnerCallbacksTable {
  webhook_id: string;
  txn_id: string | null;
  status: string | null;
  outcome: string;
  received_at: CreatedAt;
}

export interface TransactionsTable {
  id: string;
  account_id: string;
  environment: Environment;
  operation: string;
  reference_id: string;
  status: TxStatus;
  final_result: ColumnType<Record<string, unknown> | null, string | null, string | null>;
  amount_paise: number | null;
  result: Json;
  due_at: Timestamp | null;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
  verified_at: Timestamp | null;
  partner_ref: string | null;
  flagged: string | null;
  partner: string | null;
  next_check_at: Timestamp | null;
  checks: ColumnType<number, number | undefined, number>;
  review_reason: string | null;
  watch_next_at: Timestamp | null;
  watch_checks: ColumnType<number, number | undefined, number>;
  misses: ColumnType<number, number | undefined, number>;
  /** The reference is free again: this call did nothing at all (migration 0026). */
  ref_released: ColumnType<boolean, boolean | undefined, boolean>;
}

export interface DoclockerSessionsTable {
  client_id: string;
  account_id: string;
  environment: Environment;
  reference_id: string;
  txn_id: string;
  status: 'pending' | 'authorized' | 'denied';
  redirect_url: string | null;
  created_at: CreatedAt;
  expires_at: Timestamp;
  decided_at: Timestamp | null;
}

export type ConsentStatus = 'active' | 'withdrawn' | 'expired';

export interface ConsentsTable {
  id: string;
  account_id: string;
  environment: Environment;
  status: ConsentStatus;
  subject_mobile_hash: string | null;
  subject_email_hash: string | null;
  subject_reference_hash: string | null;
  /** JSON: the masked forms ({ mobile?, email?, reference? }, last 4 characters). */
  subject_masked: string;
  purpose_code: string;
  purpose_text: string;
  /** JSON array of operation slugs. */
  operations: string;
  notice_version: string;
  notice_language: string;
  notice_text: string;
  notice_sha256: string;
  channel: string | null;
  collected_at: Timestamp;
  expires_at: Timestamp | null;
  created_at: CreatedAt;
  ended_at: Timestamp | null;
  effected_at: Timestamp | null;
  receipt: string;
}

export interface ConsentUsesTable {
  id: Generated<string>;
  consent_id: string;
  request_id: string;
  txn_id: string;
  operation: string;
  reference_id: string;
  used_at: CreatedAt;
  erased_at: Timestamp | null;
}

export interface IdempotencyKeysTable {
  account_id: string;
  environment: Environment;
  operation: string;
  key: string;
  request_hash: string;
  status: 'in_flight' | 'done';
  response_status: number | null;
  response_body: string | null;
  created_at: CreatedAt;
  locked_until: Timestamp;
  txn_id: string | null;
}

export interface AuditLogsTable {
  id: Generated<number>;
  request_id: string;
  created_at: Timestamp;
  account_id: string | null;
  key_id: string | null;
  environment: Environment | null;
  client_ip: string | null;
  method: string;
  path: string;
  operation: string | null;
  http_status: number;
  ok: boolean;
  statuscode: string | null;
  reference_id: string | null;
  latency_ms: number;
  request_body: Json | null;
  response_body: Json | null;
  prev_hash: string | null;
  hash: string | null;
  /** The hash chain (shard) the row belongs to, and its position in it (null for rows from before hashing). */
  chain: number;
  seq: number | null;
  /** Retention class of the content (audit/retention.ts); null for rows from before content commitments. */
  data_class: string | null;
  /** The salted commitment to client_ip and the bodies (audit/hashing.ts), and its salt (null once erased). */
  content_salt: string | null;
  content_hash: string | null;
  erased_at: Timestamp | null;
  /** The request's OpenTelemetry trace (migration 0030; null with traces off); outside the row's hash. */
  trace_id: string | null;
}

/** The newest row of each audit hash chain; a writer locks one head (the first free) while it appends. */
export interface AuditHeadsTable {
  chain: number;
  seq: number;
  hash: string;
}

/** A signed statement of every chain's head at a moment: Merkle root over the heads, Ed25519 signature. */
export interface AuditSignedCheckpointsTable {
  id: Generated<number>;
  created_at: Timestamp;
  heads: ColumnType<Record<string, { seq: number; hash: string }>, string, string>;
  merkle_root: string;
  key_id: string;
  signature: string;
  reason: string;
}

export interface AuditCheckpointsTable {
  id: Generated<number>;
  upto_id: number;
  hash: string;
  chain: number;
  seq: number;
  reason: string;
  created_at: CreatedAt;
}

export interface ServerSecretsTable {
  name: string;
  value: string;
}

export interface WebhookEndpointsTable {
  id: string;
  account_id: string;
  environment: Environment;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_until: Timestamp | null;
  event_types: ColumnType<string[] | null, string | null, string | null>;
  created_at: CreatedAt;
  deleted_at: Timestamp | null;
  disabled_at: Timestamp | null;
  disabled_reason: string | null;
  failing_since: Timestamp | null;
}

export interface WebhookEventsTable {
  id: string;
  account_id: string;
  environment: Environment;
  type: string;
  txn_id: string | null;
  payload: string;
  created_at: CreatedAt;
}

export interface WebhookDeliveriesTable {
  id: Generated<number>;
  event_id: string;
  endpoint_id: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: Timestamp | null;
  last_status: number | null;
  last_error: string | null;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface WebhookAttemptsTable {
  id: Generated<number>;
  delivery_id: number;
  attempted_at: CreatedAt;
  http_status: number | null;
  latency_ms: number;
  response_excerpt: string | null;
  error: string | null;
}

export interface ConsoleUsersTable {
  id: string;
  email: string;
  password_hash: string;
  is_admin: boolean;
  account_id: string | null;
  created_at: CreatedAt;
  /** When admin rights took effect (migration 0028); null: not an admin, or an admin waiting for approval. */
  admin_since: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** The console user who made this admin; null: the operator's CLI (or not an admin). */
  admin_created_by: ColumnType<string | null, string | null | undefined, string | null>;
  /** The admin who approved this admin; null: effective at once (the CLI, the first admin). */
  admin_approved_by: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface ConsoleSessionsTable {
  token_hash: string;
  user_id: string;
  csrf_token: string;
  created_at: CreatedAt;
  expires_at: Timestamp;
}

export interface PartnerSessionsTable {
  partner: string;
  key: string;
  value: string;
  expires_at: Timestamp;
}

/** A pending live transaction's sealed note for its later end (migration 0031, transactions/notes.ts). */
export interface PendingNotesTable {
  txn_id: string;
  account_id: string;
  sealed: string;
}

/** One entry of a live transaction's history with its partners (migration 0016). */
export type PartnerEventKind = 'request' | 'answer' | 'callback' | 'enquiry' | 'resolution' | 'overdue';
export interface PartnerEventsTable {
  id: Generated<number>;
  txn_id: string;
  at: ColumnType<Date, Date | string | undefined, never>;
  partner: string | null;
  kind: PartnerEventKind;
  status: string | null;
  detail: ColumnType<Record<string, unknown>, string | undefined, never>;
}

export type ResolutionAction = 'success' | 'failed' | 'reversal' | 'dismiss';
export interface ResolutionsTable {
  id: string;
  txn_id: string;
  action: ResolutionAction;
  reason: string;
  evidence: string;
  state: 'proposed' | 'applied' | 'rejected';
  proposed_by: string;
  proposed_at: CreatedAt;
  decided_by: string | null;
  decided_at: Timestamp | null;
  decision_reason: string | null;
  /** The console user ids of the maker and the checker (migration 0028): maker-checker compares these. */
  proposed_by_user: ColumnType<string | null, string | null | undefined, string | null>;
  decided_by_user: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Float reconciliation (migration 0027, src/float/). */
export type FloatMovementKind = 'opening' | 'funding' | 'adjustment' | 'spend' | 'reversal';
export interface FloatMovementsTable {
  id: string;
  partner: string;
  kind: FloatMovementKind;
  amount_paise: number;
  txn_id: string | null;
  memo: ColumnType<string, string | undefined, never>;
  recorded_by: string;
  at: CreatedAt;
}
export interface FloatChecksTable {
  partner: string;
  checked_at: Timestamp;
  expected_paise: number | null;
  actual_paise: number | null;
  drift_paise: number | null;
  streak: ColumnType<number, number | undefined, number>;
  error: string | null;
  error_at: Timestamp | null;
}
export type FloatDriftState = 'open' | 'cleared' | 'adjusted' | 'dismissed';
export interface FloatDriftsTable {
  id: string;
  partner: string;
  state: FloatDriftState;
  drift_paise: number;
  expected_paise: number;
  actual_paise: number;
  candidates: ColumnType<FloatCandidates, string, string>;
  opened_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
  closed_at: Timestamp | null;
  closed_by: string | null;
  close_reason: string | null;
}
/** The transactions that explain a drift (src/float/candidates.ts). */
export interface FloatCandidates {
  /** Each exact explanation found: transaction ids whose amounts sum to the drift, smallest sets first. */
  sets: string[][];
  /** Whether the bounded search looked at every subset it allows (else more explanations may exist). */
  exhaustive: boolean;
  /**
   * The transactions named in `sets`, then every other candidate that belongs to some exact explanation
   * (of any size; `sets` 0): the complete list where the bounded search stopped early.
   */
  transactions: Array<{ txn_id: string; account_id: string; reference_id: string; status: string; amount_paise: number; created_at: string; sets: number }>;
  /** Why no transaction can be named (no candidate in the window, the partner offers no statement …). */
  note: string | null;
}
export interface FloatResolutionsTable {
  id: string;
  drift_id: string;
  action: 'adjustment' | 'dismiss';
  amount_paise: number | null;
  reason: string;
  evidence: string;
  state: 'proposed' | 'applied' | 'rejected';
  proposed_by: string;
  proposed_by_user: string;
  proposed_at: CreatedAt;
  decided_by: string | null;
  decided_at: Timestamp | null;
  decision_reason: string | null;
}

/** A batch of one operation's rows (migration 0020, src/batches/). */
export type BatchStatus = 'validating' | 'running' | 'completed' | 'cancelled' | 'failed';
export interface BatchesTable {
  id: string;
  account_id: string;
  environment: Environment;
  key_id: string;
  client_ip: string | null;
  operation: string;
  client_batch_id: string | null;
  on_error: 'continue' | 'stop';
  status: BatchStatus;
  message: string | null;
  total: number;
  lease_until: ColumnType<Date, Date | string | undefined, Date | string>;
  lease_owner: string | null;
  /** The highest row a worker has taken (migration 0023): a `queued` row at or below it is running. */
  taken_through: ColumnType<number, number | undefined, number>;
  /** Its counts by final status, moved with the rows' statuses (migration 0023); pending is the rest of `total`. */
  invalid: ColumnType<number, number | undefined, number>;
  success: ColumnType<number, number | undefined, number>;
  failed: ColumnType<number, number | undefined, number>;
  cancelled: ColumnType<number, number | undefined, number>;
  created_at: CreatedAt;
  completed_at: Timestamp | null;
  /** Rows up to this one have had their identity content redacted, once final (migration 0028, batches/retention.ts). */
  identity_redacted_through: ColumnType<number, number | undefined, number>;
  /** When the identity retention erased the rows' content (batches/retention.ts). */
  identity_erased_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

/** A batch row's status as the API shows it; `running` is derived (queued, at or below the batch's cursor). */
export type BatchItemStatus = 'queued' | 'running' | 'pending' | 'success' | 'failed' | 'invalid' | 'cancelled';
export interface BatchItemsTable {
  batch_id: string;
  row_no: number;
  reference_id: string | null;
  input: ColumnType<Record<string, unknown> | null, string | null, string | null>;
  status: Exclude<BatchItemStatus, 'running'>;
  http_status: number | null;
  result: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  reserved_paise: ColumnType<number, number | undefined, number>;
}

export interface GoLiveProfilesTable {
  account_id: string;
  legal_name: ColumnType<string, string | undefined, string>;
  address: ColumnType<string, string | undefined, string>;
  website: ColumnType<string, string | undefined, string>;
  contact_name: ColumnType<string, string | undefined, string>;
  contact_email: ColumnType<string, string | undefined, string>;
  contact_phone: ColumnType<string, string | undefined, string>;
  use_case: ColumnType<string, string | undefined, string>;
  notice_version: ColumnType<string, string | undefined, string>;
  notice_text: ColumnType<string, string | undefined, string>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
  updated_by: string;
}

export type GoLiveState = 'submitted' | 'approved' | 'rejected';

export interface GoLiveSubmissionsTable {
  id: string;
  account_id: string;
  operation: string;
  state: GoLiveState;
  submitted_by: string;
  submitted_at: CreatedAt;
  decided_by: string | null;
  decided_at: Timestamp | null;
  reason: string | null;
  checklist: string;
  /** The console user ids of the submitter and the decider (migration 0028). */
  submitted_by_user: ColumnType<string | null, string | null | undefined, string | null>;
  decided_by_user: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface DB {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  wallets: WalletsTable;
  wallet_balances: WalletBalancesView;
  ledger_entries: LedgerEntriesTable;
  holds: HoldsTable;
  pricing: PricingTable;
  partner_callbacks: PartnerCallbacksTable;
  partner_sessions: PartnerSessionsTable;
  pending_notes: PendingNotesTable;
  transactions: TransactionsTable;
  doclocker_sessions: DoclockerSessionsTable;
  consents: ConsentsTable;
  consent_uses: ConsentUsesTable;
  idempotency_keys: IdempotencyKeysTable;
  audit_logs: AuditLogsTable;
  server_secrets: ServerSecretsTable;
  ip_allowlist: IpAllowlistTable;
  approvals: ApprovalsTable;
  webhook_endpoints: WebhookEndpointsTable;
  audit_checkpoints: AuditCheckpointsTable;
  audit_heads: AuditHeadsTable;
  audit_signed_checkpoints: AuditSignedCheckpointsTable;
  console_users: ConsoleUsersTable;
  console_sessions: ConsoleSessionsTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  partner_events: PartnerEventsTable;
  resolutions: ResolutionsTable;
  float_movements: FloatMovementsTable;
  float_checks: FloatChecksTable;
  float_drifts: FloatDriftsTable;
  float_resolutions: FloatResolutionsTable;
  batches: BatchesTable;
  batch_items: BatchItemsTable;
  go_live_profiles: GoLiveProfilesTable;
  go_live_submissions: GoLiveSubmissionsTable;
}
