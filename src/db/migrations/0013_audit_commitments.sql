-- Erasure that keeps the proof. A row's erasable content (the client IP and the redacted request and
-- response bodies) enters its chain only through a salted hash commitment, content_hash; the chain
-- links row digests (metadata + commitment). Erasing the content (retention by data class, or an
-- erase request for one reference) nulls the content and its salt and stamps erased_at; the
-- commitment stays, so the chain still verifies. Rows written before this migration (content_hash
-- null) keep their whole-row hashing and leave only with the row (metadata retention).
ALTER TABLE audit_logs ADD COLUMN data_class text;
ALTER TABLE audit_logs ADD COLUMN content_salt text;
ALTER TABLE audit_logs ADD COLUMN content_hash text;
ALTER TABLE audit_logs ADD COLUMN erased_at timestamptz;

-- The content-retention sweep: rows of one class, oldest first, whose content is still there.
CREATE INDEX audit_logs_content_retention ON audit_logs (data_class, created_at) WHERE erased_at IS NULL AND content_hash IS NOT NULL;
-- The verifiable export walks one account's rows chain by chain.
CREATE INDEX audit_logs_account_chain ON audit_logs (account_id, chain, seq);
-- A verifiable export finds the first signed checkpoint after a row by time.
CREATE INDEX audit_signed_checkpoints_created ON audit_signed_checkpoints (created_at);
-- An erasure finds a transaction's webhook events.
CREATE INDEX webhook_events_txn ON webhook_events (txn_id);
