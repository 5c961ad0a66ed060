-- Access control: IP allow-lists, live compliance approvals, per-account rate limits, key rotation.

CREATE TABLE ip_allowlist (
  account_id   text NOT NULL REFERENCES accounts(id),
  environment  text NOT NULL CHECK (environment IN ('sandbox', 'live')),
  cidr         text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, environment, cidr)
);

CREATE TABLE approvals (
  account_id   text NOT NULL REFERENCES accounts(id),
  operation    text NOT NULL,
  approved_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, operation)
);

-- NULL = the server's defaults (SANGAM_RATE_LIMIT_PER_SEC / SANGAM_RATE_LIMIT_BURST).
ALTER TABLE accounts ADD COLUMN rate_limit_per_sec integer CHECK (rate_limit_per_sec > 0);
ALTER TABLE accounts ADD COLUMN rate_limit_burst integer CHECK (rate_limit_burst >= 0);

ALTER TABLE api_keys ADD COLUMN rolled_to text REFERENCES api_keys(id);
