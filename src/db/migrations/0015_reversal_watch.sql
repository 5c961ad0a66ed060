-- The reversal watch (CONTRACT §9): a live success that its partner can still undo (a payout reversed,
-- a recharge refunded) is asked about again on the partner's schedule after the success, so that a
-- reversal whose webhooks never arrived is still found. `watch_next_at` is when to ask next (NULL: not
-- watched, or the schedule is done); `watch_checks` how many times it was asked.
ALTER TABLE transactions ADD COLUMN watch_next_at timestamptz;
ALTER TABLE transactions ADD COLUMN watch_checks integer NOT NULL DEFAULT 0;
CREATE INDEX transactions_reversal_watch ON transactions (watch_next_at) WHERE watch_next_at IS NOT NULL;
-- An event is matched by the partner's own id at the partner that holds it.
CREATE INDEX IF NOT EXISTS transactions_partner_ref ON transactions (partner, partner_ref) WHERE partner_ref IS NOT NULL;
-- How many status enquiries in a row found no record of a pending at the partner that took it: a
-- lookup may lag the create, so a transaction is failed as never executed only after two.
ALTER TABLE transactions ADD COLUMN misses integer NOT NULL DEFAULT 0;
