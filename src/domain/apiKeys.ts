import type { NewEvent } from "../../events/catalog.ts";
import { type Actor, type Command, type Issuer, runCommand } from "../../events/command.ts";
import type { EventStore } from "../../events/store.ts";
import { keyPrefix, newApiKey, sha256 } from "../auth/tokens.ts";
import { apiKeyRevocation } from "../db/queries/apiKeys.ts";
import { DomainError } from "./errors.ts";
import { OPERATOR } from "./operator.ts";
import { findOrg, type OrgState, orgNamed } from "./state.ts";
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

/** An API key is made for a workspace named by slug: by the operator (`rivals key create`), by an admin on the
 * integrations page, by the demo's setup. */
export interface CreateApiKey {
  org: string;
  name?: string;
  scopes: Scope[];
}

export interface ApiKeyCreation {
  org: OrgState | undefined;
  id: number;
  /** The key itself, shown once; only its digest is recorded. */
  token: string;
}

export function decideCreateApiKey(st: ApiKeyCreation, cmd: CreateApiKey, now: Date) {
  const keyName = (cmd.name ?? "").trim() || "API key";
  if (keyName.length > 100) throw new InvalidInput("name is longer than 100", "name");
  const org = orgNamed(st.org, cmd.org);
  const data = {
    id: st.id,
    name: keyName,
    prefix: keyPrefix(st.token),
    token_hash: sha256(st.token),
    scopes: cmd.scopes,
    created_at: now.toISOString(),
  };
  const events: NewEvent[] = [
    { type: "ApiKeyCreated", orgId: org.id, streamType: "api_key", streamId: String(st.id), data },
  ];
  return {
    events,
    result: {
      id: st.id,
      org: org.slug,
      name: keyName,
      prefix: data.prefix,
      scopes: cmd.scopes,
      created_at: data.created_at,
      token: st.token,
    },
  };
}

export const createApiKeyCommand: Command<
  CreateApiKey,
  ApiKeyCreation,
  ReturnType<typeof decideCreateApiKey>["result"],
  Actor
> = {
  load: async (w, cmd) => ({ org: await findOrg(w.tx, cmd.org), id: await w.nextId(), token: newApiKey() }),
  decide: (st, cmd, { now }) => decideCreateApiKey(st, cmd, now),
};

export function createApiKey(
  store: EventStore,
  orgSlug: string,
  name: string | undefined,
  scopes: Scope[],
  by: Issuer<Actor> = OPERATOR,
) {
  return runCommand(store, createApiKeyCommand, { org: orgSlug, name, scopes }, by);
}

export interface ApiKeyRevocation {
  org: OrgState | undefined;
  /** The key of the org, with its stream's version. */
  key: { id: number; revoked_at: string | null; version: number } | undefined;
}

export function decideRevokeApiKey(st: ApiKeyRevocation, cmd: { org: string; id: number }, now: Date) {
  const org = orgNamed(st.org, cmd.org);
  if (!st.key) throw new DomainError("not_found", `no API key ${cmd.id} in ${cmd.org}`);
  if (st.key.revoked_at !== null)
    return { events: [], result: { id: cmd.id, revoked_at: st.key.revoked_at } };
  const revoked_at = now.toISOString();
  const events: NewEvent[] = [
    {
      type: "ApiKeyRevoked",
      orgId: org.id,
      streamType: "api_key",
      streamId: String(cmd.id),
      data: { revoked_at },
    },
  ];
  return { events, result: { id: cmd.id, revoked_at } };
}

export const revokeApiKeyCommand: Command<
  { org: string; id: number },
  ApiKeyRevocation,
  { id: number; revoked_at: string },
  Actor
> = {
  load: async (w, cmd) => {
    const org = await findOrg(w.tx, cmd.org);
    const key = org ? await apiKeyRevocation(w.tx, org.id, cmd.id) : undefined;
    return { org, key: key ? { id: cmd.id, ...key } : undefined };
  },
  stream: ({ key }) =>
    key ? { streamType: "api_key", streamId: String(key.id), version: key.version } : undefined,
  decide: (st, cmd, { now }) => decideRevokeApiKey(st, cmd, now),
};

export function revokeApiKey(
  store: EventStore,
  orgSlug: string,
  keyId: number,
  by: Issuer<Actor> = OPERATOR,
) {
  return runCommand(store, revokeApiKeyCommand, { org: orgSlug, id: keyId }, by);
}
