import type { StoredEvent } from "../events/catalog.ts";
import type { Tx } from "../events/store.ts";

export async function projectApiKeys(e: StoredEvent, tx: Tx): Promise<void> {
  switch (e.type) {
    case "ApiKeyCreated":
      await tx.execute({
        sql: `INSERT INTO api_keys (id, org_id, name, prefix, token_hash, scopes, created_at)
              VALUES (?, ?, ?, ?, ?, ?, ?)`,
        args: [
          e.data.id,
          e.orgId,
          e.data.name,
          e.data.prefix,
          e.data.token_hash,
          e.data.scopes.join(","),
          e.data.created_at,
        ],
      });
      break;
    case "ApiKeyRevoked":
      await tx.execute({
        sql: "UPDATE api_keys SET revoked_at = ? WHERE id = ? AND org_id = ?",
        args: [e.data.revoked_at, Number(e.streamId), e.orgId],
      });
      break;
  }
}
