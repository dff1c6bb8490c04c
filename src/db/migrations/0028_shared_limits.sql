-- Limits shared by every instance on one database server (src/http/rateLeases.ts, src/auth/throttle.ts).
-- Operational, not projections: nothing here is rebuilt from the log.

-- A limiter's window in slices (a tenth of the window each): what the instances together have taken of a key's
-- budget in each slice. An instance takes a block of the budget at a time and spends it from memory.
CREATE TABLE rate_slices (
  name TEXT NOT NULL,
  key TEXT NOT NULL,
  slice INTEGER NOT NULL,
  taken INTEGER NOT NULL,
  -- The block the last lease of this slice granted (read back in the lease's own batch).
  granted INTEGER NOT NULL,
  PRIMARY KEY (name, key, slice)
) WITHOUT ROWID;
-- Old slices are dropped by range.
CREATE INDEX rate_slices_age ON rate_slices (name, slice);

-- Failed password checks per account and per client address (sign-in's slow-down).
CREATE TABLE signin_failures (
  scope TEXT NOT NULL,
  key TEXT NOT NULL,
  failures INTEGER NOT NULL,
  last_failure INTEGER NOT NULL,
  locked_until INTEGER NOT NULL,
  PRIMARY KEY (scope, key)
) WITHOUT ROWID;
CREATE INDEX signin_failures_age ON signin_failures (last_failure);
