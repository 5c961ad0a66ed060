-- Accounts, API keys, wallets, operations (transactions), document-locker sessions, idempotency and audit.
-- Money is integer paise (bigint); never a float.

CREATE TABLE accounts (
  id          text PRIMARY KEY,
  name        text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE api_keys (
  id            text PRIMARY KEY,
  account_id    text NOT NULL REFERENCES accounts(id),
  environment   text NOT NULL CHECK (environment IN ('sandbox', 'live')),
  key_hash      text NOT NULL UNIQUE,
  prefix        text NOT NULL,
  last4         text NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  expires_at    timestamptz,
  revoked_at    timestamptz,
  last_used_at  timestamptz
);
CREATE INDEX api_keys_account ON api_keys (account_id, environment);

CREATE TABLE wallets (
  account_id    text PRIMARY KEY REFERENCES accounts(id),
  balance_paise bigint NOT NULL DEFAULT 0 CHECK (balance_paise >= 0),
  held_paise    bigint NOT NULL DEFAULT 0 CHECK (held_paise >= 0),
  updated_at    timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE wallet_entries (
  id             bigserial PRIMARY KEY,
  account_id     text NOT NULL REFERENCES accounts(id),
  kind           text NOT NULL,
  amount_paise   bigint NOT NULL,
  balance_after  bigint NOT NULL CHECK (balance_after >= 0),
  memo           text,
  created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX wallet_entries_account ON wallet_entries (account_id, id);

-- One row per operation call that was executed. `result` is the operation's data as the client sees it
-- (identity photos are never stored; they are regenerated). A pending row may carry the result it will
-- reach (`final_result`) and when (`due_at`); the finalizer moves it there.
CREATE TABLE transactions (
  id            text PRIMARY KEY,
  account_id    text NOT NULL REFERENCES accounts(id),
  environment   text NOT NULL CHECK (environment IN ('sandbox', 'live')),
  operation     text NOT NULL,
  reference_id  text NOT NULL,
  status        text NOT NULL CHECK (status IN ('success', 'pending', 'failed')),
  final_result  jsonb,
  amount_paise  bigint,
  result        jsonb NOT NULL,
  due_at        timestamptz,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now(),
  verified_at   timestamptz
);
CREATE INDEX transactions_reference ON transactions (account_id, environment, reference_id, created_at DESC);
CREATE INDEX transactions_due ON transactions (due_at) WHERE status = 'pending';

CREATE TABLE doclocker_sessions (
  client_id     text PRIMARY KEY,
  account_id    text NOT NULL REFERENCES accounts(id),
  environment   text NOT NULL CHECK (environment IN ('sandbox', 'live')),
  reference_id  text NOT NULL,
  txn_id        text NOT NULL REFERENCES transactions(id),
  status        text NOT NULL CHECK (status IN ('pending', 'authorized', 'denied')),
  redirect_url  text,
  created_at    timestamptz NOT NULL DEFAULT now(),
  expires_at    timestamptz NOT NULL,
  decided_at    timestamptz
);

-- CONTRACT §5: one row per (account, environment, operation, key). The response is stored in the same
-- transaction as the operation's effect and replayed byte for byte.
CREATE TABLE idempotency_keys (
  account_id      text NOT NULL REFERENCES accounts(id),
  environment     text NOT NULL,
  operation       text NOT NULL,
  key             text NOT NULL,
  request_hash    text NOT NULL,
  status          text NOT NULL CHECK (status IN ('in_flight', 'done')),
  response_status integer,
  response_body   text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  locked_until    timestamptz NOT NULL,
  PRIMARY KEY (account_id, environment, operation, key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);

-- One row per API request. Bodies are redacted before they get here (audit/redact.ts).
CREATE TABLE audit_logs (
  id             bigserial PRIMARY KEY,
  request_id     text NOT NULL,
  created_at     timestamptz NOT NULL,
  account_id     text,
  key_id         text,
  environment    text,
  client_ip      text,
  method         text NOT NULL,
  path           text NOT NULL,
  operation      text,
  http_status    integer NOT NULL,
  ok             boolean NOT NULL,
  statuscode     text,
  reference_id   text,
  latency_ms     double precision NOT NULL,
  request_body   jsonb,
  response_body  jsonb
);
CREATE INDEX audit_logs_account_time ON audit_logs (account_id, created_at DESC, id DESC);
CREATE INDEX audit_logs_account_reference ON audit_logs (account_id, reference_id);
CREATE INDEX audit_logs_request_id ON audit_logs (request_id);

-- Secrets the server generates for itself on first boot (URL signing), so they survive restarts.
CREATE TABLE server_secrets (
  name   text PRIMARY KEY,
  value  text NOT NULL
);
