-- Microsoft Teams (a Workflows webhook) as a delivery channel beside Slack (docs/engine/deliver.md).
ALTER TABLE workspace_settings ADD COLUMN teams_webhook_url TEXT;
ALTER TABLE workspace_settings ADD COLUMN teams_connected_at TEXT;
ALTER TABLE workspace_settings ADD COLUMN teams_delivery INTEGER;
