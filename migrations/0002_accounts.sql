-- Accounts: visitor sessions, auth tokens, one-time e-mail tokens, nicknames, throttling,
-- stored mail (dev mailbox), vouchers for sign-up, client logs.
CREATE TABLE sessions (
  id TEXT PRIMARY KEY,
  webid INTEGER NOT NULL DEFAULT 19,
  website_id INTEGER NOT NULL DEFAULT 19,
  visitor_id TEXT,
  vid_confidence REAL,
  domain TEXT,
  host TEXT,
  agechecked INTEGER NOT NULL DEFAULT 0,
  splash18_confirmed INTEGER NOT NULL DEFAULT 0,
  voicecall INTEGER NOT NULL DEFAULT 0,
  phonecall_payment_type_id INTEGER,
  phonecall_product_id INTEGER,
  phonecall_payment_name TEXT,
  sms_coins_disabled INTEGER NOT NULL DEFAULT 0,
  sms_coins_available INTEGER NOT NULL DEFAULT 1,
  welcome_shown INTEGER NOT NULL DEFAULT 0,
  incentive_tsp INTEGER,
  redirect_splash TEXT,
  temp_nickname TEXT,
  agent_id INTEGER,
  chatsession_id TEXT,
  user_id INTEGER REFERENCES users (id),
  register_email TEXT,
  created_at INTEGER NOT NULL,
  seen_at INTEGER NOT NULL
);
CREATE INDEX sessions_seen ON sessions (seen_at);

-- Auth cookies are random tokens; only their SHA-256 is stored, and logout deletes the row.
CREATE TABLE auth_tokens (
  token_hash TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users (id),
  session_id TEXT,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX auth_tokens_user ON auth_tokens (user_id);

-- Single-use tokens mailed to members (verify e-mail, reset password, one-click login).
CREATE TABLE user_tokens (
  token_hash TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users (id),
  kind TEXT NOT NULL CHECK (kind IN ('verify', 'reset', 'login')),
  expires_at INTEGER NOT NULL,
  used_at INTEGER,
  created_at INTEGER NOT NULL
);
CREATE INDEX user_tokens_user ON user_tokens (user_id, kind);

CREATE TABLE nicknames (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users (id),
  nickname TEXT NOT NULL UNIQUE COLLATE NOCASE,
  created_at INTEGER NOT NULL
);
CREATE INDEX nicknames_user ON nicknames (user_id);

ALTER TABLE users ADD COLUMN current_nickname_id INTEGER REFERENCES nicknames (id);
ALTER TABLE users ADD COLUMN cancelled_at INTEGER;
ALTER TABLE users ADD COLUMN google_sub TEXT;
ALTER TABLE users ADD COLUMN verify_sent_at INTEGER;
CREATE UNIQUE INDEX users_google_sub ON users (google_sub) WHERE google_sub IS NOT NULL;

-- Fixed-window counters for throttling (login failures per account and per address, mails).
CREATE TABLE throttle (
  key TEXT PRIMARY KEY,
  count INTEGER NOT NULL,
  reset_at INTEGER NOT NULL
);

-- Every mail sent; in development this is the mailbox at /dev/mailbox.
CREATE TABLE mails (
  id INTEGER PRIMARY KEY,
  to_addr TEXT NOT NULL,
  subject TEXT NOT NULL,
  html TEXT NOT NULL,
  text TEXT NOT NULL,
  kind TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX mails_to ON mails (to_addr, id DESC);

CREATE TABLE coupons (
  code TEXT PRIMARY KEY COLLATE NOCASE,
  type TEXT NOT NULL CHECK (type IN ('COINS', 'EURO', 'PERCENT', 'FREE', 'VIDEO', 'GALLERY')),
  value INTEGER NOT NULL CHECK (value >= 0),
  currency TEXT NOT NULL DEFAULT 'EUR',
  valid_until INTEGER NOT NULL,
  signup_only INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL
);

CREATE TABLE user_logs (
  id INTEGER PRIMARY KEY,
  user_id INTEGER REFERENCES users (id),
  version TEXT,
  errors TEXT NOT NULL,
  created_at INTEGER NOT NULL
);

-- First-party visit counter (the counter pixel): hits per day and website, no personal data.
CREATE TABLE counter_hits (
  day TEXT NOT NULL,
  website_id INTEGER NOT NULL,
  hits INTEGER NOT NULL,
  PRIMARY KEY (day, website_id)
) WITHOUT ROWID;

INSERT INTO coupons (code, type, value, currency, valid_until, signup_only, created_at) VALUES
  ('WELCOME50', 'COINS', 50, 'EUR', 4102444800, 1, 1767225600),
  ('BONUS10', 'EURO', 10, 'EUR', 4102444800, 0, 1767225600),
  ('HALFPRICE', 'PERCENT', 50, 'EUR', 4102444800, 0, 1767225600),
  ('EXPIRED1', 'COINS', 100, 'EUR', 1700000000, 0, 1700000000);
