-- Turns at a host shared by every instance on one libSQL server (src/engine/fetch/hostTurns.ts): one row per
-- host, the time (milliseconds since the epoch) its next request may start. Each request takes its turn in one
-- statement, so instances together ask a host no more often than its pause, as one instance does alone.
CREATE TABLE host_turns (
  host TEXT PRIMARY KEY,
  next_at INTEGER NOT NULL
) WITHOUT ROWID;
