// Workspace settings (profile, ICP, delivery, chat connection, first brief), the ICP update log, and each
// competitor's ICP overlap written into its record.
import type { StoredEvent } from "../events/catalog.ts";
import { EVENT_POSITION_SQL, type Tx } from "../events/store.ts";
import { applyProfileChanges } from "../src/domain/companyProfile.ts";
import type { CompetitorRecord } from "../src/domain/records.ts";
import { writeCompetitor } from "./competitors.ts";

async function ensureRow(tx: Tx, orgId: number): Promise<void> {
  await tx.execute({
    sql: "INSERT INTO workspace_settings (id) VALUES (?) ON CONFLICT (id) DO NOTHING",
    args: [orgId],
  });
}

async function readJson(tx: Tx, orgId: number, column: "profile" | "icp"): Promise<Record<string, unknown>> {
  const r = await tx.execute({
    sql: `SELECT ${column} AS v FROM workspace_settings WHERE id = ?`,
    args: [orgId],
  });
  return JSON.parse(String(r.rows[0]?.v ?? "{}"));
}

export async function projectWorkspace(e: StoredEvent, tx: Tx): Promise<void> {
  const orgId = e.orgId;
  switch (e.type) {
    case "CompanyProfileUpdated": {
      await ensureRow(tx, orgId!);
      const profile = applyProfileChanges(await readJson(tx, orgId!, "profile"), e.data.changes);
      await tx.execute({
        sql: "UPDATE workspace_settings SET profile = ?, profile_updated_at = ? WHERE id = ?",
        args: [JSON.stringify(profile), e.data.updated_at, orgId],
      });
      break;
    }
    case "IcpUpdated": {
      await ensureRow(tx, orgId!);
      const icp = await readJson(tx, orgId!, "icp");
      for (const d of ["industries", "buyer_roles"] as const) {
        const v = e.data[d];
        if (v === undefined) continue;
        if (v.length) icp[d] = v;
        else delete icp[d];
      }
      await tx.execute({
        sql: "UPDATE workspace_settings SET icp = ?, icp_updated_at = ? WHERE id = ?",
        args: [JSON.stringify(icp), e.data.updated_at, orgId],
      });
      await tx.execute({
        sql: `INSERT INTO icp_updates (id, org_id, updated_at) VALUES (${EVENT_POSITION_SQL}, ?, ?)`,
        args: [e.position, orgId, e.data.updated_at],
      });
      break;
    }
    case "MonitoringCadenceSet":
      await ensureRow(tx, orgId!);
      await tx.execute({
        sql: "UPDATE workspace_settings SET cadence = ? WHERE id = ?",
        args: [e.data.cadence, orgId],
      });
      break;
    case "DeliveryChannelsSet": {
      await ensureRow(tx, orgId!);
      const b = (v: boolean | undefined) => (v === undefined ? null : v ? 1 : 0);
      await tx.execute({
        sql: `UPDATE workspace_settings SET email_delivery = COALESCE(?, email_delivery),
                slack_delivery = COALESCE(?, slack_delivery), teams_delivery = COALESCE(?, teams_delivery)
              WHERE id = ?`,
        args: [b(e.data.email), b(e.data.slack), b(e.data.teams), orgId],
      });
      break;
    }
    case "DeliveryRulesSet":
      await ensureRow(tx, orgId!);
      await tx.execute({
        sql: `UPDATE workspace_settings SET delivery_rules = CASE WHEN ? IS NULL
                THEN json_remove(COALESCE(delivery_rules, '{}'), '$.' || ?)
                ELSE json_set(COALESCE(delivery_rules, '{}'), '$.' || ?, json(?)) END WHERE id = ?`,
        args: [
          e.data.rules === null ? null : 1,
          e.data.channel,
          e.data.channel,
          JSON.stringify(e.data.rules),
          orgId,
        ],
      });
      break;
    case "ChatConnected":
      await ensureRow(tx, orgId!);
      // A Microsoft Teams connection is kept beside the Slack one (its own columns).
      await tx.execute({
        sql:
          e.data.provider === "teams"
            ? "UPDATE workspace_settings SET teams_webhook_url = ?, teams_connected_at = ? WHERE id = ?"
            : "UPDATE workspace_settings SET chat_webhook_url = ?, chat_connected_at = ? WHERE id = ?",
        args: [e.data.webhook_url, e.data.connected_at, orgId],
      });
      break;
    case "ChatDisconnected":
      await ensureRow(tx, orgId!);
      await tx.execute({
        sql:
          e.data.provider === "teams"
            ? "UPDATE workspace_settings SET teams_webhook_url = NULL, teams_connected_at = NULL WHERE id = ?"
            : "UPDATE workspace_settings SET chat_webhook_url = NULL, chat_connected_at = NULL WHERE id = ?",
        args: [orgId],
      });
      break;
    case "FirstBriefStarted":
    case "FirstBriefFinished":
      await ensureRow(tx, orgId!);
      await tx.execute({
        sql: "UPDATE workspace_settings SET first_brief = ? WHERE id = ?",
        args: [e.type === "FirstBriefStarted" ? "running" : "finished", orgId],
      });
      break;
    case "CompetitorIcpOverlapComputed": {
      const r = await tx.execute({
        sql: "SELECT org_id, key, state FROM competitors WHERE id = ?",
        args: [e.data.id],
      });
      const row = r.rows[0];
      if (!row) break;
      const record = JSON.parse(String(row.state)) as CompetitorRecord;
      const workspace = { ...(record.workspace ?? {}) };
      if (e.data.icp_overlap) workspace.icp_overlap = e.data.icp_overlap;
      else delete workspace.icp_overlap;
      const next: CompetitorRecord = { ...record, workspace };
      if (Object.keys(workspace).length === 0) delete next.workspace;
      await writeCompetitor(tx, Number(row.org_id), e.data.id, String(row.key), next);
      break;
    }
  }
}
