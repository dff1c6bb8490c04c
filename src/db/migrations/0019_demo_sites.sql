-- The demo's fictional websites (src/demo): which version they serve. One row, written by `rivals demo advance`
-- and the demo workspace's "Advance the demo sites" button, read by the demo web listener of `serve --demo`.
CREATE TABLE demo_sites (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  version INTEGER NOT NULL,
  advanced_at TEXT
);
