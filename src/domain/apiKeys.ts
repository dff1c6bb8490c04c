import type { NewEvent } from "../../events/catalog.ts";
import type { EventStore } from "../../events/store.ts";
import { keyPrefix, newApiKey, sha256 } from "../auth/tokens.ts";
import { apiKeyRevocation } from "../db/queries/apiKeys.ts";
import { DomainError } from "./errors.ts";
import { requireOrg } from "./state.ts";
import { InvalidInput } from "./validate.ts";

export const SCOPES = ["read", "write", "spend"] as const;
export type Scope = (typeof SCOPES)[number];

export function parseScopes(v: string | string[] | undefined): Scope[] {
  if (v === undefined) return [...SCOPES];
  const list = (Array.isArray(v) ? v : v.split(/[\s,]+/)).map((s) => s.trim()).filter(Boolean);
  if (list.length === 0) throw new InvalidInput("at least one scope is needed", "scopes");
  for (const s of list)
    if (!(SCOPES as readonly string[]).includes(s))
      throw new InvalidInput(`unknown scope ${JSON.stringify(s)}; scopes are ${SCOPES.join(", ")}`, "scopes");
  return SCOPES.filter((s) => list.includes(s));
}

export async function createApiKey(
  store: EventStore,
  orgSlug: string,
  name: string | undefined,
  scopes: Scope[],
) {
  const token = newApiKey();
  const keyName = (name ?? "").trim() || "API key";
  if (keyName.length > 100) throw new InvalidInput("name is longer than 100", "name");
  const { result } = await store.execute(async (w) => {
    const org = await requireOrg(w.tx, orgSlug);
    const id = await w.nextId();
    const data = {
      id,
      name: keyName,
      prefix: keyPrefix(token),
      token_hash: sha256(token),
      scopes,
      created_at: w.now.toISOString(),
    };
    const events: NewEvent[] = [
      { type: "ApiKeyCreated", orgId: org.id, streamType: "api_key", streamId: String(id), data },
    ];
    return {
      events,
      result: {
        id,
        org: org.slug,
        name: keyName,
        prefix: data.prefix,
        scopes,
        created_at: data.created_at,
        token,
      },
    };
  });
  return result;
}

export async function revokeApiKey(store: EventStore, orgSlug: string, keyId: number) {
  const { result } = await store.execute(async (w) => {
    const org = await requireOrg(w.tx, orgSlug);
    const key = await apiKeyRevocation(w.tx, org.id, keyId);
    if (!key) throw new DomainError("not_found", `no API key ${keyId} in ${orgSlug}`);
    if (key.revoked_at !== null) return { events: [], result: { id: keyId, revoked_at: key.revoked_at } };
    const revoked_at = w.now.toISOString();
    const events: NewEvent[] = [
      {
        type: "ApiKeyRevoked",
        orgId: org.id,
        streamType: "api_key",
        streamId: String(keyId),
        data: { revoked_at },
      },
    ];
    return { events, result: { id: keyId, revoked_at } };
  });
  return result;
}
