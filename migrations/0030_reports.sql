-- Issue 29 point 3: reports of content (EU DSA art. 16, notice and action). Anyone may report a
-- show, a chat line, a message of their own conversation, a video or a gallery's pictures; the
-- reporter is told it was received and, when an address is known, the outcome.
--
-- reporter_key: 'u:<user id>' for a member, 's:<session id>' for a visitor; one open report per
-- reporter and target (reports_one_open), so a second click or a parallel request is refused.
-- The snapshot keeps what was reported as it was (a chat line leaves the room's history, a
-- message or an item may be deleted): JSON {nick?, text?, title?}. accused_user_id: the account
-- behind the content when it is known (the performer of a show or item, a chat line's sender).
CREATE TABLE reports (
  id INTEGER PRIMARY KEY,
  reporter_user_id INTEGER REFERENCES users (id),
  reporter_key TEXT NOT NULL,
  reporter_email TEXT,
  locale TEXT NOT NULL DEFAULT 'en',
  target_kind TEXT NOT NULL CHECK (target_kind IN ('show', 'chat_line', 'message', 'video', 'picture')),
  target_id TEXT NOT NULL,
  show_id INTEGER,
  accused_user_id INTEGER,
  category TEXT NOT NULL,
  text TEXT NOT NULL,
  snapshot TEXT NOT NULL DEFAULT '{}',
  created_at INTEGER NOT NULL,
  state TEXT NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'resolved')),
  resolved_at INTEGER,
  resolved_by INTEGER REFERENCES users (id),
  outcome TEXT CHECK (outcome IN ('no_action', 'removed', 'restricted')),
  outcome_text TEXT,
  CHECK ((state = 'resolved') = (outcome IS NOT NULL))
);
CREATE UNIQUE INDEX reports_one_open ON reports (reporter_key, target_kind, target_id) WHERE state = 'open';
CREATE INDEX reports_queue ON reports (state, created_at, id);
