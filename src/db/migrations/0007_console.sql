-- Console users (scrypt password hashes) and their sessions (only a hash of the cookie is stored).
CREATE TABLE console_users (
  id             text PRIMARY KEY,
  email          text NOT NULL UNIQUE,
  password_hash  text NOT NULL,
  is_admin       boolean NOT NULL DEFAULT false,
  account_id     text REFERENCES accounts(id),
  created_at     timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE console_sessions (
  token_hash   text PRIMARY KEY,
  user_id      text NOT NULL REFERENCES console_users(id),
  csrf_token   text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  expires_at   timestamptz NOT NULL
);
CREATE INDEX console_sessions_user ON console_sessions (user_id);
