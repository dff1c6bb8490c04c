import { and, asc, desc, eq, sql } from "drizzle-orm";
import { LIST } from "../../domain/limits.ts";
import type { Db } from "../client.ts";
import { battlecards } from "../schema.ts";
import { appLinks, withUrl } from "./links.ts";

type Obj = Record<string, unknown>;
const listed = sql`${battlecards.listed} = 1`;

export async function listBattlecards(db: Db, orgId: number, base: string): Promise<Obj[]> {
  const rows = await db
    .select({ id: battlecards.id, doc: battlecards.doc })
    .from(battlecards)
    .where(and(eq(battlecards.orgId, orgId), listed))
    .orderBy(asc(battlecards.competitorId))
    // One battlecard per tracked competitor, of which a workspace has at most this many.
    .limit(LIST.trackedCompetitors);
  return rows.map((r) => withUrl(r.doc, appLinks.battlecard(base, r.id)));
}

/** Looked up as a battlecard id first, then as a competitor id. */
export async function getBattlecard(
  db: Db,
  orgId: number,
  id: number,
  base: string,
  by: "either" | "battlecard" | "competitor" = "either",
): Promise<Obj | undefined> {
  const pick = (col: typeof battlecards.id | typeof battlecards.competitorId) =>
    db
      .select({ id: battlecards.id, doc: battlecards.doc })
      .from(battlecards)
      .where(and(eq(col, id), eq(battlecards.orgId, orgId), listed))
      .limit(1);
  let row: { id: number; doc: string } | undefined;
  if (by !== "competitor") [row] = await pick(battlecards.id);
  if (!row && by !== "battlecard") [row] = await pick(battlecards.competitorId);
  return row ? withUrl(row.doc, appLinks.battlecard(base, row.id)) : undefined;
}

/** Generated battlecards written or rewritten on or after a time, newest first (battlecards_written index). */
export async function battlecardsWrittenSince(
  db: Db,
  orgId: number,
  since: string,
  limit: number,
  base: string,
) {
  const rows = await db
    .select({ id: battlecards.id, doc: battlecards.doc })
    .from(battlecards)
    .where(and(eq(battlecards.orgId, orgId), listed, sql`${battlecards.generatedAt} >= ${since}`))
    .orderBy(desc(battlecards.generatedAt), desc(battlecards.id))
    .limit(limit);
  return rows.map((r) => withUrl(r.doc, appLinks.battlecard(base, r.id)));
}

/** A card's pending proposal (what the engine would change after a cycle), if any: one primary-key read. */
export async function battlecardProposal(db: Db, orgId: number, id: number): Promise<Obj | undefined> {
  const [row] = await db
    .select({ proposal: sql<string | null>`json_extract(${battlecards.state}, '$.proposal')` })
    .from(battlecards)
    .where(and(eq(battlecards.id, id), eq(battlecards.orgId, orgId)))
    .limit(1);
  if (!row?.proposal) return undefined;
  const { sections: _s, evidence: _e, team: _t, ...shown } = JSON.parse(row.proposal) as Obj;
  return shown;
}

/** The listed cards of a workspace with a pending proposal: battlecard id → when it was proposed. */
export async function pendingProposals(db: Db, orgId: number): Promise<Map<number, string>> {
  const rows = await db
    .select({
      id: battlecards.id,
      at: sql<string | null>`json_extract(${battlecards.state}, '$.proposal.proposed_at')`,
    })
    .from(battlecards)
    .where(and(eq(battlecards.orgId, orgId), listed))
    .limit(LIST.trackedCompetitors);
  return new Map(rows.filter((r) => r.at).map((r) => [r.id, String(r.at)]));
}
