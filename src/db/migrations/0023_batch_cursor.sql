-- A batch's rows are taken in row order by moving one cursor on the batch (batches.taken_through), not by
-- marking each row `running`: a row is running when it is still `queued` at or below the cursor (taken
-- by a worker; it may have run, and a retry replays it through its idempotency key). Measured: the
-- per-row UPDATE at take was 9 % of the embedded store's time per batch row (docs/PERFORMANCE.md).
ALTER TABLE batches ADD COLUMN taken_through integer NOT NULL DEFAULT 0;

-- Batches mid-run when this migration runs: rows are taken in row order, so the cursor is the highest
-- row a worker took; the rows it marked running become queued at or below it, which says the same.
UPDATE batches b SET taken_through = t.through
FROM (SELECT batch_id, max(row_no) AS through FROM batch_items WHERE status IN ('running', 'pending', 'success', 'failed') GROUP BY batch_id) t
WHERE b.id = t.batch_id;
UPDATE batch_items SET status = 'queued' WHERE status = 'running';

ALTER TABLE batch_items DROP CONSTRAINT batch_items_status_check;
ALTER TABLE batch_items ADD CONSTRAINT batch_items_status_check CHECK (status IN ('queued', 'pending', 'success', 'failed', 'invalid', 'cancelled'));
