-- The feed filters open signals by category and type, which live in the signal's document: expression indexes
-- serve those lists the way signals_by_severity serves the severity filter.
CREATE INDEX signals_by_category ON signals (org_id, json_extract(doc, '$.category'), first_seen_at DESC, id DESC) WHERE listed = 1;
CREATE INDEX signals_by_type ON signals (org_id, json_extract(doc, '$.type'), first_seen_at DESC, id DESC) WHERE listed = 1;
