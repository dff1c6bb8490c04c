-- The competitor's logo: the icon its site shows, as research read it (engine/research/icon.ts). Kept beside
-- the snapshots, outside the event log (bytes, re-read at every research).
CREATE TABLE competitor_icons (
  org_id INTEGER NOT NULL,
  competitor_id INTEGER NOT NULL,
  content_type TEXT NOT NULL,
  data BLOB NOT NULL,
  source_url TEXT NOT NULL,
  fetched_at TEXT NOT NULL,
  PRIMARY KEY (org_id, competitor_id)
);
