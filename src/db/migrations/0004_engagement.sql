-- Watchlist pages and the team's engagement with signals, digests and battlecards:
-- monitored pages, pins, saved signals, notes, ratings, share links and the battlecard generation log
-- the daily cap counts. All projections of the log (projections/watchlist.ts, projections/engagement.ts).

-- Extra pages watched on a core competitor (add_monitored_page). `url_key` is the normalized URL a
-- duplicate is detected by. Not served by the REST API.
CREATE TABLE monitored_pages (
  id INTEGER PRIMARY KEY,
  org_id INTEGER NOT NULL,
  competitor_id INTEGER NOT NULL,
  url TEXT NOT NULL,
  url_key TEXT NOT NULL,
  added_at TEXT NOT NULL,
  UNIQUE (competitor_id, url_key)
);
CREATE INDEX monitored_pages_by_org ON monitored_pages (org_id, competitor_id, id);

-- Team pins (one per signal or digest; a pin is visible to the whole workspace).
CREATE TABLE pins (
  org_id INTEGER NOT NULL,
  subject_type TEXT NOT NULL, -- 'signal' | 'digest'
  subject_id INTEGER NOT NULL,
  pinned_by TEXT NOT NULL,
  pinned_at TEXT NOT NULL,
  PRIMARY KEY (subject_type, subject_id)
);
CREATE INDEX pins_by_org ON pins (org_id, subject_type, pinned_at DESC);

-- Each caller's own saved signals (actor = the principal's actor reference).
CREATE TABLE saved_signals (
  org_id INTEGER NOT NULL,
  actor TEXT NOT NULL,
  signal_id INTEGER NOT NULL,
  saved_at TEXT NOT NULL,
  PRIMARY KEY (org_id, actor, signal_id)
);

-- Team-visible notes: talking points on signals and digests, framing for a competitor's battlecard
-- (subject_type 'battlecard', subject_id = the competitor id).
CREATE TABLE notes (
  id INTEGER PRIMARY KEY,
  org_id INTEGER NOT NULL,
  subject_type TEXT NOT NULL,
  subject_id INTEGER NOT NULL,
  body TEXT NOT NULL,
  author TEXT NOT NULL,
  author_name TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX notes_by_subject ON notes (subject_type, subject_id, id);

-- One rating per caller and signal or digest; a new rating replaces the old one.
CREATE TABLE ratings (
  org_id INTEGER NOT NULL,
  subject_type TEXT NOT NULL, -- 'signal' | 'digest'
  subject_id INTEGER NOT NULL,
  actor TEXT NOT NULL,
  useful INTEGER,
  reasons TEXT,
  comment TEXT,
  score INTEGER,
  missing TEXT,
  rated_at TEXT NOT NULL,
  PRIMARY KEY (subject_type, subject_id, actor)
);

-- The current public link of a signal (a new link replaces the old one). Only the token's SHA-256 is kept.
CREATE TABLE share_links (
  signal_id INTEGER PRIMARY KEY,
  id INTEGER NOT NULL,
  org_id INTEGER NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,
  include_notes INTEGER NOT NULL,
  expires_at TEXT NOT NULL,
  created_at TEXT NOT NULL,
  created_by TEXT NOT NULL
);

-- One row per generate_battlecard run (id = the BattlecardGenerated event's log position), for the daily cap.
CREATE TABLE battlecard_generations (
  id INTEGER PRIMARY KEY,
  org_id INTEGER NOT NULL,
  competitor_id INTEGER NOT NULL,
  generated_at TEXT NOT NULL
);
CREATE INDEX battlecard_generations_by_day ON battlecard_generations (org_id, generated_at);
