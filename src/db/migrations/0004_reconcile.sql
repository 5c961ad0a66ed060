-- Partner routing and reconciliation: which partner took a live transaction, when to ask it next for
-- the status of a pending one, how often we asked, and why it needs a person (manual review).
ALTER TABLE transactions ADD COLUMN partner text;
ALTER TABLE transactions ADD COLUMN next_check_at timestamptz;
ALTER TABLE transactions ADD COLUMN checks integer NOT NULL DEFAULT 0;
ALTER TABLE transactions ADD COLUMN review_reason text;
CREATE INDEX transactions_reconcile ON transactions (next_check_at) WHERE status = 'pending' AND environment = 'live' AND review_reason IS NULL;
