import { and, desc, eq, gte, inArray, lt, type Placeholder, type SQL, sql } from "drizzle-orm";
import { searchText } from "../../domain/searchText.ts";
import type { Db } from "../client.ts";
import { signals } from "../schema.ts";
import { cacheOf, JsonList } from "./cache.ts";
import { appLinks, docListJson, docListSql, withUrl } from "./links.ts";
import { type BuiltSelect, builtSelect, selectBuilt, selectSql } from "./localReader.ts";

type Obj = Record<string, unknown>;

export interface SignalFilter {
  competitorId?: number;
  severity?: string;
  /** Normalized UTC ISO string. */
  since?: string;
  /** Only signals first seen before this normalized UTC ISO string. */
  until?: string;
  category?: string;
  type?: string;
  q?: string;
  /** Only the signals this actor saved (save_signal); each caller sees only their own list. */
  savedBy?: string;
  limit: number;
  offset: number;
}

/** The trigram index needs three characters; shorter terms fall back to a GLOB within the org. SQLite's
 * lower() and LIKE fold ASCII only, while the trigram index folds Unicode case, so the fallback spells out
 * each character's case variants as a GLOB class (`ü` → `[üÜ]`) and quotes GLOB's own metacharacters.
 * Text outside the search rule (domain/searchText.ts: control characters) matches nothing; every entry
 * point refuses it before it gets here. */
function textMatch(raw: string): SQL {
  const checked = searchText(raw);
  if (!checked.ok) return sql`0`;
  const q = checked.text;
  if ([...q].length >= 3) {
    const phrase = `"${q.replaceAll('"', '""')}"`;
    return sql`${signals.id} IN (SELECT rowid FROM signals_fts WHERE signals_fts MATCH ${phrase})`;
  }
  const glob = `*${[...q]
    .map((ch) => {
      const variants = new Set([ch, ch.toLowerCase(), ch.toUpperCase()].filter((v) => [...v].length === 1));
      if (variants.size > 1) return `[${[...variants].join("")}]`;
      return "*?[".includes(ch) ? `[${ch}]` : ch;
    })
    .join("")}*`;
  return sql`(${signals.title} GLOB ${glob} OR coalesce(${signals.summary}, '') GLOB ${glob})`;
}

/** Open signals of tracked competitors, newest first (signals_feed / _by_competitor / _by_severity indexes).
 * Served from the read cache while the database is unchanged (cache.ts); the objects are shared: do not change them. */
export async function listSignals(db: Db, orgId: number, f: SignalFilter, base: string): Promise<Obj[]> {
  return (await listSignalsJson(db, orgId, f, base)).items;
}

/** listSignals as JSON text (the read API sends it as it is). */
export function listSignalsJson(db: Db, orgId: number, f: SignalFilter, base: string): Promise<JsonList> {
  return cacheOf(db).get(listKey(orgId, f, base), () => loadSignals(db, orgId, f, base));
}

/** The cache key of a list, kept with the filter object for a caller that reuses one (the read API does). */
const listKeys = new WeakMap<SignalFilter, { orgId: number; base: string; key: string }>();
function listKey(orgId: number, f: SignalFilter, base: string): string {
  const kept = listKeys.get(f);
  if (kept?.orgId === orgId && kept.base === base) return kept.key;
  const key = JSON.stringify([
    "signals",
    orgId,
    f.competitorId,
    f.severity,
    f.since,
    f.until,
    f.category,
    f.type,
    f.q,
    f.savedBy,
    f.limit,
    f.offset,
    base,
  ]);
  listKeys.set(f, { orgId, base, key });
  return key;
}

type Value<T> = T | Placeholder;

/** The list query. Given placeholders instead of values it is built once per combination of filters and
 * run with each call's values (building it with drizzle cost more than running it). */
