-- Research runs and the sources research discovered. Both are projections of the log
-- (projections/research.ts): ResearchStarted / ResearchFinished / ResearchFailed on the competitor stream.

-- One research run of one competitor. `batch` groups the runs one call started (refresh_watchlist starts one
-- per core competitor); the weekly allowance counts distinct batches with `uses_allowance` that did not fail.
CREATE TABLE research_runs (
  id INTEGER PRIMARY KEY,
  org_id INTEGER NOT NULL,
  competitor_id INTEGER NOT NULL,
  batch INTEGER NOT NULL,
  trigger TEXT NOT NULL,          -- 'research_competitor' | 'refresh_watchlist' | 'operator' | 'app'
  uses_allowance INTEGER NOT NULL,
  first_brief INTEGER NOT NULL,
  state TEXT NOT NULL,            -- 'running' | 'finished' | 'failed'
  started_at TEXT NOT NULL,
  ended_at TEXT,
  error TEXT
);
CREATE INDEX research_runs_by_competitor ON research_runs (org_id, competitor_id, id);
CREATE INDEX research_runs_by_state ON research_runs (state, org_id);
CREATE INDEX research_runs_allowance ON research_runs (org_id, uses_allowance, started_at);

-- What research found to watch on a competitor: pages (with their kind), feeds, job boards, release feeds.
-- The monitoring cycle checks these. Replaced as a whole by each finished research.
CREATE TABLE research_sources (
  org_id INTEGER NOT NULL,
  competitor_id INTEGER NOT NULL,
  url TEXT NOT NULL,
  kind TEXT NOT NULL,
  discovered_at TEXT NOT NULL,
  PRIMARY KEY (competitor_id, url)
);
CREATE INDEX research_sources_by_org ON research_sources (org_id, competitor_id);

-- draft_positioning's daily cap counts these (one row per successful draft).
CREATE TABLE positioning_drafts (
  id INTEGER PRIMARY KEY,
  org_id INTEGER NOT NULL,
  drafted_at TEXT NOT NULL
);
CREATE INDEX positioning_drafts_by_day ON positioning_drafts (org_id, drafted_at);
