-- Who counts in a contest round (issue 24): one row per member and round, written with their first
-- vote in it and holding the client address it came from. A round takes at most a few members per
-- address (contest.repo.ts, reserved in the INSERT itself), so a pile of throwaway sign-ups from
-- one place cannot outvote real members; a member who moves on keeps the place of their first vote.
CREATE TABLE contest_voters (
  contest_id INTEGER NOT NULL REFERENCES contests (id),
  user_id INTEGER NOT NULL REFERENCES users (id),
  address TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (contest_id, user_id)
) WITHOUT ROWID;
CREATE INDEX contest_voters_address ON contest_voters (contest_id, address);
