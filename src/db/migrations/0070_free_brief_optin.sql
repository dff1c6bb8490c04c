-- Free briefs that cannot be turned against others (docs/security.md "Free briefs"): an address is emailed only
-- after it confirms, emails are counted per company, address and client network, the thank-you page answers
-- only the browser that asked, and new briefs may be held for an operator's review.
ALTER TABLE free_brief_requests ADD COLUMN viewer_digest TEXT;
ALTER TABLE free_brief_requests ADD COLUMN network TEXT;
ALTER TABLE free_brief_requests ADD COLUMN email_withheld TEXT; -- 'company' | 'recipient' | 'network'
-- 'none' (no confirmation asked) | 'pending' (to send) | 'sent' | 'failed' (given up)
ALTER TABLE free_brief_requests ADD COLUMN confirm_state TEXT NOT NULL DEFAULT 'none';
ALTER TABLE free_brief_requests ADD COLUMN confirm_attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE free_brief_requests ADD COLUMN confirm_next_at TEXT;
ALTER TABLE free_brief_requests ADD COLUMN confirm_error TEXT;
ALTER TABLE free_brief_requests ADD COLUMN confirm_digest TEXT; -- SHA-256 of the link's token; cleared once used
ALTER TABLE free_brief_requests ADD COLUMN confirm_expires_at TEXT;
ALTER TABLE free_brief_requests ADD COLUMN confirmed_at TEXT;
-- An address that never confirmed is not emailed: older requests still waiting for their email are not sent.
-- email_state: 'none' (never emailed) | 'waiting' (until confirmed) | 'pending' | 'sent' | 'failed'
UPDATE free_brief_requests SET email_state = 'none' WHERE email_state = 'pending';
CREATE INDEX free_brief_requests_confirm_by_domain ON free_brief_requests (domain, requested_at) WHERE confirm_state <> 'none';
CREATE INDEX free_brief_requests_confirm_by_email ON free_brief_requests (email, requested_at) WHERE confirm_state <> 'none';
CREATE INDEX free_brief_requests_confirm_by_network ON free_brief_requests (network, requested_at) WHERE confirm_state <> 'none';
CREATE INDEX free_brief_requests_to_confirm ON free_brief_requests (id) WHERE confirm_state = 'pending';
CREATE INDEX free_brief_requests_by_token ON free_brief_requests (confirm_digest) WHERE confirm_digest IS NOT NULL;
CREATE INDEX free_brief_requests_by_viewer ON free_brief_requests (domain, viewer_digest, id);

-- 'published' (served publicly) | 'pending' (held for review) | 'rejected'
ALTER TABLE public_briefs ADD COLUMN review TEXT NOT NULL DEFAULT 'published';
CREATE INDEX public_briefs_pending ON public_briefs (id) WHERE review = 'pending';
