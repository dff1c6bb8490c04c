-- Requests for a free competitive brief from the public /free-brief form (projection of FreeBriefRequested).
CREATE TABLE free_brief_requests (
  id INTEGER PRIMARY KEY,
  company_name TEXT,
  website_url TEXT,
  email TEXT NOT NULL,
  requested_at TEXT NOT NULL
);
CREATE INDEX free_brief_requests_by_time ON free_brief_requests (requested_at, id);
