-- Geo-blocking (issue 30 point 3, docs/geo-blocking.md "Notices"): the member's last known place,
-- as the geo middleware derives it (request.cf country and region; the development override where
-- allowed), recorded at each login, push subscribe and push renew from a known place. A favourite
-- going online is neither pushed nor mailed to a member whose last place that show is hidden from.
-- NULL: no known place yet (nothing is held back).
ALTER TABLE users ADD COLUMN geo_country TEXT CHECK (geo_country IS NULL OR length(geo_country) = 2);
ALTER TABLE users ADD COLUMN geo_region TEXT CHECK (geo_region IS NULL OR length(geo_region) BETWEEN 4 AND 6);
-- When the place was recorded (seconds).
ALTER TABLE users ADD COLUMN geo_at INTEGER;
