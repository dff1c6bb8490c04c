-- Atom feeds of a workspace's signals at secret URLs (docs/feeds.md); only the token's SHA-256 is stored.
CREATE TABLE feeds (
  id INTEGER PRIMARY KEY,
  org_id INTEGER NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,
  competitor_id INTEGER,            -- one competitor's signals; NULL: the whole workspace's
  created_by TEXT NOT NULL,
  created_at TEXT NOT NULL,
  revoked_at TEXT
);
CREATE INDEX feeds_by_org ON feeds (org_id, id);
