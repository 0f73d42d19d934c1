-- Live lobby sockets held open: one row per socket, so the caps per session and per client
-- address (src/shared/constants.ts) are reserved by one conditional INSERT. A shard deletes the
-- row when its socket closes and renews the rows of its open sockets; a row of a socket that
-- died without a close event expires (expires_at) instead of holding its slot forever.
CREATE TABLE realtime_sockets (
  id TEXT PRIMARY KEY,
  session_id TEXT,
  address TEXT NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX realtime_sockets_session ON realtime_sockets (session_id, expires_at);
CREATE INDEX realtime_sockets_address ON realtime_sockets (address, expires_at);
CREATE INDEX realtime_sockets_expiry ON realtime_sockets (expires_at);
