-- Settling a live transaction completes the idempotency key bound to it (by txn_id): without this
-- index every settlement scanned the whole key table.
CREATE INDEX idempotency_keys_txn ON idempotency_keys (txn_id) WHERE txn_id IS NOT NULL;
