-- The video and gallery store (issue 13): media files on R2, purchases, ratings and views.

-- Each part of a video: the whole file and its short free preview, both objects in the MEDIA
-- bucket (keys, never URLs: the worker streams them after checking the purchase).
CREATE TABLE video_parts (
  video_id INTEGER NOT NULL REFERENCES videos (id),
  part INTEGER NOT NULL CHECK (part >= 1),
  media_key TEXT NOT NULL,
  preview_key TEXT NOT NULL,
  mime TEXT NOT NULL CHECK (mime IN ('video/webm', 'video/mp4')),
  duration_s INTEGER NOT NULL CHECK (duration_s > 0),
  size INTEGER NOT NULL CHECK (size > 0),
  PRIMARY KEY (video_id, part)
) WITHOUT ROWID;

-- A poster uploaded with the video (R2 key); NULL: the generated art of /img/video/{id}.svg.
ALTER TABLE videos ADD COLUMN poster_key TEXT;
ALTER TABLE videos ADD COLUMN views INTEGER NOT NULL DEFAULT 0;
-- The seeded rating counts as this many votes when members rate (see store.repo.ts).
ALTER TABLE videos ADD COLUMN rating_votes INTEGER NOT NULL DEFAULT 0;
ALTER TABLE galleries ADD COLUMN rating_votes INTEGER NOT NULL DEFAULT 0;
-- 'published' is listed in the store; an upload is 'pending' until its files are complete.
ALTER TABLE videos ADD COLUMN status TEXT NOT NULL DEFAULT 'published' CHECK (status IN ('pending', 'published'));
ALTER TABLE galleries ADD COLUMN status TEXT NOT NULL DEFAULT 'published' CHECK (status IN ('pending', 'published'));

-- Tags of a video (the spec's "a video part shows 4 tags before collapsing"; search/videos?tags=).
CREATE TABLE video_tags (
  video_id INTEGER NOT NULL REFERENCES videos (id),
  tag_id INTEGER NOT NULL REFERENCES tags (id),
  PRIMARY KEY (video_id, tag_id)
) WITHOUT ROWID;
CREATE INDEX video_tags_tag ON video_tags (tag_id);

-- The pictures of a gallery in two sizes (R2 keys).
CREATE TABLE gallery_pictures (
  gallery_id INTEGER NOT NULL REFERENCES galleries (id),
  idx INTEGER NOT NULL CHECK (idx >= 1),
  full_key TEXT NOT NULL,
  thumb_key TEXT NOT NULL,
  mime TEXT NOT NULL,
  width INTEGER NOT NULL,
  height INTEGER NOT NULL,
  PRIMARY KEY (gallery_id, idx)
) WITHOUT ROWID;

-- What a member owns: one row per member and item, written in the same batch as the ledger
-- transfer (coins) or the prize's use (coupon_code). A purchase covers every part of a video.
CREATE TABLE purchases (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users (id),
  kind TEXT NOT NULL CHECK (kind IN ('video', 'gallery')),
  item_id INTEGER NOT NULL,
  show_id INTEGER NOT NULL REFERENCES shows (id),
  coins INTEGER NOT NULL CHECK (coins >= 0),
  coupon_code TEXT,
  created_at INTEGER NOT NULL,
  UNIQUE (user_id, kind, item_id)
);
CREATE INDEX purchases_user ON purchases (user_id, kind, created_at DESC);

-- One rating per member and item (1-5 stars); rating again replaces it.
CREATE TABLE media_ratings (
  user_id INTEGER NOT NULL REFERENCES users (id),
  kind TEXT NOT NULL CHECK (kind IN ('video', 'gallery')),
  item_id INTEGER NOT NULL,
  stars INTEGER NOT NULL CHECK (stars BETWEEN 1 AND 5),
  created_at INTEGER NOT NULL,
  PRIMARY KEY (user_id, kind, item_id)
) WITHOUT ROWID;

-- A view counts once per member (or visitor id) and UTC day.
CREATE TABLE video_views (
  video_id INTEGER NOT NULL REFERENCES videos (id),
  viewer TEXT NOT NULL,
  day INTEGER NOT NULL,
  PRIMARY KEY (video_id, viewer, day)
) WITHOUT ROWID;
