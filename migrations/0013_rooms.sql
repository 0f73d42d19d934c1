-- Live rooms (issue 11): performers, the studio's switches on the show row, chat sessions with
-- their billing record, bans per show, the free-chat allowance per visitor and day.

-- A performer is a member account linked to one show (one performer per show).
CREATE TABLE performers (
  user_id INTEGER PRIMARY KEY REFERENCES users (id),
  show_id INTEGER NOT NULL UNIQUE REFERENCES shows (id),
  created_at INTEGER NOT NULL
);

-- The studio's switches: paused, and which session types are open.
ALTER TABLE shows ADD COLUMN paused INTEGER NOT NULL DEFAULT 0;
ALTER TABLE shows ADD COLUMN open_free INTEGER NOT NULL DEFAULT 1;
ALTER TABLE shows ADD COLUMN open_private INTEGER NOT NULL DEFAULT 1;
ALTER TABLE shows ADD COLUMN open_exclusive INTEGER NOT NULL DEFAULT 1;
ALTER TABLE shows ADD COLUMN open_voyeur INTEGER NOT NULL DEFAULT 1;
-- Chat ratings counted into shows.rating (running mean; the seeded rating counts until the first).
ALTER TABLE shows ADD COLUMN rating_count INTEGER NOT NULL DEFAULT 0;

-- One row per chat session; times in unix ms. minutes/coins are what the ledger charged
-- (updated in the same batch as each chat:{id}:{minute} ledger row).
CREATE TABLE chat_sessions (
  id TEXT PRIMARY KEY,
  show_id INTEGER NOT NULL REFERENCES shows (id),
  user_id INTEGER REFERENCES users (id),
  -- the browser session (lc_sid) that created it: guests are known only by it
  visitor TEXT NOT NULL,
  nick TEXT NOT NULL,
  type TEXT NOT NULL CHECK (type IN ('free', 'voyeur', 'private', 'exclusive')),
  state TEXT NOT NULL CHECK (state IN ('pending', 'active', 'ended')),
  price INTEGER NOT NULL CHECK (price >= 0),
  created_at INTEGER NOT NULL,
  started_at INTEGER,
  ended_at INTEGER,
  end_reason TEXT,
  minutes INTEGER NOT NULL DEFAULT 0,
  coins INTEGER NOT NULL DEFAULT 0,
  tips INTEGER NOT NULL DEFAULT 0,
  rating INTEGER CHECK (rating BETWEEN 1 AND 100),
  rating_comment TEXT,
  rated_at INTEGER
);
CREATE INDEX chat_sessions_user ON chat_sessions (user_id, created_at);
CREATE INDEX chat_sessions_show ON chat_sessions (show_id, state);
-- At most one private or exclusive session (pending or running) per show: a burst of requests
-- cannot start two, whatever order they arrive in.
CREATE UNIQUE INDEX chat_sessions_one_private ON chat_sessions (show_id)
  WHERE type IN ('private', 'exclusive') AND state <> 'ended';

-- Banned from a show's room: who is 'u:{userId}' for members, 'v:{browser session}' for guests.
CREATE TABLE chat_bans (
  show_id INTEGER NOT NULL REFERENCES shows (id),
  who TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (show_id, who)
) WITHOUT ROWID;

-- Free-chat minutes used per visitor ('u:{userId}' or 'v:{browser session}') and UTC day,
-- reserved one minute at a time by a conditional UPSERT.
CREATE TABLE free_chat_usage (
  who TEXT NOT NULL,
  day INTEGER NOT NULL,
  minutes INTEGER NOT NULL,
  PRIMARY KEY (who, day)
) WITHOUT ROWID;
