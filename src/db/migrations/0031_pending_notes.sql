-- Issue #40: a live verification that is still pending when its answer leaves keeps what its end will
-- need from the request (the caller's `name`, to compare with the partner's name_at_bank when a
-- callback or a status enquiry finalises it). Sealed with AES-256-GCM under a server secret
-- (server_secrets 'pending_notes', the transaction id as associated data); deleted when the
-- transaction becomes final, and with the transaction.
CREATE TABLE pending_notes (
  txn_id text PRIMARY KEY REFERENCES transactions (id) ON DELETE CASCADE,
  account_id text NOT NULL,
  sealed text NOT NULL
);
