// What a competitor's page reads besides its dossier: when its sources were last checked, its newest hiring
// trend signal, and its timeline of signals (open and closed) with the categories the timeline can filter by.
// Scoped by org; bounded; each walks one competitor's rows (the snapshot sources' unique key, signals_of_competitor).
import { LIST } from "../../domain/limits.ts";
import type { Exec } from "../client.ts";
import type { CompareSignal } from "./compare.ts";
import { appLinks, withUrl } from "./links.ts";

type Obj = Record<string, unknown>;
/** How many signals the timeline shows. */
export const TIMELINE_MAX = 50;

/** The newest check of any of the competitor's sources (ISO time), if it was ever checked. */
export async function lastCheckedAt(
  client: Exec,
  orgId: number,
  competitorId: number,
): Promise<string | undefined> {
  const r = await client.execute({
    sql: "SELECT max(last_checked_at) AS at FROM snapshot_sources WHERE org_id = ? AND competitor_id = ?",
    args: [orgId, competitorId],
  });
  const at = r.rows[0]?.at;
  return typeof at === "string" ? at : undefined;
}

/** How many of a competitor's sources its page lists. */
export const SOURCES_MAX = 100;

/** A source research chose to watch, and how its checks went. */
export interface WatchedSource {
  url: string;
  /** The source's kind as research named it (a page's kind, `github_releases`, `job_board:greenhouse` …). */
  kind: string;
  lastCheckedAt?: string;
  lastChangedAt?: string;
  failures: number;
  lastError?: string;
}

/** The competitor's watched sources in research's order, each with its last check (none before the first
 * cycle), at most SOURCES_MAX. */
export async function watchedSources(
  client: Exec,
  orgId: number,
  competitorId: number,
): Promise<WatchedSource[]> {
  const r = await client.execute({
    sql: `SELECT r.url, r.kind, max(s.last_checked_at) AS checked, max(s.last_changed_at) AS changed,
            coalesce(max(s.failures), 0) AS failures, max(s.last_error) AS error
          FROM research_sources r
          LEFT JOIN snapshot_sources s ON s.org_id = r.org_id AND s.competitor_id = r.competitor_id AND s.url = r.url
          WHERE r.org_id = ? AND r.competitor_id = ?
          GROUP BY r.rowid ORDER BY r.rowid LIMIT ?`,
    args: [orgId, competitorId, SOURCES_MAX],
  });
  const str = (v: unknown) => (typeof v === "string" && v ? v : undefined);
  return r.rows.map((row) => ({
    url: String(row.url),
    kind: String(row.kind),
    lastCheckedAt: str(row.checked),
    lastChangedAt: str(row.changed),
    failures: Number(row.failures),
    lastError: str(row.error),
  }));
}

/** The newest open hiring surge or slowdown of the competitor, with the counts the engine recorded. */
export async function hiringTrend(
  client: Exec,
  orgId: number,
  competitorId: number,
): Promise<CompareSignal | undefined> {
  const r = await client.execute({
    sql: `SELECT s.id, s.title, s.first_seen_at AS at, json_extract(s.doc, '$.type') AS type,
            e.value_before AS before, e.value_after AS after
          FROM signals s LEFT JOIN engine_signals e ON e.id = s.id AND e.org_id = s.org_id
          WHERE s.org_id = ? AND s.competitor_id = ? AND s.listed = 1
            AND json_extract(s.doc, '$.type') IN ('hiring_surge', 'hiring_slowdown')
          ORDER BY e.value_after IS NOT NULL DESC, s.first_seen_at DESC, s.id DESC LIMIT 1`,
    args: [orgId, competitorId],
  });
  const row = r.rows[0];
  if (!row) return undefined;
  const s = (v: unknown) => (v === null || v === undefined ? null : String(v));
  return {
    id: Number(row.id),
    title: String(row.title),
    at: String(row.at),
    type: String(row.type),
    before: s(row.before),
    after: s(row.after),
  };
}

/** The competitor's signals, open and closed, newest first (optionally of one category), and its categories. */
export async function timeline(
  client: Exec,
  orgId: number,
  competitorId: number,
  category: string | undefined,
  base: string,
): Promise<{ signals: Obj[]; categories: string[] }> {
  const [rows, cats] = await Promise.all([
    client.execute({
      sql: `SELECT id, doc FROM signals WHERE competitor_id = ? AND org_id = ? AND visible = 1
            ${category ? "AND json_extract(doc, '$.category') = ?" : ""}
            ORDER BY first_seen_at DESC, id DESC LIMIT ?`,
      args: category ? [competitorId, orgId, category, TIMELINE_MAX] : [competitorId, orgId, TIMELINE_MAX],
    }),
    client.execute({
      sql: `SELECT DISTINCT json_extract(doc, '$.category') AS c FROM signals
            WHERE competitor_id = ? AND org_id = ? AND visible = 1 AND json_extract(doc, '$.category') IS NOT NULL
            ORDER BY 1 LIMIT 50`,
      args: [competitorId, orgId],
    }),
  ]);
  return {
    signals: rows.rows.map((r) => withUrl(String(r.doc), appLinks.signal(base, Number(r.id)))),
    categories: cats.rows.map((r) => String(r.c)),
  };
}

/** Each tracked competitor's research state (the first-run page follows research with it), in the tracked order. */
export async function researchStates(
  client: Exec,
  orgId: number,
): Promise<{ id: number; name: string; website_url?: string; freshness: Obj }[]> {
  const r = await client.execute({
    sql: `SELECT id, name, website_url, json_extract(state, '$.freshness') AS freshness FROM competitors
          WHERE org_id = ? AND listed = 1 ORDER BY priority_sort, tracked_sort, id LIMIT ?`,
    args: [orgId, LIST.trackedCompetitors],
  });
  return r.rows.map((row) => ({
    id: Number(row.id),
    name: String(row.name),
    ...(row.website_url !== null ? { website_url: String(row.website_url) } : {}),
    freshness: typeof row.freshness === "string" ? (JSON.parse(row.freshness) as Obj) : {},
  }));
}
