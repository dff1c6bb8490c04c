-- Delivery rules per channel (email, slack, teams): which signals each gets (src/domain/deliveryRules.ts).
-- JSON object by channel; a channel without rules gets every signal.
ALTER TABLE workspace_settings ADD COLUMN delivery_rules TEXT;
