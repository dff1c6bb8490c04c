-- Results of tool calls made with an idempotency_key, kept 24 hours. Operational, not a projection.
CREATE TABLE idempotency_keys (
  org_id INTEGER NOT NULL,
  tool TEXT NOT NULL,
  key TEXT NOT NULL,
  args_hash TEXT NOT NULL,
  result TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (org_id, tool, key)
);

-- what_changed: digests and battlecards written since a time.
CREATE INDEX digests_written ON digests (org_id, generated_at) WHERE listed = 1;
CREATE INDEX battlecards_written ON battlecards (org_id, generated_at) WHERE listed = 1;
