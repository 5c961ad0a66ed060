-- Issue #41 item 5: the trace of a request (OpenTelemetry, src/tracing/) on its audit row, so an
-- operator goes from a row to its trace and back. Null for rows from before, and for rows written
-- while traces are off. Outside the row's hash (audit/hashing.ts hashes the columns it names): a
-- pointer to telemetry, not a fact of the record; old rows and exports verify as before.
ALTER TABLE audit_logs ADD COLUMN trace_id text;
