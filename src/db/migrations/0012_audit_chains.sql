-- The audit trail becomes several hash chains (shards), each with its own head row, so concurrent
-- writers never wait on a shared row: a writer locks the first head nobody holds (FOR UPDATE SKIP
-- LOCKED). Each row carries its chain and its position in it (seq); verification walks (chain, seq).
-- The one chain there was becomes chain 0, its rows numbered in id order, so its hashes stay valid.
ALTER TABLE audit_logs ADD COLUMN chain smallint NOT NULL DEFAULT 0;
ALTER TABLE audit_logs ADD COLUMN seq bigint;
UPDATE audit_logs a SET seq = n.seq
FROM (SELECT id, row_number() OVER (ORDER BY id) AS seq FROM audit_logs WHERE hash IS NOT NULL) n
WHERE a.id = n.id;
ALTER TABLE audit_logs ALTER COLUMN chain DROP DEFAULT;
CREATE UNIQUE INDEX audit_logs_chain_seq ON audit_logs (chain, seq);

-- Where verification of a chain starts (a retention purge, or the start of hashing): one row per
-- chain and purge. Existing checkpoints were chain 0's, at its start.
ALTER TABLE audit_checkpoints ADD COLUMN chain smallint NOT NULL DEFAULT 0;
ALTER TABLE audit_checkpoints ADD COLUMN seq bigint NOT NULL DEFAULT 0;
ALTER TABLE audit_checkpoints ALTER COLUMN chain DROP DEFAULT;

CREATE TABLE audit_heads (
  chain smallint PRIMARY KEY,
  seq   bigint NOT NULL,
  hash  text NOT NULL
);
INSERT INTO audit_heads (chain, seq, hash)
SELECT 0, COALESCE((SELECT MAX(seq) FROM audit_logs), 0), hash FROM audit_head;
INSERT INTO audit_heads (chain, seq, hash)
SELECT c, 0, 'genesis:' || c FROM generate_series(1, 15) AS c;
DROP TABLE audit_head;

-- Signed checkpoints link the chains: every head (chain → seq, hash), the Merkle root over them, and
-- an Ed25519 signature over the root, so rewriting a chain (even re-hashing it) is caught without
-- trusting the store.
CREATE TABLE audit_signed_checkpoints (
  id           bigserial PRIMARY KEY,
  created_at   timestamptz NOT NULL,
  heads        jsonb NOT NULL,
  merkle_root  text NOT NULL,
  key_id       text NOT NULL,
  signature    text NOT NULL,
  reason       text NOT NULL
);
