-- Issue 9, points 16 and 17: the daily game, free videos, a city name per locale, and the
-- welcome dialog remembered per member.

-- A show's city in English beside the German name in `city` (English pages showed Köln, Mailand).
ALTER TABLE shows ADD COLUMN city_en TEXT;
UPDATE shows SET city_en = CASE city
    WHEN 'Berlin' THEN 'Berlin'
    WHEN 'Hamburg' THEN 'Hamburg'
    WHEN 'München' THEN 'Munich'
    WHEN 'Köln' THEN 'Cologne'
    WHEN 'Frankfurt am Main' THEN 'Frankfurt'
    WHEN 'Stuttgart' THEN 'Stuttgart'
    WHEN 'Düsseldorf' THEN 'Düsseldorf'
    WHEN 'Leipzig' THEN 'Leipzig'
    WHEN 'Dresden' THEN 'Dresden'
    WHEN 'Hannover' THEN 'Hanover'
    WHEN 'Nürnberg' THEN 'Nuremberg'
    WHEN 'Bremen' THEN 'Bremen'
    WHEN 'Dortmund' THEN 'Dortmund'
    WHEN 'Essen' THEN 'Essen'
    WHEN 'Münster' THEN 'Münster'
    WHEN 'Freiburg im Breisgau' THEN 'Freiburg'
    WHEN 'Heidelberg' THEN 'Heidelberg'
    WHEN 'Kiel' THEN 'Kiel'
    WHEN 'Rostock' THEN 'Rostock'
    WHEN 'Mainz' THEN 'Mainz'
    WHEN 'Augsburg' THEN 'Augsburg'
    WHEN 'Bonn' THEN 'Bonn'
    WHEN 'Potsdam' THEN 'Potsdam'
    WHEN 'Erfurt' THEN 'Erfurt'
    WHEN 'Wien' THEN 'Vienna'
    WHEN 'Graz' THEN 'Graz'
    WHEN 'Salzburg' THEN 'Salzburg'
    WHEN 'Innsbruck' THEN 'Innsbruck'
    WHEN 'Linz' THEN 'Linz'
    WHEN 'Zürich' THEN 'Zurich'
    WHEN 'Bern' THEN 'Bern'
    WHEN 'Basel' THEN 'Basel'
    WHEN 'Luzern' THEN 'Lucerne'
    WHEN 'Genf' THEN 'Geneva'
    WHEN 'Amsterdam' THEN 'Amsterdam'
    WHEN 'Warschau' THEN 'Warsaw'
    WHEN 'Krakau' THEN 'Krakow'
    WHEN 'Prag' THEN 'Prague'
    WHEN 'Paris' THEN 'Paris'
    WHEN 'Barcelona' THEN 'Barcelona'
    WHEN 'Mailand' THEN 'Milan'
    WHEN 'Kopenhagen' THEN 'Copenhagen'
    ELSE city END;

-- Searching finds a show by either name of its city.
DROP TRIGGER shows_fts_insert;
DROP TRIGGER shows_fts_update;
CREATE TRIGGER shows_fts_insert AFTER INSERT ON shows BEGIN
  INSERT INTO shows_fts (rowid, name, city, slogan_en, slogan_de, description_en, description_de, tags)
  VALUES (new.id, new.name, new.city || ' ' || COALESCE(new.city_en, ''), new.slogan_en, new.slogan_de, new.description_en, new.description_de, '');
END;
CREATE TRIGGER shows_fts_update AFTER UPDATE OF name, city, city_en, slogan_en, slogan_de, description_en, description_de ON shows BEGIN
  UPDATE shows_fts SET name = new.name, city = new.city || ' ' || COALESCE(new.city_en, ''), slogan_en = new.slogan_en, slogan_de = new.slogan_de,
    description_en = new.description_en, description_de = new.description_de WHERE rowid = new.id;
END;
UPDATE shows_fts SET city = (SELECT s.city || ' ' || COALESCE(s.city_en, '') FROM shows s WHERE s.id = shows_fts.rowid);

-- Free videos (price 0): a seeded database had none, so "Free videos" listed nothing. The same
-- rule as the demo data generator (every 20th video), only where no video is free yet.
UPDATE videos SET price = 0 WHERE id % 20 = 0 AND NOT EXISTS (SELECT 1 FROM videos WHERE price = 0);

-- The welcome dialog greets a member once, not once per session (every login made a new one).
-- Accounts that exist now have been greeted already.
ALTER TABLE users ADD COLUMN welcome_shown_at INTEGER;
UPDATE users SET welcome_shown_at = created_at;

-- The daily game: one spin per member per UTC day. The primary key is the reservation: of
-- parallel spins only one row can be inserted, and its prize is paid in the same batch.
CREATE TABLE game_spins (
  user_id INTEGER NOT NULL REFERENCES users (id),
  day TEXT NOT NULL,                  -- UTC day, yyyy-mm-dd
  segment INTEGER NOT NULL,
  coins INTEGER NOT NULL CHECK (coins > 0),
  created_at INTEGER NOT NULL,
  PRIMARY KEY (user_id, day)
) WITHOUT ROWID;
