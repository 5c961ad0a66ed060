-- Name match settings per account (issue #24, CONTRACT §11). The two thresholds on the score
-- (approve at or above approve_at, review at or above review_at, reject below) and what a payout whose
-- beneficiary name is only a review does: 'pay' it, or 'hold' it (failed, nothing paid). NULL is the
-- documented default (src/namematch/index.ts DEFAULT_THRESHOLDS; hold).
ALTER TABLE accounts
  ADD COLUMN name_match_approve_at smallint CHECK (name_match_approve_at BETWEEN 0 AND 100),
  ADD COLUMN name_match_review_at smallint CHECK (name_match_review_at BETWEEN 0 AND 100),
  ADD COLUMN name_match_on_review text CHECK (name_match_on_review IN ('pay', 'hold'));
