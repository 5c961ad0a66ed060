-- Batches (CONTRACT §12): one submission of many rows of one operation, each row run as that
-- operation's ordinary call by a leased worker (src/batches/).

CREATE TABLE batches (
  id               text PRIMARY KEY,
  account_id       text NOT NULL REFERENCES accounts(id),
  environment      text NOT NULL CHECK (environment IN ('sandbox', 'live')),
  -- The key that submitted it (its rows' audit rows name it) and the address it came from.
  key_id           text NOT NULL,
  client_ip        text,
  operation        text NOT NULL,
  client_batch_id  text,
  on_error         text NOT NULL CHECK (on_error IN ('continue', 'stop')),
  status           text NOT NULL CHECK (status IN ('validating', 'running', 'completed', 'cancelled', 'failed')),
  message          text,
  total            integer NOT NULL,
  -- The worker lease: a running batch is due when lease_until has passed (a worker that died lets go).
  lease_until      timestamptz NOT NULL DEFAULT now(),
  lease_owner      text,
  created_at       timestamptz NOT NULL DEFAULT now(),
  completed_at     timestamptz
);
CREATE UNIQUE INDEX batches_client_id ON batches (account_id, environment, client_batch_id) WHERE client_batch_id IS NOT NULL;
CREATE INDEX batches_due ON batches (lease_until) WHERE status = 'running';
CREATE INDEX batches_account ON batches (account_id, environment, created_at DESC);

-- One row of a batch. status: queued (not started), running (taken by a worker: it may have run; a
-- retry replays it through its idempotency key), pending / success / failed (the operation's answer),
-- invalid (refused at submission, never run), cancelled (not started when the batch was cancelled or stopped).
CREATE TABLE batch_items (
  batch_id        text NOT NULL REFERENCES batches(id),
  row_no          integer NOT NULL,
  reference_id    text,
  input           jsonb,
  status          text NOT NULL CHECK (status IN ('queued', 'running', 'pending', 'success', 'failed', 'invalid', 'cancelled')),
  http_status     integer,
  result          jsonb,
  -- What the live batch set aside from the wallet for this row at submission; taken over by the row's own
  -- hold when it runs, or returned to the balance when it ends without one. 0 once either happened.
  reserved_paise  bigint NOT NULL DEFAULT 0 CHECK (reserved_paise >= 0),
  PRIMARY KEY (batch_id, row_no)
);
CREATE INDEX batch_items_status ON batch_items (batch_id, status, row_no);
CREATE INDEX batch_items_reserved ON batch_items (batch_id) WHERE reserved_paise > 0;

-- What a live batch set aside is held too: available + held still equals the wallet's ledger entries.
CREATE OR REPLACE VIEW wallet_balances AS
SELECT w.account_id,
       w.balance_paise,
       (COALESCE((SELECT SUM(h.amount_paise) FROM holds h WHERE h.account_id = w.account_id AND h.status = 'pending'), 0)
        + COALESCE((SELECT SUM(i.reserved_paise) FROM batches b JOIN batch_items i ON i.batch_id = b.id
                    WHERE b.account_id = w.account_id AND i.reserved_paise > 0), 0))::bigint AS held_paise
FROM wallets w;
