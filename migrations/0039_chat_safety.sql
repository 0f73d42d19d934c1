-- Chat safety (issue 30 point 4, docs/live-rooms.md "Chat safety"): each show's word list (lines
-- containing one are held back by the live room) and the moderators its performer appointed among
-- the show's regulars. Mutes are not here: the room keeps them in its own storage.
CREATE TABLE chat_blocked_words (
  show_id INTEGER NOT NULL REFERENCES shows (id),
  -- folded (NFKC, lower case), as the room compares it
  word TEXT NOT NULL CHECK (length(word) BETWEEN 1 AND 40),
  PRIMARY KEY (show_id, word)
);

CREATE TABLE show_moderators (
  show_id INTEGER NOT NULL REFERENCES shows (id),
  user_id INTEGER NOT NULL REFERENCES users (id),
  created_at INTEGER NOT NULL,
  PRIMARY KEY (show_id, user_id)
);
CREATE INDEX show_moderators_user ON show_moderators (user_id);
