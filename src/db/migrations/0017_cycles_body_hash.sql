-- A hash of the body a source last answered with (before extraction): a monitoring cycle that gets the same
-- bytes again knows the source is unchanged without extracting it (docs/engine/cycles.md).
ALTER TABLE snapshot_sources ADD COLUMN body_hash TEXT;
