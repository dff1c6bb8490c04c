-- Delivery of finished cycles by email and team chat (docs/engine/deliver.md).

-- The outbox, a projection of DeliveryQueued / DeliveryAttempted: one row per cycle, channel and recipient, so a
-- cycle is delivered once per channel and recipient however often its after-step or the retry loop runs.
CREATE TABLE deliveries (
  id INTEGER PRIMARY KEY,
  org_id INTEGER NOT NULL,
  cycle_id INTEGER NOT NULL,
  channel TEXT NOT NULL,            -- 'email' | 'slack'
  recipient TEXT NOT NULL,          -- an admin's email address, or 'webhook'
  signal_ids TEXT NOT NULL,         -- JSON array
  state TEXT NOT NULL,              -- 'pending' | 'sent' | 'failed'
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TEXT,
  last_error TEXT,
  last_attempt_at TEXT,
  queued_at TEXT NOT NULL,
  sent_at TEXT,
  UNIQUE (org_id, cycle_id, channel, recipient)
);
CREATE INDEX deliveries_due ON deliveries (state, next_attempt_at) WHERE state = 'pending';
CREATE INDEX deliveries_by_channel ON deliveries (org_id, channel, id);

-- Which instance is sending a delivery now (not a projection: operational state shared by the instances on one
-- database). A claim expires, so a crashed sender's delivery is tried again by another.
CREATE TABLE delivery_claims (
  delivery_id INTEGER PRIMARY KEY,
  holder TEXT NOT NULL,
  expires_at TEXT NOT NULL
);
