-- Issue 29 point 4: bans (until lifted) and suspensions (for some days) of an account, each with
-- its statement of reasons, and the account's appeals against them.
--
-- A restriction is active while lifted_at is NULL and ends_at is NULL (a ban) or in the future.
-- An active restriction refuses every login and makes an auth token worthless (the visitor query
-- and the socket check read it). At most one is active per account: the INSERT is conditional
-- (restrictions.repo.ts), which D1 runs as one statement, so parallel requests create one.
-- statement_hash: SHA-256 of the token of the link mailed to the account (it can no longer log in
-- to read its statement and appeal).
CREATE TABLE restrictions (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users (id),
  kind TEXT NOT NULL CHECK (kind IN ('suspension', 'ban')),
  reason_category TEXT NOT NULL,
  reason TEXT NOT NULL,
  created_by INTEGER NOT NULL REFERENCES users (id),
  created_at INTEGER NOT NULL,
  ends_at INTEGER,
  lifted_at INTEGER,
  lifted_by INTEGER REFERENCES users (id),
  lift_reason TEXT,
  statement_hash TEXT NOT NULL UNIQUE,
  CHECK ((kind = 'ban') = (ends_at IS NULL))
);
CREATE INDEX restrictions_user ON restrictions (user_id, lifted_at, ends_at);

-- An appeal is open until decided (outcome and the answer mailed to the account); one open
-- appeal per restriction.
CREATE TABLE appeals (
  id INTEGER PRIMARY KEY,
  restriction_id INTEGER NOT NULL REFERENCES restrictions (id),
  user_id INTEGER NOT NULL REFERENCES users (id),
  text TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  decided_at INTEGER,
  decided_by INTEGER REFERENCES users (id),
  outcome TEXT CHECK (outcome IN ('upheld', 'lifted')),
  answer TEXT,
  CHECK ((decided_at IS NULL) = (outcome IS NULL))
);
CREATE UNIQUE INDEX appeals_one_open ON appeals (restriction_id) WHERE decided_at IS NULL;
CREATE INDEX appeals_queue ON appeals (decided_at, id);
