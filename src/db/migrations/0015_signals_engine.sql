-- Signals the engine detects: besides their row in `signals` (the API object), the state the
-- engine deduplicates on. One row per engine signal, open or closed: its dedup key (same real-world event ⇒
-- same key across sources and cycles), the value it recorded (a price, a plan's presence …) so a later change
-- can be told apart as the same one again, a revert or a superseding change, and when it was last seen
-- (RIVALS_SIGNAL_TTL_DAYS counts from there). A projection of SignalDetected / SignalEvidenceAdded /
-- SignalClosed: `rivals projections rebuild` refills it.
CREATE TABLE engine_signals (
  id INTEGER PRIMARY KEY,
  org_id INTEGER NOT NULL,
  competitor_id INTEGER NOT NULL,
  dedup_key TEXT NOT NULL,
  category TEXT NOT NULL,
  type TEXT NOT NULL,
  status TEXT NOT NULL,
  subject TEXT,
  value_before TEXT,
  value_after TEXT,
  evidence_count INTEGER NOT NULL,
  first_seen_at TEXT NOT NULL,
  last_seen_at TEXT NOT NULL,
  closed_at TEXT,
  closed_reason TEXT
);
CREATE INDEX engine_signals_open ON engine_signals (org_id, competitor_id, dedup_key) WHERE status = 'open';
CREATE INDEX engine_signals_expiry ON engine_signals (org_id, last_seen_at) WHERE status = 'open';
