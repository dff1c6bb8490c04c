-- Monitoring cycles (docs/engine/cycles.md).

-- One monitoring cycle of one workspace: a projection of CycleStarted / CycleFinished (org stream).
CREATE TABLE cycles (
  id INTEGER PRIMARY KEY,
  org_id INTEGER NOT NULL,
  trigger TEXT NOT NULL,          -- 'schedule' | 'operator' | 'app' | …
  slot TEXT,                      -- the scheduler's due slot (ISO start), when the scheduler ran it
  competitor_id INTEGER,          -- a cycle of one competitor (`rivals cycle --competitor`)
  started_at TEXT NOT NULL,
  finished_at TEXT,
  summary TEXT                    -- the CycleFinished summary (JSON)
);
CREATE INDEX cycles_by_org ON cycles (org_id, id);

-- The scheduler's lease: one row per (workspace, due slot), claimed atomically by one instance (INSERT … ON
-- CONFLICT DO UPDATE … WHERE the lease expired and the cycle has not finished). The holder renews
-- `expires_at` while its cycle runs; a crashed holder's lease expires and another instance takes it over.
-- Not a projection of the log: operational state of the instances sharing one database.
CREATE TABLE cycle_leases (
  org_id INTEGER NOT NULL,
  slot TEXT NOT NULL,
  holder TEXT NOT NULL,
  claimed_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  finished_at TEXT,
  cycle_id INTEGER,
  takeovers INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (org_id, slot)
);
CREATE INDEX cycle_leases_by_time ON cycle_leases (claimed_at);

-- When a source's current run of failed checks began (set when `failures` goes from 0 to 1).
ALTER TABLE snapshot_sources ADD COLUMN failing_since TEXT;
