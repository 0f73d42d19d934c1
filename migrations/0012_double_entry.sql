-- Double-entry coins: every ledger row is a transfer between a member (user_id; the balance is
-- users.coins) and a counter account (payments received, promotions, the house, or a show's
-- performer earnings), so the sum over all accounts is always zero. Triggers apply each row to
-- both balances: no code path can write a row without moving both sides.
CREATE TABLE ledger_accounts (
  account TEXT PRIMARY KEY CHECK (account IN ('payments', 'promotions', 'house') OR account GLOB 'performer:[0-9]*'),
  balance INTEGER NOT NULL DEFAULT 0,
  -- Earnings are owed to the performer: they can never go below zero.
  CHECK (account NOT GLOB 'performer:*' OR balance >= 0)
);
INSERT INTO ledger_accounts (account) VALUES ('payments'), ('promotions'), ('house');

ALTER TABLE ledger ADD COLUMN counter TEXT NOT NULL DEFAULT 'house';
UPDATE ledger SET counter = CASE reason WHEN 'payment' THEN 'payments' WHEN 'coupon' THEN 'promotions' WHEN 'signup' THEN 'promotions' ELSE 'house' END;
CREATE INDEX ledger_counter ON ledger (counter, created_at);

-- Opening entries: a balance that no ledger row explains (seeded coins) is opened from promotions.
INSERT INTO ledger (user_id, amount, reason, ref, created_at, counter)
SELECT u.id, u.coins - COALESCE((SELECT SUM(amount) FROM ledger l WHERE l.user_id = u.id), 0), 'adjust', 'opening:' || u.id, unixepoch(), 'promotions'
FROM users u
WHERE u.coins <> COALESCE((SELECT SUM(amount) FROM ledger l WHERE l.user_id = u.id), 0);

UPDATE ledger_accounts SET balance = -(SELECT COALESCE(SUM(amount), 0) FROM ledger WHERE counter = ledger_accounts.account);

-- From now on a ledger row moves both balances; the member's CHECK (coins >= 0) and the
-- earnings' CHECK abort the statement (and its batch) on an overdraft.
CREATE TRIGGER ledger_apply AFTER INSERT ON ledger
BEGIN
  UPDATE users SET coins = coins + NEW.amount WHERE id = NEW.user_id;
  INSERT INTO ledger_accounts (account, balance) VALUES (NEW.counter, -NEW.amount)
    ON CONFLICT (account) DO UPDATE SET balance = balance - NEW.amount;
END;

-- The ledger is append-only.
CREATE TRIGGER ledger_no_update BEFORE UPDATE ON ledger BEGIN SELECT RAISE(ABORT, 'ledger is append-only'); END;
CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger BEGIN SELECT RAISE(ABORT, 'ledger is append-only'); END;
