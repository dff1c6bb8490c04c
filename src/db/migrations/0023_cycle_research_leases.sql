-- Cycles and research runs whose process died (docs/engine/cycles.md).

-- A cycle's record is no longer a projection of CycleStarted / CycleFinished (an unchanged cycle appends only one
-- CompetitorChecked per competitor): the cycle writes its row itself, with its holder (the instance running it)
-- and a heartbeat `expires_at` it moves on while it runs. A row whose heartbeat expired before it finished was
-- abandoned (its process died): `abandoned_at` is set by the next cycle of the workspace or the scheduler.
ALTER TABLE cycles ADD COLUMN holder TEXT;
ALTER TABLE cycles ADD COLUMN expires_at TEXT;
ALTER TABLE cycles ADD COLUMN abandoned_at TEXT;
CREATE INDEX cycles_open ON cycles (org_id) WHERE finished_at IS NULL AND abandoned_at IS NULL;

-- Who runs a research run now: the instance (host:pid:random) and the heartbeat it renews while the run goes on.
-- Recovery marks failed only running runs with no lease or an expired one, so an instance starting on a shared
-- database (sqld) leaves alone the research another live instance runs. Not a projection of the log.
CREATE TABLE research_leases (
  run_id INTEGER PRIMARY KEY,
  holder TEXT NOT NULL,
  expires_at TEXT NOT NULL
);
