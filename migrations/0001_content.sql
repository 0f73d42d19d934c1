-- Content: categories, shows with their texts, tags, videos and galleries; members.
CREATE TABLE categories (
  id INTEGER PRIMARY KEY,
  slug TEXT NOT NULL UNIQUE,
  slug_description TEXT NOT NULL,
  name_en TEXT NOT NULL,
  name_de TEXT NOT NULL,
  is_search INTEGER NOT NULL DEFAULT 0,
  position INTEGER NOT NULL
);

CREATE TABLE shows (
  id INTEGER PRIMARY KEY,
  universal_id TEXT NOT NULL UNIQUE,
  contentprovider_id INTEGER NOT NULL DEFAULT 1,
  name TEXT NOT NULL,
  slug_name TEXT NOT NULL,
  age INTEGER NOT NULL CHECK (age >= 18),
  languages TEXT NOT NULL,            -- comma separated ISO codes, e.g. 'de,en'
  city TEXT NOT NULL,
  country TEXT NOT NULL,
  lat REAL NOT NULL,
  lon REAL NOT NULL,
  price_per_minute INTEGER NOT NULL CHECK (price_per_minute > 0),
  price_factor_exclusive INTEGER NOT NULL CHECK (price_factor_exclusive > 0),
  flag_free INTEGER NOT NULL DEFAULT 0,
  flag_exclusive INTEGER NOT NULL DEFAULT 0, -- bit 1: exclusive available, bit 2: exclusive only
  features TEXT NOT NULL DEFAULT '[]',       -- JSON array of feature keys
  rating INTEGER NOT NULL DEFAULT 0 CHECK (rating BETWEEN 0 AND 100),
  preview_count INTEGER NOT NULL DEFAULT 3,
  palette INTEGER NOT NULL DEFAULT 0,
  ribbon TEXT,
  slogan_en TEXT NOT NULL,
  slogan_de TEXT NOT NULL,
  description_en TEXT NOT NULL,
  description_de TEXT NOT NULL,
  online INTEGER NOT NULL DEFAULT 0,
  online_since INTEGER,
  sort_rank INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL
);
CREATE INDEX shows_list ON shows (online DESC, sort_rank, id);

CREATE TABLE show_categories (
  category_id INTEGER NOT NULL REFERENCES categories (id),
  show_id INTEGER NOT NULL REFERENCES shows (id),
  PRIMARY KEY (category_id, show_id)
) WITHOUT ROWID;
CREATE INDEX show_categories_show ON show_categories (show_id);

CREATE TABLE tags (
  id INTEGER PRIMARY KEY,
  slug TEXT NOT NULL UNIQUE,
  name_en TEXT NOT NULL,
  name_de TEXT NOT NULL
);

CREATE TABLE show_tags (
  tag_id INTEGER NOT NULL REFERENCES tags (id),
  show_id INTEGER NOT NULL REFERENCES shows (id),
  PRIMARY KEY (tag_id, show_id)
) WITHOUT ROWID;
CREATE INDEX show_tags_show ON show_tags (show_id);

CREATE TABLE videos (
  id INTEGER PRIMARY KEY,
  ccid TEXT NOT NULL UNIQUE,
  show_id INTEGER NOT NULL REFERENCES shows (id),
  title_en TEXT NOT NULL,
  title_de TEXT NOT NULL,
  duration_s INTEGER NOT NULL,
  parts INTEGER NOT NULL DEFAULT 1,
  price INTEGER NOT NULL,
  rating INTEGER NOT NULL DEFAULT 0,
  palette INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL
);
CREATE INDEX videos_show ON videos (show_id, created_at DESC);

CREATE TABLE galleries (
  id INTEGER PRIMARY KEY,
  show_id INTEGER NOT NULL REFERENCES shows (id),
  title_en TEXT NOT NULL,
  title_de TEXT NOT NULL,
  picture_count INTEGER NOT NULL,
  price INTEGER NOT NULL,
  rating INTEGER NOT NULL DEFAULT 0,
  palette INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL
);
CREATE INDEX galleries_show ON galleries (show_id, created_at DESC);

CREATE TABLE users (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE COLLATE NOCASE,
  email TEXT NOT NULL UNIQUE COLLATE NOCASE,
  password_hash TEXT NOT NULL,
  coins INTEGER NOT NULL DEFAULT 0 CHECK (coins >= 0),
  is_verified INTEGER NOT NULL DEFAULT 0,
  age_verified INTEGER NOT NULL DEFAULT 0,
  newsletter INTEGER NOT NULL DEFAULT 0,
  blocked INTEGER NOT NULL DEFAULT 0,
  locale TEXT NOT NULL DEFAULT 'en',
  created_at INTEGER NOT NULL
);
