-- Moderation before publishing (issue 29 point 2): an upload whose files are complete waits for an
-- operator's review; only 'approved' items are listed, searched, sold or shown to members. Columns
-- on the item tables (the store's every query already reads them); everything there so far (the
-- seeded demo items and earlier uploads) counts as approved.
ALTER TABLE videos ADD COLUMN review TEXT NOT NULL DEFAULT 'approved' CHECK (review IN ('pending', 'approved', 'rejected'));
ALTER TABLE galleries ADD COLUMN review TEXT NOT NULL DEFAULT 'approved' CHECK (review IN ('pending', 'approved', 'rejected'));
-- The statement of reasons the performer sees for a rejection; who decided and when.
ALTER TABLE videos ADD COLUMN review_reason TEXT;
ALTER TABLE galleries ADD COLUMN review_reason TEXT;
ALTER TABLE videos ADD COLUMN reviewed_by INTEGER REFERENCES users (id);
ALTER TABLE galleries ADD COLUMN reviewed_by INTEGER REFERENCES users (id);
ALTER TABLE videos ADD COLUMN reviewed_at INTEGER;
ALTER TABLE galleries ADD COLUMN reviewed_at INTEGER;
-- The operators' queue: complete uploads waiting, oldest first.
CREATE INDEX videos_review_queue ON videos (created_at) WHERE review = 'pending' AND status = 'published';
CREATE INDEX galleries_review_queue ON galleries (created_at) WHERE review = 'pending' AND status = 'published';

-- Live shows stopped by an operator (issue 29 point 2): the reason the performer's studio shows
-- until the show goes online again; every stop is in the audit trail too.
CREATE TABLE show_stops (
  id INTEGER PRIMARY KEY,
  show_id INTEGER NOT NULL REFERENCES shows (id),
  reason TEXT NOT NULL,
  stopped_by INTEGER NOT NULL REFERENCES users (id),
  at INTEGER NOT NULL
);
CREATE INDEX show_stops_show ON show_stops (show_id, at);
