-- The host a source is read from (the URL's authority, lower case), so the cycle can count the sources that
-- every workspace reads from one host (a job board provider, a public API) and check them in rotation when
-- they are more than that host's hourly share allows (src/engine/schedule/rotation.ts). Computed from the URL,
-- never stored, so no write has to keep it; the index serves the count of recently checked sources per host.
ALTER TABLE snapshot_sources ADD COLUMN host TEXT GENERATED ALWAYS AS (
  lower(substr(substr(url, instr(url, '://') + 3), 1, instr(substr(url, instr(url, '://') + 3) || '/', '/') - 1))
) VIRTUAL;
CREATE INDEX snapshot_sources_by_host ON snapshot_sources (host, last_checked_at);
