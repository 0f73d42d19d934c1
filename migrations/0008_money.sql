-- Money (issue 9): percent vouchers reserved for one billing, the welcome offer paid once, and
-- the bonus parts of a billing kept apart from the package's coins.

-- The billing a percent voucher is reserved for (released when that billing is cancelled, fails
-- or is abandoned; used_at is set when it is paid).
ALTER TABLE user_coupons ADD COLUMN billing_id INTEGER;

-- Bonus coins a billing promised at its start: a percent voucher's and the welcome offer's. Each
-- is credited with its own ledger row only if its claim holds when the payment arrives.
ALTER TABLE billings ADD COLUMN voucher_coins INTEGER NOT NULL DEFAULT 0;
ALTER TABLE billings ADD COLUMN welcome_coins INTEGER NOT NULL DEFAULT 0;
CREATE INDEX billings_user_created ON billings (user_id, created_at);

-- The welcome offer of a new member: the window of the countdown they signed up in (server
-- time), claimed by exactly one paid purchase (billing_id).
CREATE TABLE welcome_offers (
  user_id INTEGER PRIMARY KEY REFERENCES users (id),
  starts_at INTEGER NOT NULL,
  ends_at INTEGER NOT NULL,
  billing_id INTEGER REFERENCES billings (id),
  claimed_at INTEGER
);

-- Coupons only the site hands out (the welcome offer's free video): never redeemable by code.
ALTER TABLE coupons ADD COLUMN granted_only INTEGER NOT NULL DEFAULT 0;
INSERT INTO coupons (code, type, value, currency, valid_until, signup_only, created_at, granted_only) VALUES
  ('WELCOMEVIDEO', 'VIDEO', 1, 'EUR', 4102444800, 0, 1767225600, 1);
