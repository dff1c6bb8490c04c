-- The engine's snapshot store (docs/engine/compare.md), outside the event log. A blob is the compressed,
-- normalised content of one source at one time, keyed by the SHA-256 of its serialisation, so identical
-- content is stored once. A source is one URL the engine reads for one competitor of one workspace; its
-- versions are rows of snapshot_versions (the last RIVALS_SNAPSHOTS_KEPT are kept). An unchanged check only
-- moves the source's last_checked_at.
CREATE TABLE snapshot_blobs (
  hash TEXT PRIMARY KEY,
  codec TEXT NOT NULL,
  size INTEGER NOT NULL,
  data BLOB NOT NULL
) WITHOUT ROWID;

CREATE TABLE snapshot_sources (
  id INTEGER PRIMARY KEY,
  org_id INTEGER NOT NULL,
  competitor_id INTEGER NOT NULL,
  source_key TEXT NOT NULL,
  url TEXT NOT NULL,
  kind TEXT NOT NULL,
  etag TEXT,
  last_modified TEXT,
  first_seen_at TEXT NOT NULL,
  last_checked_at TEXT NOT NULL,
  last_changed_at TEXT,
  latest_hash TEXT,
  failures INTEGER NOT NULL DEFAULT 0,
  last_error TEXT,
  last_error_at TEXT,
  UNIQUE (org_id, competitor_id, source_key)
);

CREATE TABLE snapshot_versions (
  id INTEGER PRIMARY KEY,
  org_id INTEGER NOT NULL,
  source_id INTEGER NOT NULL,
  hash TEXT NOT NULL,
  observed_at TEXT NOT NULL,
  status INTEGER,
  final_url TEXT
);
CREATE INDEX snapshot_versions_by_source ON snapshot_versions (org_id, source_id, id);
CREATE INDEX snapshot_versions_by_hash ON snapshot_versions (hash);
