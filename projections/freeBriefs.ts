import type { StoredEvent } from "../events/catalog.ts";
import type { Tx } from "../events/store.ts";

export async function projectFreeBriefs(e: StoredEvent, tx: Tx): Promise<void> {
  if (e.type !== "FreeBriefRequested") return;
  await tx.execute({
    sql: `INSERT INTO free_brief_requests (id, company_name, website_url, email, requested_at)
          VALUES (?, ?, ?, ?, ?)`,
    args: [
      e.data.id,
      e.data.company_name ?? null,
      e.data.website_url ?? null,
      e.data.email,
      e.data.requested_at,
    ],
  });
}
