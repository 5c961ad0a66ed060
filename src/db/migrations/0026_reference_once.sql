-- A reference_id names one transaction of an account in one environment (CONTRACT §5; issue #37): a
-- request that reuses one executes nothing and moves no money (409 / Errorcode 114). The store keeps
-- it so, race-free: a unique index over the references still held. A reference is let go only when
-- the call that held it did nothing at all (a live call whose partner refused it before any outcome,
-- answered 502/504 with its idempotency key freed, live-runner.ts): the client may then retry it as
-- the same request. Such a transaction keeps its row (it is history) with `ref_released`.
ALTER TABLE transactions ADD COLUMN ref_released boolean NOT NULL DEFAULT false;

-- Stores written before this rule may hold a reference twice: the newest transaction keeps it (the one
-- GET /api/v1/transactions/{reference_id} has always shown), the older ones are kept as history.
UPDATE transactions t SET ref_released = true
WHERE EXISTS (
  SELECT 1 FROM transactions n
  WHERE n.account_id = t.account_id AND n.environment = t.environment AND n.reference_id = t.reference_id
    AND (n.created_at, n.id) > (t.created_at, t.id));

CREATE UNIQUE INDEX transactions_reference_once ON transactions (account_id, environment, reference_id) WHERE NOT ref_released;
