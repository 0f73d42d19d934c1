-- The contest (issue 14): rounds with a period, entries that link a show, one vote per member and
-- entry. A round runs while starts_at <= now < ends_at (unix seconds); the score of an entry is
-- the sum of its votes, so a replaced vote can never be counted twice.
CREATE TABLE contests (
  id INTEGER PRIMARY KEY,
  title_en TEXT NOT NULL,
  title_de TEXT NOT NULL,
  starts_at INTEGER NOT NULL,
  ends_at INTEGER NOT NULL,
  CHECK (ends_at > starts_at)
);
CREATE INDEX contests_period ON contests (starts_at, ends_at);
CREATE INDEX contests_end ON contests (ends_at);

CREATE TABLE contest_entries (
  id INTEGER PRIMARY KEY,
  contest_id INTEGER NOT NULL REFERENCES contests (id),
  show_id INTEGER NOT NULL REFERENCES shows (id),
  UNIQUE (contest_id, show_id)
);

-- The primary key is UNIQUE(member, entry): a member's new vote on an entry replaces the earlier
-- one through an UPSERT, and parallel votes leave exactly one row.
CREATE TABLE contest_votes (
  user_id INTEGER NOT NULL REFERENCES users (id),
  entry_id INTEGER NOT NULL REFERENCES contest_entries (id),
  value INTEGER NOT NULL CHECK (value IN (1, -1)),
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (user_id, entry_id)
) WITHOUT ROWID;
CREATE INDEX contest_votes_entry ON contest_votes (entry_id, value);
