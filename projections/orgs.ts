import type { StoredEvent } from "../events/catalog.ts";
import type { Tx } from "../events/store.ts";

export async function projectOrgs(e: StoredEvent, tx: Tx): Promise<void> {
  switch (e.type) {
    case "OrgCreated":
      await tx.execute({
        sql: "INSERT INTO orgs (id, slug, name, website_url, plan, created_at) VALUES (?, ?, ?, ?, ?, ?)",
        args: [
          e.data.id,
          e.data.slug,
          e.data.name,
          e.data.website_url ?? null,
          e.data.plan,
          e.data.created_at,
        ],
      });
      break;
    case "OrgPlanChanged":
      await tx.execute({ sql: "UPDATE orgs SET plan = ? WHERE id = ?", args: [e.data.plan, e.orgId] });
      break;
  }
}
