-- Connected apps on the integrations page (docs/oauth.md): when a grant was last used at /mcp (written at
-- most once a minute per grant, operational like api_key_usage), and look-ups of a workspace's grants
-- and remembered approvals by client.
ALTER TABLE oauth_families ADD COLUMN last_used_at TEXT;
CREATE INDEX oauth_families_by_org_client ON oauth_families (org_id, client_id, user_id);
CREATE INDEX oauth_consents_by_org_client ON oauth_consents (org_id, client_id, user_id);
