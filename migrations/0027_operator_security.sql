-- Issue 29 point 7: operators log in with a second factor, and every operator action is recorded.
--
-- A login (auth token) becomes an operator's only after a correct TOTP code (RFC 6238) given in
-- it: second_factor_at is set then, and a new login starts without it.
ALTER TABLE auth_tokens ADD COLUMN second_factor_at INTEGER;

-- One authenticator per operator. The secret is sealed (AES-GCM, a key derived from the session
-- secret): a copy of the database alone does not give the codes. confirmed_at: set by the first
-- correct code; until then the enrolment can be made again (its secret shown again), after it
-- never. last_step: the last 30 s step accepted (a code is good once).
CREATE TABLE operator_totp (
  user_id INTEGER PRIMARY KEY REFERENCES users (id),
  sealed_secret TEXT NOT NULL,
  confirmed_at INTEGER,
  last_step INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL
);

-- Append-only: who (an operator's user id and name, or 'ops-token' for the deploy's bearer
-- token), what, on what, why, when (unix seconds); detail is JSON. No row is ever changed or
-- removed (the triggers refuse it).
CREATE TABLE audit_log (
  id INTEGER PRIMARY KEY,
  at INTEGER NOT NULL,
  actor_id INTEGER,
  actor TEXT NOT NULL,
  action TEXT NOT NULL,
  target TEXT,
  reason TEXT,
  detail TEXT
);
CREATE INDEX audit_log_actor ON audit_log (actor_id, id);
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
