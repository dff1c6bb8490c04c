// Loads the state a decider needs from the read tables, inside the writer's transaction.
import type { Tx } from "../../events/store.ts";
import { DomainError } from "./errors.ts";

export interface OrgState {
  id: number;
  slug: string;
  name: string;
  plan: string;
  website_url: string | null;
  created_at: string;
}

export async function findOrg(tx: Pick<Tx, "execute">, slug: string): Promise<OrgState | undefined> {
  const r = await tx.execute({
    sql: "SELECT id, slug, name, plan, website_url, created_at FROM orgs WHERE slug = ?",
    args: [slug],
  });
  const row = r.rows[0];
  return row
    ? {
        id: Number(row.id),
        slug: String(row.slug),
        name: String(row.name),
        plan: String(row.plan),
        website_url: row.website_url === null ? null : String(row.website_url),
        created_at: String(row.created_at),
      }
    : undefined;
}

export async function requireOrg(tx: Pick<Tx, "execute">, slug: string): Promise<OrgState> {
  const org = await findOrg(tx, slug);
  if (!org) throw new DomainError("not_found", `no organization with slug ${JSON.stringify(slug)}`);
  return org;
}

/** The id and current record of a keyed record in one org, if any. */
export async function findKeyed<R>(
  tx: Pick<Tx, "execute">,
  table: "competitors" | "signals" | "digests" | "battlecards",
  orgId: number,
  key: string,
): Promise<{ id: number; state: R } | undefined> {
  const r = await tx.execute({
    sql: `SELECT id, state FROM ${table} WHERE org_id = ? AND key = ?`,
    args: [orgId, key],
  });
  const row = r.rows[0];
  return row ? { id: Number(row.id), state: JSON.parse(String(row.state)) as R } : undefined;
}
