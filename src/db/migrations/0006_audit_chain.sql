-- Tamper evidence for the audit trail: each row carries the hash of the row before it (one chain over
-- all rows, in id order). Checkpoints record where the chain starts after rows were purged by the
-- retention policy (or, for rows written before this migration, where hashing began).
ALTER TABLE audit_logs ADD COLUMN prev_hash text;
ALTER TABLE audit_logs ADD COLUMN hash text;

CREATE TABLE audit_checkpoints (
  id           bigserial PRIMARY KEY,
  upto_id      bigint NOT NULL,
  hash         text NOT NULL,
  reason       text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now()
);
INSERT INTO audit_checkpoints (upto_id, hash, reason)
SELECT COALESCE(MAX(id), 0), 'genesis', 'rows before the hash chain was introduced' FROM audit_logs;

CREATE INDEX audit_logs_account_operation ON audit_logs (account_id, operation, created_at DESC);
CREATE INDEX audit_logs_created ON audit_logs (created_at, id);
