-- Issue 29 point 5 and 6: refunds, chargebacks and payouts through the double-entry ledger.
-- SQLite cannot change a CHECK: the ledger and its accounts are rebuilt with the new reasons
-- and accounts (rows, ids and balances kept), and their triggers made again.
PRAGMA defer_foreign_keys = true;

DROP TRIGGER ledger_apply;
DROP TRIGGER ledger_no_update;
DROP TRIGGER ledger_no_delete;

CREATE TABLE ledger_new (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users (id),
  amount INTEGER NOT NULL CHECK (amount <> 0),
  reason TEXT NOT NULL CHECK (reason IN ('payment', 'purchase', 'tip', 'chat', 'coupon', 'signup', 'adjust', 'refund', 'chargeback', 'payout')),
  ref TEXT NOT NULL UNIQUE,
  created_at INTEGER NOT NULL,
  counter TEXT NOT NULL DEFAULT 'house'
);
INSERT INTO ledger_new (id, user_id, amount, reason, ref, created_at, counter) SELECT id, user_id, amount, reason, ref, created_at, counter FROM ledger;
DROP TABLE ledger;
ALTER TABLE ledger_new RENAME TO ledger;
CREATE INDEX ledger_user ON ledger (user_id, id);
CREATE INDEX ledger_counter ON ledger (counter, created_at);

-- New accounts: payouts (what was paid out to performers) and owed:<member> (what a member owes
-- after a chargeback took back coins they had already spent: never above zero).
CREATE TABLE ledger_accounts_new (
  account TEXT PRIMARY KEY CHECK (account IN ('payments', 'promotions', 'house', 'payouts') OR account GLOB 'performer:[0-9]*' OR account GLOB 'owed:[0-9]*'),
  balance INTEGER NOT NULL DEFAULT 0,
  CHECK (account NOT GLOB 'performer:*' OR balance >= 0),
  CHECK (account NOT GLOB 'owed:*' OR balance <= 0)
);
INSERT INTO ledger_accounts_new (account, balance) SELECT account, balance FROM ledger_accounts;
INSERT INTO ledger_accounts_new (account) VALUES ('payouts');
DROP TABLE ledger_accounts;
ALTER TABLE ledger_accounts_new RENAME TO ledger_accounts;

-- The account is made first (at zero), then moved: an upsert's candidate row is checked before
-- its conflict, so a credit to a performer (a refund, a payout) or a debt paid (owed:) would fail
-- the CHECK of a row that is never written.
CREATE TRIGGER ledger_apply AFTER INSERT ON ledger
BEGIN
  UPDATE users SET coins = coins + NEW.amount WHERE id = NEW.user_id;
  INSERT INTO ledger_accounts (account) SELECT NEW.counter WHERE NOT EXISTS (SELECT 1 FROM ledger_accounts WHERE account = NEW.counter);
  UPDATE ledger_accounts SET balance = balance - NEW.amount WHERE account = NEW.counter;
END;
CREATE TRIGGER ledger_no_update BEFORE UPDATE ON ledger BEGIN SELECT RAISE(ABORT, 'ledger is append-only'); END;
CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger BEGIN SELECT RAISE(ABORT, 'ledger is append-only'); END;
-- A member who owes (a chargeback) spends nothing until it is settled: their account is locked.
CREATE TRIGGER ledger_owed_lock BEFORE INSERT ON ledger
WHEN NEW.amount < 0 AND NEW.reason IN ('chat', 'tip', 'purchase')
  AND EXISTS (SELECT 1 FROM ledger_accounts WHERE account = 'owed:' || NEW.user_id AND balance < 0)
BEGIN SELECT RAISE(ABORT, 'member_locked'); END;

-- One chargeback per billing (the provider's postback may come many times, and at once).
CREATE TABLE chargebacks (
  billing_id INTEGER PRIMARY KEY REFERENCES billings (id),
  user_id INTEGER NOT NULL REFERENCES users (id),
  provider TEXT NOT NULL,
  event_id TEXT NOT NULL,
  coins INTEGER NOT NULL,
  created_at INTEGER NOT NULL
);

-- A performer's payout: requested from the studio, approved in a batch by an operator (the
-- ledger moves the amount from performer:<show> to payouts, reference payout:<id>).
CREATE TABLE payouts (
  id INTEGER PRIMARY KEY,
  show_id INTEGER NOT NULL REFERENCES shows (id),
  user_id INTEGER NOT NULL REFERENCES users (id),
  amount INTEGER NOT NULL CHECK (amount > 0),
  state TEXT NOT NULL DEFAULT 'requested' CHECK (state IN ('requested', 'paid', 'rejected')),
  requested_at INTEGER NOT NULL,
  batch_id INTEGER,
  decided_at INTEGER,
  decided_by INTEGER REFERENCES users (id),
  note TEXT
);
-- One open request per show at a time.
CREATE UNIQUE INDEX payouts_open ON payouts (show_id) WHERE state = 'requested';
CREATE INDEX payouts_batch ON payouts (batch_id);

-- An operator's approval of payouts at once: the batch the exported statement lists.
CREATE TABLE payout_batches (
  id INTEGER PRIMARY KEY,
  created_by INTEGER NOT NULL REFERENCES users (id),
  created_at INTEGER NOT NULL
);
