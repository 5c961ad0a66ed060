-- Consent records (issue #26, CONTRACT §13). The subject is kept only as keyed hashes (HMAC-SHA256 with
-- the deployment's `consent_subject` secret) and a masked form: a dump shows no mobile number or e-mail.
-- The notice is kept as shown, with its SHA-256; `receipt` is the compact JWS Sangam signed over the
-- record (src/consents/receipt.ts). `effected_at` is set once a withdrawal or expiry has done its work
-- (sessions revoked, content erased): a withdrawn or expired consent without it is still to be effected.
CREATE TABLE consents (
  id                     text        PRIMARY KEY,
  account_id             text        NOT NULL REFERENCES accounts(id),
  environment            text        NOT NULL CHECK (environment IN ('sandbox', 'live')),
  status                 text        NOT NULL CHECK (status IN ('active', 'withdrawn', 'expired')),
  subject_mobile_hash    text,
  subject_email_hash     text,
  subject_reference_hash text,
  subject_masked         text        NOT NULL,
  purpose_code           text        NOT NULL,
  purpose_text           text        NOT NULL,
  operations             text        NOT NULL,
  notice_version         text        NOT NULL,
  notice_language        text        NOT NULL,
  notice_text            text        NOT NULL,
  notice_sha256          text        NOT NULL,
  channel                text,
  collected_at           timestamptz NOT NULL,
  expires_at             timestamptz,
  created_at             timestamptz NOT NULL DEFAULT now(),
  ended_at               timestamptz,
  effected_at            timestamptz,
  receipt                text        NOT NULL
);
CREATE INDEX consents_by_mobile ON consents (account_id, environment, subject_mobile_hash);
CREATE INDEX consents_expiring ON consents (expires_at) WHERE status = 'active';
CREATE INDEX consents_to_effect ON consents (ended_at) WHERE status <> 'active' AND effected_at IS NULL;

-- Each call made under a consent, written in the transaction that records the call.
CREATE TABLE consent_uses (
  id           bigserial   PRIMARY KEY,
  consent_id   text        NOT NULL REFERENCES consents(id),
  request_id   text        NOT NULL,
  txn_id       text        NOT NULL,
  operation    text        NOT NULL,
  reference_id text        NOT NULL,
  used_at      timestamptz NOT NULL DEFAULT now(),
  -- Set when the consent's end erased this use's reference: an effect retried later erases it once.
  erased_at    timestamptz
);
CREATE INDEX consent_uses_by_consent ON consent_uses (consent_id, id);

-- An account may require consent_id on every live call.
ALTER TABLE accounts ADD COLUMN require_consent_live boolean NOT NULL DEFAULT false;