function listQuery(
  db: Db,
  orgId: Value<number>,
  f: {
    competitorId?: Value<number>;
    severity?: Value<string>;
    since?: Value<string>;
    until?: Value<string>;
    category?: Value<string>;
    type?: Value<string>;
    q?: string;
    savedBy?: Value<string>;
    limit: Value<number>;
    offset: Value<number>;
  },
) {
  const where: SQL[] = [eq(signals.orgId, orgId), sql`${signals.listed} = 1`];
  if (f.competitorId !== undefined) where.push(eq(signals.competitorId, f.competitorId));
  if (f.severity !== undefined) where.push(eq(signals.severity, f.severity));
  if (f.since !== undefined) where.push(gte(signals.firstSeenAt, f.since));
  if (f.until !== undefined) where.push(lt(signals.firstSeenAt, f.until));
  // The same expressions as the signals_by_category / signals_by_type indexes.
  if (f.category !== undefined) where.push(sql`json_extract(${signals.doc}, '$.category') = ${f.category}`);
  if (f.type !== undefined) where.push(sql`json_extract(${signals.doc}, '$.type') = ${f.type}`);
  if (f.q !== undefined && f.q !== "") where.push(textMatch(f.q));
  if (f.savedBy !== undefined)
    where.push(
      sql`${signals.id} IN (SELECT signal_id FROM saved_signals WHERE org_id = ${orgId} AND actor = ${f.savedBy})`,
    );
  return db
    .select({ id: signals.id, doc: signals.doc })
    .from(signals)
    .where(and(...where))
    .orderBy(desc(signals.firstSeenAt), desc(signals.id))
    .limit(f.limit as number)
    .offset(f.offset as number);
}

const built = new Map<string, BuiltSelect>();
const P = (name: string) => sql.placeholder(name);

async function loadSignals(db: Db, orgId: number, f: SignalFilter, base: string): Promise<JsonList> {
  let rows: unknown[][];
  if (f.q !== undefined && f.q !== "") {
    const { sql, params } = listQuery(db, orgId, f).toSQL();
    rows = await selectSql(db, docListSql(sql), params);
  } else {
    const has = (v: unknown) => (v === undefined ? "0" : "1");
    const shape =
      has(f.competitorId) +
      has(f.severity) +
      has(f.since) +
      has(f.until) +
      has(f.category) +
      has(f.type) +
      has(f.savedBy);
    let query = built.get(shape);
    if (query === undefined) {
      const p = <T>(name: string, v: T) => (v === undefined ? undefined : P(name));
      const { sql, params } = listQuery(db, P("orgId"), {
        competitorId: p("competitorId", f.competitorId),
        severity: p("severity", f.severity),
        since: p("since", f.since),
        until: p("until", f.until),
        category: p("category", f.category),
        type: p("type", f.type),
        savedBy: p("savedBy", f.savedBy),
        limit: P("limit"),
        offset: P("offset"),
      }).toSQL();
      query = builtSelect({ sql: docListSql(sql), params });
      built.set(shape, query);
    }
    rows = await selectBuilt(db, query, { orgId, ...f });
  }
  return new JsonList(docListJson(rows[0], (id) => appLinks.signal(base, id)));
}

/** One signal by id, open or closed, of a tracked competitor (read cache; shared: do not change it). */
export function getSignal(db: Db, orgId: number, id: number, base: string): Promise<Obj | undefined> {
  return cacheOf(db).get(JSON.stringify(["signal", orgId, id, base]), () => loadSignal(db, orgId, id, base));
}

async function loadSignal(db: Db, orgId: number, id: number, base: string): Promise<Obj | undefined> {
  const [row] = await db
    .select({ doc: signals.doc })
    .from(signals)
    .where(and(eq(signals.id, id), eq(signals.orgId, orgId), sql`${signals.visible} = 1`));
  return row ? withUrl(row.doc, appLinks.signal(base, id)) : undefined;
}

/** Visible signals among the given ids (for digests and tools). */
export async function getSignals(db: Db, orgId: number, ids: number[], base: string): Promise<Obj[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: signals.id, doc: signals.doc })
    .from(signals)
    .where(and(eq(signals.orgId, orgId), inArray(signals.id, ids), sql`${signals.visible} = 1`));
  return rows.map((r) => withUrl(r.doc, appLinks.signal(base, r.id)));
}
