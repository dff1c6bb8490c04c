-- Maintenance that one instance runs for all on its cadence (compaction): a task's claim lasts until the task is
-- due again, so of several instances on one database one runs it per period (src/db/claims.ts).
CREATE TABLE maintenance_claims (
  task TEXT PRIMARY KEY,            -- `compaction`
  holder TEXT NOT NULL,
  expires_at TEXT NOT NULL
);
