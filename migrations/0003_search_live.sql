-- Full-text search over shows, videos and galleries (FTS5), promos, and the live lobby's
-- sequence of show status changes.
CREATE VIRTUAL TABLE shows_fts USING fts5 (
  name, city, slogan_en, slogan_de, description_en, description_de, tags,
  tokenize = 'unicode61 remove_diacritics 2'
);

CREATE VIRTUAL TABLE videos_fts USING fts5 (title_en, title_de, show_name, tokenize = 'unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE galleries_fts USING fts5 (title_en, title_de, show_name, tokenize = 'unicode61 remove_diacritics 2');

-- Kept in step with the content tables; rowid = the content row's id.
CREATE TRIGGER shows_fts_insert AFTER INSERT ON shows BEGIN
  INSERT INTO shows_fts (rowid, name, city, slogan_en, slogan_de, description_en, description_de, tags)
  VALUES (new.id, new.name, new.city, new.slogan_en, new.slogan_de, new.description_en, new.description_de, '');
END;
CREATE TRIGGER shows_fts_update AFTER UPDATE OF name, city, slogan_en, slogan_de, description_en, description_de ON shows BEGIN
  UPDATE shows_fts SET name = new.name, city = new.city, slogan_en = new.slogan_en, slogan_de = new.slogan_de,
    description_en = new.description_en, description_de = new.description_de WHERE rowid = new.id;
END;
CREATE TRIGGER show_tags_fts AFTER INSERT ON show_tags BEGIN
  UPDATE shows_fts SET tags = (
    SELECT group_concat(t.slug || ' ' || t.name_en || ' ' || t.name_de, ' ') FROM show_tags st JOIN tags t ON t.id = st.tag_id WHERE st.show_id = new.show_id
  ) WHERE rowid = new.show_id;
END;
CREATE TRIGGER videos_fts_insert AFTER INSERT ON videos BEGIN
  INSERT INTO videos_fts (rowid, title_en, title_de, show_name) VALUES (new.id, new.title_en, new.title_de, (SELECT name FROM shows WHERE id = new.show_id));
END;
CREATE TRIGGER galleries_fts_insert AFTER INSERT ON galleries BEGIN
  INSERT INTO galleries_fts (rowid, title_en, title_de, show_name) VALUES (new.id, new.title_en, new.title_de, (SELECT name FROM shows WHERE id = new.show_id));
END;

-- Rows that existed before this migration (seeded databases).
INSERT INTO shows_fts (rowid, name, city, slogan_en, slogan_de, description_en, description_de, tags)
  SELECT s.id, s.name, s.city, s.slogan_en, s.slogan_de, s.description_en, s.description_de,
    COALESCE((SELECT group_concat(t.slug || ' ' || t.name_en || ' ' || t.name_de, ' ') FROM show_tags st JOIN tags t ON t.id = st.tag_id WHERE st.show_id = s.id), '')
  FROM shows s;
INSERT INTO videos_fts (rowid, title_en, title_de, show_name) SELECT v.id, v.title_en, v.title_de, s.name FROM videos v JOIN shows s ON s.id = v.show_id;
INSERT INTO galleries_fts (rowid, title_en, title_de, show_name) SELECT g.id, g.title_en, g.title_de, s.name FROM galleries g JOIN shows s ON s.id = g.show_id;

CREATE INDEX shows_location ON shows (lat, lon);
CREATE INDEX show_tags_tag ON show_tags (tag_id, show_id);

CREATE TABLE promos (
  id INTEGER PRIMARY KEY,
  show_id INTEGER NOT NULL REFERENCES shows (id),
  title_en TEXT NOT NULL,
  title_de TEXT NOT NULL,
  start_at INTEGER NOT NULL,
  stop_at INTEGER NOT NULL
);
CREATE INDEX promos_stop ON promos (stop_at);
