-- robots.txt answers shared by every process and instance on the database (src/engine/fetch/robotsStore.ts):
-- one row per origin, kept for the answer's lifetime (its Cache-Control or Expires, at most a day; five minutes
-- for a file that could not be read). `outcome` is rules (text: the file), allow_all or unreachable (text: why).
CREATE TABLE robots_cache (
  origin TEXT PRIMARY KEY,
  outcome TEXT NOT NULL,
  text TEXT NOT NULL,
  fetched_at TEXT NOT NULL,
  expires_at INTEGER NOT NULL
) WITHOUT ROWID;
