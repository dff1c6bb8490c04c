-- A competitor's history from the Internet Archive (docs/engine/archive.md), outside the
-- event log like a cycle's record: the run (its lease, progress and counts), the key pages whose captures were
-- listed, and each capture to read (one per page and calendar month) with what became of it. The signals it
-- finds are events; the versions it reads are snapshot versions dated at their capture time.
CREATE TABLE archive_runs (
  org_id INTEGER NOT NULL,
  competitor_id INTEGER NOT NULL,
  state TEXT NOT NULL,
  months INTEGER NOT NULL,
  started_at TEXT NOT NULL,
  finished_at TEXT,
  holder TEXT,
  expires_at TEXT,
  PRIMARY KEY (org_id, competitor_id)
);
CREATE INDEX archive_runs_unfinished ON archive_runs (state, expires_at);

CREATE TABLE archive_pages (
  org_id INTEGER NOT NULL,
  competitor_id INTEGER NOT NULL,
  url TEXT NOT NULL,
  kind TEXT NOT NULL,
  listed_at TEXT,
  list_error TEXT,
  ended_at TEXT,
  PRIMARY KEY (org_id, competitor_id, url)
);

CREATE TABLE archive_captures (
  org_id INTEGER NOT NULL,
  competitor_id INTEGER NOT NULL,
  url TEXT NOT NULL,
  timestamp TEXT NOT NULL,
  state TEXT NOT NULL DEFAULT 'pending',
  error TEXT,
  PRIMARY KEY (org_id, competitor_id, url, timestamp)
);
CREATE INDEX archive_captures_pending ON archive_captures (org_id, competitor_id, state, timestamp);

-- The signals history opened, and when it found them (what_changed reports them by that time, once).
CREATE TABLE archive_signals (
  org_id INTEGER NOT NULL,
  competitor_id INTEGER NOT NULL,
  signal_id INTEGER NOT NULL,
  found_at TEXT NOT NULL,
  PRIMARY KEY (org_id, signal_id)
);
CREATE INDEX archive_signals_by_competitor ON archive_signals (org_id, competitor_id);
CREATE INDEX archive_signals_found ON archive_signals (org_id, found_at);

-- Versions read from the archive are dated in the past: a source's versions are ordered by when they were
-- observed (the archive's capture time, or the check's), and `capture` marks those that came from the archive.
ALTER TABLE snapshot_versions ADD COLUMN capture TEXT;
CREATE INDEX snapshot_versions_by_time ON snapshot_versions (org_id, source_id, observed_at, id);
