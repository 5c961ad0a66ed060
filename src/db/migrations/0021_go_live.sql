-- The self-serve go-live checklist (issue #26 item 5). What a reviewer needs before approving an
-- account's live use of an operation: the account's business details, use case and consent notice
-- (go_live_profiles, one row per account, edited in the console) and each request to go live
-- (go_live_submissions, one row per operation submitted, kept after its decision). An approval still
-- lands in `approvals`, the one table the live guard reads: a submission records who asked and who
-- decided, never whether the operation is approved.
CREATE TABLE go_live_profiles (
  account_id      text        PRIMARY KEY REFERENCES accounts(id),
  legal_name      text        NOT NULL DEFAULT '',
  address         text        NOT NULL DEFAULT '',
  website         text        NOT NULL DEFAULT '',
  contact_name    text        NOT NULL DEFAULT '',
  contact_email   text        NOT NULL DEFAULT '',
  contact_phone   text        NOT NULL DEFAULT '',
  use_case        text        NOT NULL DEFAULT '',
  notice_version  text        NOT NULL DEFAULT '',
  notice_text     text        NOT NULL DEFAULT '',
  updated_at      timestamptz NOT NULL DEFAULT now(),
  updated_by      text        NOT NULL
);

CREATE TABLE go_live_submissions (
  id            text        PRIMARY KEY,
  account_id    text        NOT NULL REFERENCES accounts(id),
  operation     text        NOT NULL,
  state         text        NOT NULL CHECK (state IN ('submitted', 'approved', 'rejected')),
  submitted_by  text        NOT NULL,
  submitted_at  timestamptz NOT NULL DEFAULT now(),
  decided_by    text,
  decided_at    timestamptz,
  reason        text,
  -- The checklist as the submitter saw it, so a reviewer can tell what changed since.
  checklist     text        NOT NULL
);
CREATE INDEX go_live_submissions_by_account ON go_live_submissions (account_id, operation, submitted_at DESC);
-- At most one submission waits per account and operation.
CREATE UNIQUE INDEX go_live_submissions_open ON go_live_submissions (account_id, operation) WHERE state = 'submitted';
