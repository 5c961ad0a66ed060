-- A wallet's held amount is derived from its pending holds instead of being kept on the wallet row.
-- Posting a hold then never touches the wallet row: on a hot wallet only the reservation itself (one
-- conditional UPDATE of balance_paise) takes the row lock.
ALTER TABLE wallets DROP COLUMN held_paise;

CREATE VIEW wallet_balances AS
SELECT w.account_id,
       w.balance_paise,
       COALESCE((SELECT SUM(h.amount_paise) FROM holds h WHERE h.account_id = w.account_id AND h.status = 'pending'), 0)::bigint AS held_paise
FROM wallets w;
