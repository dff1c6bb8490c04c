-- The event log is the source of truth; every other table is a projection of it
-- (except id_counter and api_key_usage, which are operational and say so below).
CREATE TABLE events (
  position INTEGER PRIMARY KEY AUTOINCREMENT,
  org_id INTEGER,
  stream_type TEXT NOT NULL,
  stream_id TEXT NOT NULL,
  stream_version INTEGER NOT NULL,
  type TEXT NOT NULL,
  data TEXT NOT NULL,
  metadata TEXT NOT NULL DEFAULT '{}',
  recorded_at TEXT NOT NULL,
  UNIQUE (stream_type, stream_id, stream_version)
);
CREATE INDEX events_by_org ON events (org_id, position);

-- Integer ids unique across the installation; allocated by the single writer.
CREATE TABLE id_counter (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
INSERT INTO id_counter (name, value) VALUES ('id', 1000);

CREATE TABLE orgs (
  id INTEGER PRIMARY KEY,
  slug TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  website_url TEXT,
  plan TEXT NOT NULL,
  created_at TEXT NOT NULL,
  state TEXT NOT NULL DEFAULT '{}'
);

CREATE TABLE api_keys (
  id INTEGER PRIMARY KEY,
  org_id INTEGER NOT NULL,
  name TEXT NOT NULL,
  prefix TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,
  scopes TEXT NOT NULL,
  created_at TEXT NOT NULL,
  revoked_at TEXT
);
CREATE INDEX api_keys_by_org ON api_keys (org_id, id);

-- Last use of a key is operational metadata, written at most once a minute per key,
-- outside the event log so reads never queue behind the writer.
CREATE TABLE api_key_usage (key_id INTEGER PRIMARY KEY, last_used_at TEXT NOT NULL);

CREATE TABLE competitors (
  id INTEGER PRIMARY KEY,
  org_id INTEGER NOT NULL,
  key TEXT NOT NULL,
  name TEXT NOT NULL,
  website_url TEXT,
  watch TEXT NOT NULL,
  tracking TEXT NOT NULL,
  listed INTEGER NOT NULL,
  priority_sort INTEGER NOT NULL,
  tracked_sort TEXT NOT NULL,
  battlecard_id INTEGER,
  state TEXT NOT NULL,
  summary_doc TEXT NOT NULL,
  detail_doc TEXT NOT NULL,
  UNIQUE (org_id, key)
);
CREATE INDEX competitors_listed ON competitors (org_id, priority_sort, tracked_sort, id) WHERE listed = 1;
CREATE INDEX competitors_by_website ON competitors (org_id, website_url);

CREATE TABLE signals (
  id INTEGER PRIMARY KEY,
  org_id INTEGER NOT NULL,
  key TEXT NOT NULL,
  competitor_id INTEGER,
  competitor_name TEXT,
  status TEXT NOT NULL,
  severity TEXT,
  first_seen_at TEXT,
  visible INTEGER NOT NULL,
  listed INTEGER NOT NULL,
  title TEXT NOT NULL,
  summary TEXT,
  state TEXT NOT NULL,
  doc TEXT NOT NULL,
  UNIQUE (org_id, key)
);
CREATE INDEX signals_feed ON signals (org_id, first_seen_at DESC, id DESC) WHERE listed = 1;
CREATE INDEX signals_by_competitor ON signals (org_id, competitor_id, first_seen_at DESC, id DESC) WHERE listed = 1;
CREATE INDEX signals_by_severity ON signals (org_id, severity, first_seen_at DESC, id DESC) WHERE listed = 1;
CREATE INDEX signals_of_competitor ON signals (competitor_id);

-- Trigram index for case-insensitive substring search on title or summary.
CREATE VIRTUAL TABLE signals_fts USING fts5 (title, summary, tokenize = 'trigram');

CREATE TABLE digests (
  id INTEGER PRIMARY KEY,
  org_id INTEGER NOT NULL,
  key TEXT NOT NULL,
  slug TEXT,
  type TEXT NOT NULL,
  status TEXT NOT NULL,
  listed INTEGER NOT NULL,
  period_sort TEXT NOT NULL,
  generated_at TEXT,
  state TEXT NOT NULL,
  list_doc TEXT NOT NULL,
  doc TEXT NOT NULL,
  UNIQUE (org_id, key)
);
CREATE INDEX digests_feed ON digests (org_id, period_sort DESC, id DESC) WHERE listed = 1;
CREATE INDEX digests_by_type ON digests (org_id, type, period_sort DESC, id DESC) WHERE listed = 1;
CREATE INDEX digests_by_slug ON digests (org_id, slug);

CREATE TABLE battlecards (
  id INTEGER PRIMARY KEY,
  org_id INTEGER NOT NULL,
  key TEXT NOT NULL,
  competitor_id INTEGER NOT NULL,
  competitor_name TEXT,
  status TEXT NOT NULL,
  visible INTEGER NOT NULL,
  listed INTEGER NOT NULL,
  generated_at TEXT,
  state TEXT NOT NULL,
  doc TEXT NOT NULL,
  UNIQUE (org_id, key),
  UNIQUE (org_id, competitor_id)
);
CREATE INDEX battlecards_listed ON battlecards (org_id, competitor_id) WHERE listed = 1;
