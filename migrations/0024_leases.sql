-- Concurrency caps (issue 24): one row per piece of work in flight under a key (an account's
-- upload bodies, its media streams). A row is taken only while the key holds fewer than its cap
-- (count and INSERT in one statement), deleted when the work ends, and expires on its own if the
-- worker never got to delete it.
CREATE TABLE leases (
  key TEXT NOT NULL,
  id TEXT NOT NULL,
  expires_at INTEGER NOT NULL,
  PRIMARY KEY (key, id)
) WITHOUT ROWID;
CREATE INDEX leases_expiry ON leases (expires_at);
