// Loads the state a decider needs from the read tables (through the named queries of src/db/queries), inside the
// writer's transaction.
import type { Tx } from "../../events/store.ts";
import { keyedRecord } from "../db/queries/keyed.ts";
import { orgRecordBySlug } from "../db/queries/orgs.ts";
import { DomainError } from "./errors.ts";

export interface OrgState {
  id: number;
  slug: string;
  name: string;
  plan: string;
  website_url: string | null;
  created_at: string;
}

export function findOrg(tx: Pick<Tx, "execute">, slug: string): Promise<OrgState | undefined> {
  return orgRecordBySlug(tx, slug);
}

export async function requireOrg(tx: Pick<Tx, "execute">, slug: string): Promise<OrgState> {
  return orgNamed(await findOrg(tx, slug), slug);
}

/** The org a command named by slug, as its loader found it; a decider refuses one that is not there. */
export function orgNamed(org: OrgState | undefined, slug: string): OrgState {
  if (!org) throw new DomainError("not_found", `no organization with slug ${JSON.stringify(slug)}`);
  return org;
}

/** The id and current record of a keyed record in one org, if any. */
export function findKeyed<R>(
  tx: Pick<Tx, "execute">,
  table: "competitors" | "signals" | "digests" | "battlecards",
  orgId: number,
  key: string,
): Promise<{ id: number; state: R } | undefined> {
  return keyedRecord<R>(tx, table, orgId, key);
}
