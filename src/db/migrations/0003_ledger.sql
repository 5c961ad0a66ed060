-- The live money path: a double-entry ledger in integer paise, two-phase holds, a pricing table,
-- partner callbacks received, and the transaction id an idempotency key is bound to.

-- Every movement is a posting: entries sharing a posting_id sum to zero. Ledger accounts are named:
-- wallet:<account id> (a client's prepaid funds), platform:fees, partner:settlement,
-- platform:commission (commission passed on to clients), funding:topups (money that came in).
CREATE TABLE ledger_entries (
  id              bigserial PRIMARY KEY,
  posting_id      text NOT NULL,
  ledger_account  text NOT NULL,
  amount_paise    bigint NOT NULL,
  kind            text NOT NULL,
  memo            text,
  created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ledger_entries_account ON ledger_entries (ledger_account, id);
CREATE INDEX ledger_entries_posting ON ledger_entries (posting_id);

INSERT INTO ledger_entries (posting_id, ledger_account, amount_paise, kind, memo, created_at)
SELECT 'topup_' || id, 'wallet:' || account_id, amount_paise, 'topup', memo, created_at FROM wallet_entries WHERE kind = 'topup'
UNION ALL
SELECT 'topup_' || id, 'funding:topups', -amount_paise, 'topup', memo, created_at FROM wallet_entries WHERE kind = 'topup';
DROP TABLE wallet_entries;

-- A hold reserves funds for one live transaction (wallets.balance → wallets.held). It resolves exactly
-- once: posted (the money moves, ledger entries written) or voided (the money returns to balance).
CREATE TABLE holds (
  txn_id            text PRIMARY KEY REFERENCES transactions(id),
  account_id        text NOT NULL REFERENCES accounts(id),
  amount_paise      bigint NOT NULL CHECK (amount_paise >= 0),
  principal_paise   bigint NOT NULL CHECK (principal_paise >= 0),
  fee_paise         bigint NOT NULL CHECK (fee_paise >= 0),
  commission_paise  bigint NOT NULL CHECK (commission_paise >= 0),
  status            text NOT NULL CHECK (status IN ('pending', 'posted', 'voided')),
  created_at        timestamptz NOT NULL DEFAULT now(),
  resolved_at       timestamptz
);
CREATE INDEX holds_pending ON holds (account_id) WHERE status = 'pending';

CREATE TABLE pricing (
  operation   text PRIMARY KEY,
  fee_paise   bigint NOT NULL CHECK (fee_paise >= 0),
  updated_at  timestamptz NOT NULL DEFAULT now()
);
INSERT INTO pricing (operation, fee_paise) VALUES
  ('signature-match', 300),
  ('doclocker-initialize', 0),
  ('doclocker-download-aadhaar', 500),
  ('mobile-to-bank-account', 200),
  ('upi-payment-status', 100),
  ('recharge-commission', 0),
  ('dth-recharge', 0);

-- Signed callbacks received from partners, by webhook id: a repeated id is dropped.
CREATE TABLE partner_callbacks (
  webhook_id   text PRIMARY KEY,
  txn_id       text,
  status       text,
  outcome      text NOT NULL,
  received_at  timestamptz NOT NULL DEFAULT now()
);

ALTER TABLE idempotency_keys ADD COLUMN txn_id text;
ALTER TABLE transactions ADD COLUMN partner_ref text;
ALTER TABLE transactions ADD COLUMN flagged text;
