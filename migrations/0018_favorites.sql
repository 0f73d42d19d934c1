-- Issue 14: favourites that notify, and the member's history of visited shows.

-- A member's favourite show with its notification window. info_type NULL: notifications off;
-- 'daily': all day (info_start = info_end = 0, midnight for both); 'timespan': from info_start to
-- info_end, minutes of the day in UTC (multiples of 15; a window may wrap past midnight).
CREATE TABLE favorites (
  user_id INTEGER NOT NULL REFERENCES users (id),
  show_id INTEGER NOT NULL REFERENCES shows (id),
  info_type TEXT CHECK (info_type IN ('daily', 'timespan')),
  info_start INTEGER CHECK (info_start BETWEEN 0 AND 1425 AND info_start % 15 = 0),
  info_end INTEGER CHECK (info_end BETWEEN 0 AND 1425 AND info_end % 15 = 0),
  created_at INTEGER NOT NULL,
  PRIMARY KEY (user_id, show_id)
) WITHOUT ROWID;
-- Who to tell when a show goes online.
CREATE INDEX favorites_show ON favorites (show_id) WHERE info_type IS NOT NULL;

-- One row per member, show and notification window (window_day: the UTC day number the window
-- opened on; window_start: its first minute): the INSERT that wins is the one notice sent, so a
-- burst of "online" events tells the member once.
CREATE TABLE favorite_notices (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users (id),
  show_id INTEGER NOT NULL REFERENCES shows (id),
  window_day INTEGER NOT NULL,
  window_start INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  UNIQUE (user_id, show_id, window_day, window_start)
);

-- Shows a member opened, newest first by seq (at most HISTORY_MAX per member, trimmed in the
-- same batch as the insert).
CREATE TABLE user_history (
  user_id INTEGER NOT NULL REFERENCES users (id),
  show_id INTEGER NOT NULL REFERENCES shows (id),
  seq INTEGER NOT NULL,
  visited_at INTEGER NOT NULL,
  PRIMARY KEY (user_id, show_id)
) WITHOUT ROWID;
CREATE INDEX user_history_order ON user_history (user_id, seq DESC);
