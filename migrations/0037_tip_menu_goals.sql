-- Tip menu and tip goals (issue 30 points 1 and 2). A show's menu is a list of actions with a
-- price and an English and a German text, replaced as a whole by the studio. A show has at most
-- one current goal (closed_at NULL); starting a new one closes the old. Tips add to the current
-- goal with one conditional UPDATE in the same D1 batch as the tip's ledger rows, so the count is
-- exact under parallel tips and a refused tip counts nothing (docs/live-rooms.md, "Tip menu and goals").
CREATE TABLE tip_menu_items (
  -- AUTOINCREMENT: an id is never reused, so a viewer's tip for an action the menu no longer has
  -- is refused rather than booked for the new action that took its number
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  show_id INTEGER NOT NULL REFERENCES shows(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  coins INTEGER NOT NULL CHECK (coins >= 1),
  text_en TEXT NOT NULL CHECK (length(text_en) >= 1),
  text_de TEXT NOT NULL CHECK (length(text_de) >= 1)
);
CREATE INDEX tip_menu_items_show ON tip_menu_items (show_id, position);

CREATE TABLE tip_goals (
  -- AUTOINCREMENT: a newer goal has a higher id (the room sends no older goal after a newer one)
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  show_id INTEGER NOT NULL REFERENCES shows(id) ON DELETE CASCADE,
  amount INTEGER NOT NULL CHECK (amount >= 1),
  text TEXT NOT NULL CHECK (length(text) >= 1),
  progress INTEGER NOT NULL DEFAULT 0 CHECK (progress >= 0),
  created_at INTEGER NOT NULL,
  -- unix ms; NULL: no time limit
  ends_at INTEGER,
  -- unix ms of the tip that reached the amount
  reached_at INTEGER,
  -- unix ms the performer replaced or ended it
  closed_at INTEGER
);
CREATE UNIQUE INDEX tip_goals_current ON tip_goals (show_id) WHERE closed_at IS NULL;
