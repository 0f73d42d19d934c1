-- Issue 29 point 3: an appeal against the removal (or the refusal) of an upload. The item's
-- performer appeals with a text; an operator upholds the decision or reinstates the item (it is
-- approved again), with an answer the performer is mailed. One open appeal per item.
CREATE TABLE content_appeals (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('video', 'gallery')),
  item_id INTEGER NOT NULL,
  show_id INTEGER NOT NULL REFERENCES shows (id),
  user_id INTEGER NOT NULL REFERENCES users (id),
  decision_reason TEXT NOT NULL,        -- the reasons appealed against, as they were
  text TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  decided_at INTEGER,
  decided_by INTEGER REFERENCES users (id),
  outcome TEXT CHECK (outcome IN ('upheld', 'reinstated')),
  answer TEXT,
  CHECK ((decided_at IS NULL) = (outcome IS NULL))
);
CREATE UNIQUE INDEX content_appeals_one_open ON content_appeals (kind, item_id) WHERE decided_at IS NULL;
CREATE INDEX content_appeals_queue ON content_appeals (decided_at, id);
CREATE INDEX content_appeals_item ON content_appeals (kind, item_id);
CREATE INDEX content_appeals_show ON content_appeals (show_id);
