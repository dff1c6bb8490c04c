-- Each stored version's digest for the rotation rule (src/engine/compare/seen.ts): the sorted 53-bit hashes of
-- the values compare() asks the history about, as little-endian doubles. Filled when a blob is stored; a blob
-- stored before this column (NULL) is parsed instead, as all were.
ALTER TABLE snapshot_blobs ADD COLUMN seen BLOB;
