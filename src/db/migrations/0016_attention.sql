-- Nothing left stuck (issue #21). `partner_events` is each live transaction's history with its partners:
-- what was sent (request) and answered (answer), each callback applied, each status enquiry and its
-- answer or error, resolutions by hand, and `overdue`, written once when a pending outlives its
-- partner's expectation (the overdue watch logs it then; the unique index keeps it once across
-- processes). `detail` holds no identity data: it is redacted on write (src/attention/history.ts).
CREATE TABLE partner_events (
  id        bigserial PRIMARY KEY,
  txn_id    text NOT NULL REFERENCES transactions (id),
  at        timestamptz NOT NULL DEFAULT now(),
  partner   text,
  kind      text NOT NULL CHECK (kind IN ('request', 'answer', 'callback', 'enquiry', 'resolution', 'overdue')),
  status    text,
  detail    jsonb NOT NULL DEFAULT '{}'::jsonb
);
CREATE INDEX partner_events_txn ON partner_events (txn_id, at, id);
CREATE UNIQUE INDEX partner_events_overdue_once ON partner_events (txn_id) WHERE kind = 'overdue';

-- Resolutions by hand of what needs attention. A money action (success, failed, reversal) is
-- `proposed` until a different admin approves it (then `applied`) or rejects it; `dismiss` (a flag or a
-- review, no money) is applied when it is recorded. One open proposal per transaction at a time.
CREATE TABLE resolutions (
  id               text PRIMARY KEY,
  txn_id           text NOT NULL REFERENCES transactions (id),
  action           text NOT NULL CHECK (action IN ('success', 'failed', 'reversal', 'dismiss')),
  reason           text NOT NULL,
  evidence         text NOT NULL,
  state            text NOT NULL CHECK (state IN ('proposed', 'applied', 'rejected')),
  proposed_by      text NOT NULL,
  proposed_at      timestamptz NOT NULL DEFAULT now(),
  decided_by       text,
  decided_at       timestamptz,
  decision_reason  text
);
CREATE UNIQUE INDEX resolutions_one_open ON resolutions (txn_id) WHERE state = 'proposed';
CREATE INDEX resolutions_txn ON resolutions (txn_id, proposed_at);

-- The queue reads live pendings by age and flagged transactions.
CREATE INDEX transactions_live_pending ON transactions (created_at) WHERE status = 'pending' AND environment = 'live';
CREATE INDEX transactions_flagged ON transactions (created_at) WHERE flagged IS NOT NULL;
