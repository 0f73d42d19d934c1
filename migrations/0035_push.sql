-- Web Push subscriptions (issue 30 point 5): one row per browser (endpoint) that a member opted
-- in from, with the kinds of notices it wants. A push service answering 404/410 deletes the row.
CREATE TABLE push_subscriptions (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  endpoint TEXT NOT NULL UNIQUE,
  p256dh TEXT NOT NULL,
  auth TEXT NOT NULL,
  favorite_online INTEGER NOT NULL DEFAULT 1 CHECK (favorite_online IN (0, 1)),
  message INTEGER NOT NULL DEFAULT 1 CHECK (message IN (0, 1)),
  created_at INTEGER NOT NULL
);
CREATE INDEX push_subscriptions_user ON push_subscriptions (user_id);
