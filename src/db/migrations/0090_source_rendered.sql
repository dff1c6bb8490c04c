-- Whether a source's last good check read it in the browser (an application shell, or a page marked render):
-- such a page is fetched whole every cycle, since its served shell can stay the same while the data its scripts
-- load changes. It was the body hash's "r" prefix before; the prefix is dropped here, and a page whose hash
-- began with "r" stays marked (an ordinary page among them is fetched whole once, then marked by its check).
ALTER TABLE snapshot_sources ADD COLUMN rendered INTEGER NOT NULL DEFAULT 0;
UPDATE snapshot_sources SET rendered = 1, body_hash = substr(body_hash, 2) WHERE body_hash LIKE 'r%';
