-- Webhook endpoints and their outbox (docs/webhooks.md).

-- Endpoints, a projection of WebhookAdded / Removed / Disabled / Enabled.
CREATE TABLE webhooks (
  id INTEGER PRIMARY KEY,
  org_id INTEGER NOT NULL,
  url TEXT NOT NULL,
  event_types TEXT NOT NULL,        -- JSON array
  filter TEXT,                      -- JSON object
  secret TEXT NOT NULL,             -- whsec_…, to sign with; never listed
  secret_hint TEXT NOT NULL,
  after_position INTEGER NOT NULL,
  state TEXT NOT NULL,              -- 'active' | 'disabled' | 'removed'
  disabled_at TEXT,
  disabled_reason TEXT,
  created_at TEXT NOT NULL,
  removed_at TEXT
);
CREATE INDEX webhooks_by_org ON webhooks (org_id, state, id);

-- Messages, a projection of WebhookMessageQueued / WebhookAttempted: sent in log order per endpoint (`seq`, the
-- position of the event that queued it).
CREATE TABLE webhook_messages (
  id INTEGER PRIMARY KEY,
  seq INTEGER NOT NULL,
  org_id INTEGER NOT NULL,
  webhook_id INTEGER NOT NULL,
  msg_id TEXT NOT NULL,
  type TEXT NOT NULL,
  body TEXT NOT NULL,
  state TEXT NOT NULL,              -- 'pending' | 'sent' | 'failed'
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TEXT,
  last_status INTEGER,
  last_error TEXT,
  last_attempt_at TEXT,
  queued_at TEXT NOT NULL,
  sent_at TEXT
);
CREATE INDEX webhook_messages_next ON webhook_messages (webhook_id, seq) WHERE state = 'pending';
CREATE INDEX webhook_messages_log ON webhook_messages (webhook_id, id);

-- How far the log has been read for webhook events (not a projection: shared by the instances on one
-- database, moved in the same transaction that queues the messages).
CREATE TABLE webhook_fanout (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  position INTEGER NOT NULL
);
