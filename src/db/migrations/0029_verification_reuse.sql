-- Issue #40 (CONTRACT §14): a UPI payout with beneficiary_name uses the same account's recent
-- vpa-verification of the same VPA instead of a new validation.
-- (1) The account's reuse window, in seconds: NULL is the documented default (24 h), 0 never reuses.
ALTER TABLE accounts ADD COLUMN verification_reuse_window_s integer CHECK (verification_reuse_window_s >= 0);

-- (2) The payout's lookup is one index scan: the account's successful verifications of a VPA (as the
--     answer stores it, lower-cased), newest first.
CREATE INDEX transactions_vpa_verifications ON transactions (account_id, environment, (lower(result ->> 'vpa')), verified_at DESC)
  WHERE operation = 'vpa-verification' AND status = 'success';
