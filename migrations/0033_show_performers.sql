-- The people appearing in a show and in its items (issue 29 point 1, 18 U.S.C. 2257). A show's
-- studio login stays the `performers` row (one per show); `show_performers` lists every person who
-- appears in the show, each with the approved application that verified them (legal name, date of
-- birth, ID document). `item_performers` names, per video or gallery, the show's people it depicts.

-- A member joins an existing show when its performer invited their account (show_invites); their
-- application names the show, and its approval adds them to the show instead of making one.
ALTER TABLE applications ADD COLUMN join_show_id INTEGER REFERENCES shows (id);
CREATE TABLE show_invites (
  show_id INTEGER NOT NULL REFERENCES shows (id),
  user_id INTEGER NOT NULL REFERENCES users (id),
  invited_by INTEGER NOT NULL REFERENCES users (id),
  created_at INTEGER NOT NULL,
  PRIMARY KEY (show_id, user_id)
);
CREATE INDEX show_invites_user ON show_invites (user_id);

CREATE TABLE show_performers (
  id INTEGER PRIMARY KEY,
  show_id INTEGER NOT NULL REFERENCES shows (id),
  application_id INTEGER NOT NULL UNIQUE REFERENCES applications (id),
  added_at INTEGER NOT NULL,
  added_by INTEGER REFERENCES users (id)  -- the operator who approved; NULL for the backfill and the demo seed
);
CREATE INDEX show_performers_show ON show_performers (show_id, id);

CREATE TABLE item_performers (
  kind TEXT NOT NULL CHECK (kind IN ('video', 'gallery')),
  item_id INTEGER NOT NULL,
  show_performer_id INTEGER NOT NULL REFERENCES show_performers (id),
  PRIMARY KEY (kind, item_id, show_performer_id)
) WITHOUT ROWID;
CREATE INDEX item_performers_person ON item_performers (show_performer_id);

-- Backfill: each approved application's show gets its applicant, and the items of those shows
-- (made before co-performers existed) depict that applicant.
INSERT INTO show_performers (show_id, application_id, added_at, added_by)
  SELECT show_id, id, decided_at, decided_by FROM applications WHERE state = 'approved' AND show_id IS NOT NULL ORDER BY id;
INSERT INTO item_performers (kind, item_id, show_performer_id)
  SELECT 'video', v.id, sp.id FROM videos v JOIN show_performers sp ON sp.show_id = v.show_id;
INSERT INTO item_performers (kind, item_id, show_performer_id)
  SELECT 'gallery', g.id, sp.id FROM galleries g JOIN show_performers sp ON sp.show_id = g.show_id;

-- Only an approved application verifies a person, and an item depicts only people of its own show.
CREATE TRIGGER show_performers_verified BEFORE INSERT ON show_performers
  WHEN NOT EXISTS (SELECT 1 FROM applications WHERE id = NEW.application_id AND state = 'approved')
  BEGIN SELECT RAISE(ABORT, 'show_performers: the application is not approved'); END;
CREATE TRIGGER item_performers_same_show BEFORE INSERT ON item_performers
  WHEN NOT EXISTS (
    SELECT 1 FROM show_performers sp WHERE sp.id = NEW.show_performer_id AND sp.show_id =
      CASE NEW.kind WHEN 'video' THEN (SELECT show_id FROM videos WHERE id = NEW.item_id) ELSE (SELECT show_id FROM galleries WHERE id = NEW.item_id) END)
  BEGIN SELECT RAISE(ABORT, 'item_performers: not a verified performer of the item''s show'); END;
