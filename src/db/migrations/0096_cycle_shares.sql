-- A scheduled cycle's competitors shared by the instances on one database (src/engine/schedule/shares.ts): the
-- instance that leads the cycle offers one row per competitor; any instance claims a few at a time (holder,
-- expires_at, renewed while it checks them), records the competitor's result and marks it done. A claim whose
-- holder died expires and is claimed again; the lead sums the results once every row is done, then deletes them.
-- Operational state of the instances, not a projection of the log.
CREATE TABLE cycle_shares (
  cycle_id INTEGER NOT NULL,
  competitor_id INTEGER NOT NULL,
  org_id INTEGER NOT NULL,
  position INTEGER NOT NULL,
  holder TEXT,
  expires_at TEXT,
  claims INTEGER NOT NULL DEFAULT 0,
  done_at TEXT,
  result TEXT,
  PRIMARY KEY (cycle_id, competitor_id)
) WITHOUT ROWID;
CREATE INDEX cycle_shares_open ON cycle_shares (cycle_id, position) WHERE done_at IS NULL;
