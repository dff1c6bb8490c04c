-- How many notes each subject has (signal, digest, battlecard = competitor), kept by the notes projector in
-- the same transaction as the note: the tools answer "newest 20 of N" with one primary-key read instead of
-- counting the subject's notes. Filled here from the notes already stored.
CREATE TABLE note_counts (
  subject_type TEXT NOT NULL,
  subject_id INTEGER NOT NULL,
  org_id INTEGER NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (subject_type, subject_id)
) WITHOUT ROWID;
INSERT INTO note_counts (subject_type, subject_id, org_id, n)
  SELECT subject_type, subject_id, org_id, COUNT(*) FROM notes GROUP BY subject_type, subject_id, org_id;
