// Atom feeds (feeds): the digest of each feed's token, whose signals it serves, and whether it was revoked.
import type { StoredEvent } from "../events/catalog.ts";
import type { Tx } from "../events/store.ts";

export async function projectFeeds(e: StoredEvent, tx: Tx): Promise<void> {
  if (e.type === "FeedCreated") {
    const d = e.data;
    await tx.execute({
      sql: "INSERT INTO feeds (id, org_id, token_hash, competitor_id, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?)",
      args: [d.id, e.orgId, d.token_hash, d.competitor_id ?? null, d.created_by, d.created_at],
    });
  } else if (e.type === "FeedRevoked") {
    await tx.execute({
      sql: "UPDATE feeds SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
      args: [e.data.revoked_at, e.data.id],
    });
  }
}
