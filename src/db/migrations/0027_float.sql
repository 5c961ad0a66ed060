-- Float reconciliation (docs/RELIABILITY.md, "Float reconciliation"; src/float/). A prepaid partner
-- (Setu's recharge wallet) debits its own balance for every operation it executes and credits it back
-- on a failure or a reversal. Sangam keeps what that balance should be and compares it with what the
-- partner reports, so a reversal whose every webhook was missed still reaches a person.
--
-- `float_movements` is append-only (the trigger refuses UPDATE and DELETE), in paise, signed (+ adds to
-- the float): `opening` (the balance itself, recorded by an operator: every later movement counts from
-- the latest one), `funding` (a top-up the operator made), `adjustment` (a correction approved under
-- maker-checker), `spend` (a success routed to the partner, at the amount it debits) and `reversal`
-- (a reversal Sangam posted), the last two once per transaction.
CREATE TABLE float_movements (
  id           text PRIMARY KEY,
  partner      text NOT NULL,
  kind         text NOT NULL CHECK (kind IN ('opening', 'funding', 'adjustment', 'spend', 'reversal')),
  amount_paise bigint NOT NULL,
  txn_id       text REFERENCES transactions (id),
  memo         text NOT NULL DEFAULT '',
  recorded_by  text NOT NULL,
  at           timestamptz NOT NULL DEFAULT clock_timestamp(),
  CHECK ((kind IN ('spend', 'reversal')) = (txn_id IS NOT NULL)),
  CHECK (kind <> 'funding' OR amount_paise > 0)
);
CREATE UNIQUE INDEX float_movements_once ON float_movements (partner, kind, txn_id) WHERE txn_id IS NOT NULL;
CREATE INDEX float_movements_partner ON float_movements (partner, at);

CREATE FUNCTION float_movements_append_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'float_movements is append-only: record a new movement instead';
END $$;
CREATE TRIGGER float_movements_append_only BEFORE UPDATE OR DELETE ON float_movements
  FOR EACH ROW EXECUTE FUNCTION float_movements_append_only();

-- The latest conclusive check of each partner's float: what was expected, what the partner said, the
-- drift, and for how many checks in a row that very drift has been seen (an item opens after
-- SANGAM_FLOAT_CONFIRM_CHECKS). `error` is the last failure to read the balance (null once one works).
CREATE TABLE float_checks (
  partner        text PRIMARY KEY,
  checked_at     timestamptz NOT NULL,
  expected_paise bigint,
  actual_paise   bigint,
  drift_paise    bigint,
  streak         int NOT NULL DEFAULT 0,
  error          text,
  error_at       timestamptz
);

-- A drift is an item of the "Needs attention" queue: at most one open per partner, kept up to date while
-- the drift lasts (its amount and the candidate transactions that explain it), closed when a check finds
-- none (`cleared`), when an approved adjustment accounts for it (`adjusted`) or when an admin dismisses
-- it with a reason (`dismissed`: the same drift does not reopen it).
CREATE TABLE float_drifts (
  id             text PRIMARY KEY,
  partner        text NOT NULL,
  state          text NOT NULL CHECK (state IN ('open', 'cleared', 'adjusted', 'dismissed')),
  drift_paise    bigint NOT NULL,
  expected_paise bigint NOT NULL,
  actual_paise   bigint NOT NULL,
  candidates     jsonb NOT NULL,
  opened_at      timestamptz NOT NULL DEFAULT now(),
  updated_at     timestamptz NOT NULL DEFAULT now(),
  closed_at      timestamptz,
  closed_by      text,
  close_reason   text
);
CREATE UNIQUE INDEX float_drifts_one_open ON float_drifts (partner) WHERE state = 'open';
CREATE INDEX float_drifts_partner ON float_drifts (partner, opened_at);

-- Resolutions of a drift that are not a transaction's reversal (that one is a `resolutions` row of the
-- candidate, through the existing path): an `adjustment` (a signed amount into the float's books)
-- waits for a second admin; a `dismiss` is applied when recorded.
CREATE TABLE float_resolutions (
  id              text PRIMARY KEY,
  drift_id        text NOT NULL REFERENCES float_drifts (id),
  action          text NOT NULL CHECK (action IN ('adjustment', 'dismiss')),
  amount_paise    bigint,
  reason          text NOT NULL,
  evidence        text NOT NULL,
  state           text NOT NULL CHECK (state IN ('proposed', 'applied', 'rejected')),
  proposed_by     text NOT NULL,
  -- The maker's console user id: maker-checker compares ids, never e-mails (admin/actions/people.ts).
  proposed_by_user text NOT NULL,
  proposed_at     timestamptz NOT NULL DEFAULT now(),
  decided_by      text,
  decided_at      timestamptz,
  decision_reason text
);
CREATE UNIQUE INDEX float_resolutions_one_open ON float_resolutions (drift_id) WHERE state = 'proposed';

-- The float reads a partner's live transactions since its opening.
CREATE INDEX transactions_float ON transactions (partner, created_at) WHERE environment = 'live' AND partner IS NOT NULL;
