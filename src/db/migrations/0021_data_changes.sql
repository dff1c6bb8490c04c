-- A change counter every writer transaction increments (events/store.ts). Processes reading a remote libSQL
-- server (sqld) probe it to know whether their read cache is still fresh (src/db/queries/cache.ts); a local
-- file uses SQLite's own PRAGMA data_version instead, which needs no table.
CREATE TABLE data_changes (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  n INTEGER NOT NULL
);
INSERT INTO data_changes (id, n) VALUES (1, 0);
