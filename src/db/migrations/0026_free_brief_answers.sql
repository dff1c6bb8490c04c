-- Free briefs answered by the engine (docs/web.md "Free briefs"): each request's domain, how it was answered
-- (a brief researched for it, an existing brief of the domain, or why none could be written) and its email.
ALTER TABLE free_brief_requests ADD COLUMN domain TEXT;
ALTER TABLE free_brief_requests ADD COLUMN state TEXT NOT NULL DEFAULT 'queued'; -- 'queued' | 'published' | 'existing' | 'failed'
ALTER TABLE free_brief_requests ADD COLUMN brief_id INTEGER;
ALTER TABLE free_brief_requests ADD COLUMN reason TEXT;
ALTER TABLE free_brief_requests ADD COLUMN answered_at TEXT;
ALTER TABLE free_brief_requests ADD COLUMN email_state TEXT NOT NULL DEFAULT 'pending'; -- 'pending' | 'sent' | 'failed'
ALTER TABLE free_brief_requests ADD COLUMN email_attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE free_brief_requests ADD COLUMN email_error TEXT;
-- A request from before this migration named no domain it could be researched by: it stays unanswered.
UPDATE free_brief_requests SET state = 'failed', reason = 'requested before free briefs were researched',
  email_state = 'failed' WHERE domain IS NULL;
CREATE INDEX free_brief_requests_queued ON free_brief_requests (domain, id) WHERE state = 'queued';
CREATE INDEX free_brief_requests_unmailed ON free_brief_requests (id) WHERE state <> 'queued' AND email_state = 'pending';
CREATE INDEX free_brief_requests_by_domain ON free_brief_requests (domain, id);

-- Which instance is researching a domain's free brief or sending a request's email now (operational, not a
-- projection): a claim expires, so a stopped instance's work is taken up by the next sweep.
CREATE TABLE free_brief_claims (
  key TEXT PRIMARY KEY,             -- `research:<domain>` or `email:<request id>`
  holder TEXT NOT NULL,
  expires_at TEXT NOT NULL
);
