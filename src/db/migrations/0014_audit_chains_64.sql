-- 64 audit chains instead of 16. A writer takes the first chain head nobody holds (FOR UPDATE SKIP
-- LOCKED) and keeps it until its transaction commits; only when every head is held does it wait. Each
-- server process can have up to four such transactions at once (two operation-record batches, one
-- live-outcome batch, one audit-writer batch), so 16 chains were enough for four processes and became
-- the global lock again beyond that: with 48 concurrent batch writers on 16 chains the busy backends
-- waited on Lock:tuple / Lock:transactionid on audit_heads, and throughput halved against 64 chains
-- (docs/PERFORMANCE.md, "Scale-out by process count"). 64 covers 16 processes (SANGAM_WORKERS=auto on
-- 16 cores). An idle chain costs one row, a leaf in each signed checkpoint and one short query in
-- `audit verify`; a lone writer still stays on chain 0.
INSERT INTO audit_heads (chain, seq, hash)
SELECT c, 0, 'genesis:' || c FROM generate_series(16, 63) AS c
ON CONFLICT (chain) DO NOTHING;
