-- A monitored page added with render: true is always read in the browser (RIVALS_BROWSER), even when its
-- served HTML does not look like an application shell.
ALTER TABLE monitored_pages ADD COLUMN render INTEGER NOT NULL DEFAULT 0;
