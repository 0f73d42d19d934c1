-- Issue 28: a show's stream key for broadcasting from OBS over WHIP (POST /whip/{show} with
-- `Authorization: Bearer <key>`). Only the key's SHA-256 is kept; the studio shows the key once,
-- when it is made. A new key replaces the row, so the old one stops working at once.
CREATE TABLE stream_keys (
  show_id INTEGER PRIMARY KEY REFERENCES shows(id) ON DELETE CASCADE,
  key_hash TEXT NOT NULL UNIQUE,
  created_at INTEGER NOT NULL
);
