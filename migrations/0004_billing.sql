-- Coins: an immutable ledger (one row per balance change, unique reference), payment types and
-- products, billing processes, redeemed coupons.
CREATE TABLE ledger (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users (id),
  amount INTEGER NOT NULL CHECK (amount <> 0),
  reason TEXT NOT NULL CHECK (reason IN ('payment', 'purchase', 'tip', 'chat', 'coupon', 'signup', 'adjust')),
  ref TEXT NOT NULL UNIQUE,
  created_at INTEGER NOT NULL
);
CREATE INDEX ledger_user ON ledger (user_id, id);

CREATE TABLE payment_types (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  provider TEXT NOT NULL,
  is_phonecall INTEGER NOT NULL DEFAULT 0,
  position INTEGER NOT NULL
);

CREATE TABLE products (
  id INTEGER PRIMARY KEY,
  payment_type_id INTEGER NOT NULL REFERENCES payment_types (id),
  name TEXT NOT NULL,
  currency TEXT NOT NULL DEFAULT 'EUR',
  amount_cents INTEGER NOT NULL CHECK (amount_cents > 0),
  coins INTEGER NOT NULL CHECK (coins > 0),
  is_default INTEGER NOT NULL DEFAULT 0,
  position INTEGER NOT NULL
);

CREATE TABLE billings (
  id INTEGER PRIMARY KEY,
  user_id INTEGER REFERENCES users (id),
  session_id TEXT,
  payment_type_id INTEGER NOT NULL REFERENCES payment_types (id),
  product_id INTEGER NOT NULL REFERENCES products (id),
  amount_cents INTEGER NOT NULL,
  coins INTEGER NOT NULL,
  currency TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'active', 'paid', 'cancelled', 'failed', 'ended')),
  provider TEXT NOT NULL,
  is_phonecall INTEGER NOT NULL DEFAULT 0,
  coupon_code TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX billings_user ON billings (user_id, id DESC);
CREATE INDEX billings_session ON billings (session_id, id DESC);

CREATE TABLE user_coupons (
  user_id INTEGER NOT NULL REFERENCES users (id),
  code TEXT NOT NULL COLLATE NOCASE,
  redeemed_at INTEGER NOT NULL,
  used_at INTEGER,
  PRIMARY KEY (user_id, code)
) WITHOUT ROWID;

INSERT INTO payment_types (id, name, provider, is_phonecall, position) VALUES
  (1, 'Credit card', 'sandbox', 0, 1),
  (2, 'Online bank transfer', 'sandbox', 0, 2),
  (3, 'Pay by phone', 'sandbox-phone', 1, 3);

INSERT INTO products (id, payment_type_id, name, currency, amount_cents, coins, is_default, position) VALUES
  (1, 1, 'Starter', 'EUR', 1000, 100, 0, 1),
  (2, 1, 'Popular', 'EUR', 2300, 250, 1, 2),
  (3, 1, 'Plus', 'EUR', 4500, 500, 0, 3),
  (4, 1, 'Premium', 'EUR', 8500, 1000, 0, 4),
  (5, 2, 'Starter', 'EUR', 1000, 100, 0, 1),
  (6, 2, 'Popular', 'EUR', 2300, 250, 1, 2),
  (7, 2, 'Plus', 'EUR', 4500, 500, 0, 3),
  (8, 3, 'Phone 10 min', 'EUR', 1990, 200, 1, 1);

INSERT INTO coupons (code, type, value, currency, valid_until, signup_only, created_at) VALUES
  ('FREEVIDEO', 'VIDEO', 1, 'EUR', 4102444800, 0, 1767225600),
  ('FREEGALLERY', 'GALLERY', 1, 'EUR', 4102444800, 0, 1767225600);
