-- Settings of the installation that every process on the database reads (src/engine/linkBase.ts): `base_url`,
-- the address `rivals serve` answers at, recorded when it starts, so links a shell command writes (a cycle's
-- emails and chat messages, webhooks) point where the service is. Operational, not event-sourced.
CREATE TABLE instance_settings (
  name TEXT PRIMARY KEY,
  value TEXT NOT NULL,
  updated_at TEXT NOT NULL
) WITHOUT ROWID;
