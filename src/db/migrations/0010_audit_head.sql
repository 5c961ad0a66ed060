-- The head of the audit hash chain in a row of its own. A writer locks it (SELECT … FOR UPDATE, which
-- returns the latest committed version once the lock is granted), links its batch to it, and moves it
-- in the statement that inserts the batch: two round trips instead of an advisory lock, a read of the
-- newest row and the insert.
CREATE TABLE audit_head (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  hash      text NOT NULL
);

INSERT INTO audit_head (singleton, hash)
SELECT true, COALESCE(
  (SELECT hash FROM audit_logs WHERE hash IS NOT NULL ORDER BY id DESC LIMIT 1),
  (SELECT hash FROM audit_checkpoints ORDER BY id DESC LIMIT 1),
  'genesis');
