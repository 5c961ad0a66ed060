-- Outbound webhooks: endpoints, the event outbox (written in the same transaction as the state change),
-- one delivery per (event, endpoint), and every attempt.
CREATE TABLE webhook_endpoints (
  id                     text PRIMARY KEY,
  account_id             text NOT NULL REFERENCES accounts(id),
  environment            text NOT NULL CHECK (environment IN ('sandbox', 'live')),
  url                    text NOT NULL,
  secret                 text NOT NULL,
  previous_secret        text,
  previous_secret_until  timestamptz,
  event_types            jsonb,
  created_at             timestamptz NOT NULL DEFAULT now(),
  deleted_at             timestamptz,
  disabled_at            timestamptz,
  disabled_reason        text,
  failing_since          timestamptz
);
CREATE INDEX webhook_endpoints_account ON webhook_endpoints (account_id, environment) WHERE deleted_at IS NULL;

CREATE TABLE webhook_events (
  id           text PRIMARY KEY,
  account_id   text NOT NULL REFERENCES accounts(id),
  environment  text NOT NULL,
  type         text NOT NULL,
  txn_id       text,
  payload      text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_events_account ON webhook_events (account_id, environment, created_at);

CREATE TABLE webhook_deliveries (
  id               bigserial PRIMARY KEY,
  event_id         text NOT NULL REFERENCES webhook_events(id),
  endpoint_id      text NOT NULL REFERENCES webhook_endpoints(id),
  status           text NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts         integer NOT NULL DEFAULT 0,
  next_attempt_at  timestamptz,
  last_status      integer,
  last_error       text,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, id);

CREATE TABLE webhook_attempts (
  id                bigserial PRIMARY KEY,
  delivery_id       bigint NOT NULL REFERENCES webhook_deliveries(id),
  attempted_at      timestamptz NOT NULL DEFAULT now(),
  http_status       integer,
  latency_ms        double precision NOT NULL,
  response_excerpt  text,
  error             text
);
CREATE INDEX webhook_attempts_delivery ON webhook_attempts (delivery_id, id);
