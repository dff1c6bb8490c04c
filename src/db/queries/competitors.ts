import { and, asc, eq, sql } from "drizzle-orm";
import { type RoundConflict, type RoundStatement, roundConflicts } from "../../domain/conflicts.ts";
import { LIST } from "../../domain/limits.ts";
import type { Db } from "../client.ts";
import { competitors } from "../schema.ts";
import { cacheOf } from "./cache.ts";
import { competitorFundingSignals } from "./conflicts.ts";
import { appLinks, withUrl } from "./links.ts";
import { selectRows } from "./localReader.ts";

type Obj = Record<string, unknown>;
const listed = sql`${competitors.listed} = 1`;

/** Every actively tracked competitor, by priority then tracked date (competitors_listed index). Served from
 * the read cache while the database is unchanged (cache.ts); the objects are shared: do not change them. */
export function listCompetitors(db: Db, orgId: number, base: string): Promise<Obj[]> {
  // A plain template, not JSON.stringify of an array: this runs on every cached read of the list.
  return cacheOf(db).get(`competitors|${orgId}|${base}`, () => loadCompetitors(db, orgId, base));
}

async function loadCompetitors(db: Db, orgId: number, base: string): Promise<Obj[]> {
  const rows = await selectRows<[number, string]>(
    db,
    db
      .select({ id: competitors.id, doc: competitors.summaryDoc })
      .from(competitors)
      .where(and(eq(competitors.orgId, orgId), listed))
      .orderBy(asc(competitors.prioritySort), asc(competitors.trackedSort), asc(competitors.id))
      // The importer keeps a workspace within this many tracked competitors; the bound is the list's own.
      .limit(LIST.trackedCompetitors),
  );
  return rows.map(([id, doc]) => withUrl(doc, appLinks.competitor(base, id)));
}

/** One tracked competitor's dossier (read cache; shared: do not change it). */
export function getCompetitor(db: Db, orgId: number, id: number, base: string): Promise<Obj | undefined> {
  return cacheOf(db).get(JSON.stringify(["competitor", orgId, id, base]), () =>
    loadCompetitor(db, orgId, id, base),
  );
}

async function loadCompetitor(db: Db, orgId: number, id: number, base: string): Promise<Obj | undefined> {
  const [row] = await db
    .select({ doc: competitors.detailDoc, battlecardId: competitors.battlecardId })
    .from(competitors)
    .where(and(eq(competitors.id, id), eq(competitors.orgId, orgId), listed));
  if (!row) return undefined;
  const o = JSON.parse(row.doc) as Obj;
  await withSignalConflicts(db, orgId, id, o);
  o.links = {
    signals: `/api/v1/signals?competitor_id=${id}`,
    ...(row.battlecardId !== null ? { battlecard_id: row.battlecardId } : {}),
    url: appLinks.competitor(base, id),
  };
  return o;
}

/** The round conflicts the competitor's open funding signals show beside those its funding read records (a
 * round two signals, or a signal and the read, size differently), in `reads.funding.conflicts`. */
async function withSignalConflicts(db: Db, orgId: number, id: number, o: Obj): Promise<void> {
  const signals = await competitorFundingSignals(db, orgId, id);
  if (!signals.length) return;
  const reads = (o.reads ?? {}) as Obj;
  const funding = (reads.funding ?? {}) as {
    rounds?: (RoundStatement & { round: string })[];
    conflicts?: RoundConflict[];
  };
  const conflicts = roundConflicts(funding.conflicts ?? [], funding.rounds ?? [], signals);
  if (!conflicts.length) return;
  o.reads = { ...reads, funding: { ...funding, conflicts } };
}

/** The names of a workspace's competitors by id (at most 500), for sentences that name them. */
export async function competitorNames(db: Db, orgId: number): Promise<Map<number, string>> {
  const rows = await db
    .select({ id: competitors.id, name: competitors.name })
    .from(competitors)
    .where(eq(competitors.orgId, orgId))
    .limit(500);
  return new Map(rows.map((x) => [x.id, x.name]));
}

/** A competitor's record (its state) in the workspace, undefined when it has no such competitor. */
export async function competitorRecord(db: Db, orgId: number, id: number): Promise<Obj | undefined> {
  const [row] = await db
    .select({ state: competitors.state })
    .from(competitors)
    .where(and(eq(competitors.orgId, orgId), eq(competitors.id, id)))
    .limit(1);
  return row ? (JSON.parse(row.state) as Obj) : undefined;
}
