-- "Advance the demo sites" pressed while the demo still researches its competitors (or runs its first, baseline
-- cycle) is queued here and applied when that work ends (src/demo/engine.ts), so the planted changes are found.
ALTER TABLE demo_sites ADD COLUMN advance_queued_at TEXT;
