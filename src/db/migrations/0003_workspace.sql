-- Workspace settings (company profile, ICP, delivery, chat connection, first-brief state), the ICP update
-- log the daily cap counts, and the public library (public briefs, guides). All projections of the log.

-- One row per org that has changed a setting; `id` is the org id. A missing row means every default.
CREATE TABLE workspace_settings (
  id INTEGER PRIMARY KEY,
  profile TEXT NOT NULL DEFAULT '{}',
  profile_updated_at TEXT,
  icp TEXT NOT NULL DEFAULT '{}',
  icp_updated_at TEXT,
  cadence TEXT,
  email_delivery INTEGER,
  slack_delivery INTEGER,
  chat_webhook_url TEXT,
  chat_connected_at TEXT,
  first_brief TEXT
);

-- One row per successful update_icp (id = the IcpUpdated event's log position), for the daily cap.
CREATE TABLE icp_updates (
  id INTEGER PRIMARY KEY,
  org_id INTEGER NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX icp_updates_by_day ON icp_updates (org_id, updated_at);

-- Published public briefs: not owned by any workspace.
CREATE TABLE public_briefs (
  id INTEGER PRIMARY KEY,
  company_slug TEXT NOT NULL,
  slug TEXT NOT NULL,
  company_name TEXT NOT NULL,
  company_name_lc TEXT NOT NULL,
  domain TEXT,
  published_at TEXT NOT NULL,
  search_text TEXT NOT NULL,
  state TEXT NOT NULL,
  UNIQUE (company_slug, slug)
);
CREATE INDEX public_briefs_newest ON public_briefs (published_at DESC, id DESC);
CREATE INDEX public_briefs_by_company ON public_briefs (company_slug, published_at DESC, id DESC);
CREATE INDEX public_briefs_by_domain ON public_briefs (domain, published_at DESC, id DESC);

CREATE TABLE guides (
  id INTEGER PRIMARY KEY,
  slug TEXT NOT NULL UNIQUE,
  title TEXT NOT NULL,
  published_at TEXT NOT NULL,
  state TEXT NOT NULL
);
CREATE INDEX guides_newest ON guides (published_at DESC, id DESC);

-- Full-text index of the guides (rowid = guide id), ranked with bm25.
CREATE VIRTUAL TABLE guides_fts USING fts5 (title, excerpt, body, tokenize = 'porter unicode61');
