-- When a free brief's failed email is tried again (the delivery outbox's backoff), so a mail server that refuses
-- is not retried by every pass at once.
ALTER TABLE free_brief_requests ADD COLUMN email_next_at TEXT;
