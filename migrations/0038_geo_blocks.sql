-- Geo-blocking (issue 30 point 3): the places a performer hides the show from. `code` is a
-- country (ISO 3166-1 alpha-2, e.g. DE) or a region (ISO 3166-2, e.g. US-CA); the codes the
-- studio may set are checked by the route (src/shared/geo.ts). A visitor whose country or region
-- is listed does not see the show anywhere (lists, search, its page, its store items, live status).
CREATE TABLE show_geo_blocks (
  show_id INTEGER NOT NULL REFERENCES shows(id) ON DELETE CASCADE,
  code TEXT NOT NULL CHECK (length(code) BETWEEN 2 AND 6),
  PRIMARY KEY (show_id, code)
) WITHOUT ROWID;
-- "Which shows does this place not see": looked up by code on every list.
CREATE INDEX show_geo_blocks_code ON show_geo_blocks (code, show_id);
