-- pgbench script: one sandbox record batch as the recorder writes it (8 idempotency keys, 8 transaction
-- rows, 8 audit rows appended to the first free chain head, its head moved), with the batch's chain head
-- held for :hold seconds before the append — standing in for the round trips and the commit a batch
-- spends holding its head. Many pgbench clients then play many server processes' batches at once
-- without the servers' CPU, which is what a 2-core machine cannot otherwise show. Against a migrated,
-- seeded database (any account):
--   pgbench -n -c 48 -j 1 -T 10 -D hold=0.05 -f bench/sql/batch-writers.sql "$DB"
-- while sampling pg_stat_activity (as bench/scale-n.ts does). More clients than chains → Lock:tuple and
-- Lock:transactionid on audit_heads; fewer → none (docs/PERFORMANCE.md, "Scale-out by process count").
BEGIN;
INSERT INTO idempotency_keys (account_id, environment, operation, key, request_hash, txn_id, status, response_status, response_body, locked_until)
  SELECT (SELECT min(id) FROM accounts), 'sandbox', 'signature-match', md5(random()::text), 'h', 'txn_' || md5(random()::text), 'done', 200, '{"ok":true}', now() FROM generate_series(1, 8);
INSERT INTO transactions (id, account_id, environment, operation, reference_id, status, result)
  SELECT 'txn_' || md5(random()::text), (SELECT min(id) FROM accounts), 'sandbox', 'signature-match', md5(random()::text), 'success', '{"status":"success"}' FROM generate_series(1, 8);
-- As audit/chain.ts does: the lowest free head, else wait for one picked at random.
SELECT coalesce((SELECT chain FROM audit_heads ORDER BY chain LIMIT 1 FOR UPDATE SKIP LOCKED), (SELECT chain FROM audit_heads ORDER BY random() LIMIT 1)) AS chain \gset
SELECT seq FROM audit_heads WHERE chain = :chain FOR UPDATE;
SELECT pg_sleep(:hold);
WITH i AS (
  INSERT INTO audit_logs (request_id, created_at, account_id, method, path, operation, http_status, ok, latency_ms, request_body, response_body, prev_hash, hash, chain, seq)
  SELECT md5(random()::text), now(), (SELECT min(id) FROM accounts), 'POST', '/api/v1/document-ocr/signature-match', 'signature-match', 200, true, 1.0, '{"a":1}', '{"b":2}', 'p', md5(random()::text), :chain,
         (SELECT seq FROM audit_heads WHERE chain = :chain) + g
  FROM generate_series(1, 8) g)
UPDATE audit_heads SET seq = seq + 8, hash = md5(random()::text) WHERE chain = :chain;
COMMIT;
