-- Server-side state a partner connector keeps between calls (an OAuth state and PKCE verifier, an
-- access token until the document is fetched), by partner and key. Values are AES-256-GCM ciphertext
-- (providers/sessions.ts): a dump of the store shows no token. Expired rows are never read and are
-- purged.
CREATE TABLE partner_sessions (
  partner    text        NOT NULL,
  key        text        NOT NULL,
  value      text        NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (partner, key)
);
CREATE INDEX partner_sessions_expires_at ON partner_sessions (expires_at);
