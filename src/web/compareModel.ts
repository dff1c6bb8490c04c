// The compare table as data: one row per tracked competitor (and the workspace's own company), one cell per
// column with its text, the value it sorts by and the evidence it links to. The page and the CSV both read it.
// A value the stored data does not hold stays empty: nothing is estimated or filled in.
import type { CompareSource } from "../db/queries/compare.ts";
import { formatAmount } from "../domain/money.ts";
import { planRead } from "../domain/pricingRead.ts";
import { hiringPageUrl } from "../engine/sources/jobBoards.ts";
import { formatDay, formatTime, isHttpUrl } from "./http.ts";
import { cadenceHref } from "./releaseLinks.ts";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === "object" && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === "string" && v.trim() ? v.trim() : undefined);
const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
const url = (v: unknown): string | undefined => (isHttpUrl(v) ? v : undefined);

export interface Cell {
  text: string;
  /** What the column sorts by; undefined sorts last in either direction. */
  sort?: number | string;
  /** The evidence: a source page (http) or a page of the app (a path). */
  href?: string;
}

export interface CompareRow {
  id?: number;
  own: boolean;
  name: string;
  /** The competitor's page; the own company's website (when the profile has one). */
  href?: string;
  cells: Record<ColumnKey, Cell>;
}

export const COLUMNS = [
  ["entry_price", "Entry price"],
  ["plans", "Plans"],
  ["free_tier", "Free tier"],
  ["enterprise", "Enterprise tier"],
  ["integrations", "Integrations"],
  ["open_roles", "Open roles"],
  ["roles_trend", "Roles trend"],
  ["releases_90d", "Releases (90 days)"],
  ["latest_release", "Latest release"],
  ["release_cadence", "Release cadence"],
  ["npm_downloads", "npm downloads (last week)"],
  ["app_rating", "App Store rating"],
  ["chief_executive", "Chief executive"],
  ["sec_filer", "Files with the SEC"],
  ["last_change", "Last material change"],
  ["risk", "Risk"],
  ["opportunity", "Opportunity"],
] as const;
export type ColumnKey = (typeof COLUMNS)[number][0];
export const SORT_KEYS: readonly string[] = ["name", ...COLUMNS.map(([k]) => k)];

const EMPTY: Cell = { text: "" };
const LEVEL: Record<string, number> = { none: 0, low: 1, medium: 2, high: 3, critical: 4 };

/** A plan's price a month: its monthly amount, a yearly amount's monthly equivalent (domain/pricingRead.ts). */
function perMonth(p: Obj): number | undefined {
  if (p.period === "year") return num(p.monthly_equivalent) ?? (num(p.amount) ?? 0) / 12;
  return num(p.amount) ?? num(p.price);
}

const PER: Record<string, string> = { month: " a month", year: " a year" };

/** The cheapest paid plan (by its price a month), written as billed ("$24,000 a year"), else the stated entry text. */
function entryPrice(pricing: Obj, page: string | undefined): Cell {
  // Imported reads may hold a plan in the older shape (a yearly plan's month in `price`): read as the API names it.
  const plans = (Array.isArray(pricing.plans) ? pricing.plans : []).filter(isObj).map(planRead);
  let best: { p: Obj; monthly: number } | undefined;
  for (const p of plans) {
    const monthly = perMonth(p);
    if (monthly === undefined || monthly <= 0 || p.custom === true || p.period === "one_time") continue;
    if (!best || monthly < best.monthly) best = { p, monthly };
  }
  if (best) {
    const { p } = best;
    const amount = num(p.amount) ?? num(p.price) ?? best.monthly;
    const unit = str(p.unit);
    const text = `${p.starting === true ? "From " : ""}${formatAmount(amount, str(p.currency))}${
      PER[String(p.period)] ?? ""
    }${unit ? ` per ${unit}` : ""}${str(p.name) ? ` (${str(p.name)})` : ""}`;
    return { text, sort: best.monthly, href: page };
  }
  const stated = str(pricing.entry_price_text);
  return stated ? { text: stated, href: page } : EMPTY;
}

function yesNo(v: unknown, href: string | undefined): Cell {
  return typeof v === "boolean" ? { text: v ? "yes" : "no", sort: v ? 1 : 0, href } : EMPTY;
}

const signalHref = (id: number) => `/app/signals/${id}`;

/** A job board's page instead of its API address. */
const boardPage = (u: string | undefined) => (u ? hiringPageUrl(u) : undefined);

export function trend(h: CompareSource["hiring"]): Cell {
  if (!h) return EMPTY;
  const up = h.type === "hiring_surge";
  const before = h.before !== null && h.before !== undefined ? Number(h.before) : Number.NaN;
  const after = h.after !== null && h.after !== undefined ? Number(h.after) : Number.NaN;
  if (Number.isFinite(before) && Number.isFinite(after))
    return {
      text: `${after >= before ? "↑" : "↓"} ${before} → ${after}`,
      sort: after - before,
      href: signalHref(h.id),
    };
  return { text: up ? "↑ growing" : "↓ shrinking", sort: up ? 1 : -1, href: signalHref(h.id) };
}

const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);
const count = (n: number) => n.toLocaleString("en-US");
const validDay = (v: unknown): string | undefined => {
  const t = str(v);
  return t && Number.isFinite(Date.parse(t)) ? t : undefined;
};

/** The day of the newest release any channel records, linked to where it was read. */
function latestRelease(rel: Obj | undefined, page: string): Cell {
  const at = validDay(rel?.last_release_at);
  if (!rel || !at) return EMPTY;
  return {
    text: formatDay(at),
    sort: at,
    href: url(cadenceHref(rel.source)) ?? `${page}#read-release_cadence`,
  };
}

/** How far apart releases typically are (the median gap); fewer days sorts as the faster cadence. */
function releaseCadence(rel: Obj | undefined, page: string): Cell {
  const median = num(rel?.median_days_between);
  if (!rel || median === undefined) return EMPTY;
  return {
    text: median === 1 ? "every day" : `every ${count(median)} days`,
    sort: -median,
    href: url(cadenceHref(rel.source)) ?? `${page}#read-release_cadence`,
  };
}

/** The competitor's most downloaded npm package last week, named, linked to its npm page. */
function npmDownloads(packages: Obj | undefined, page: string): Cell {
  let best: { p: Obj; n: number } | undefined;
  for (const p of list(packages?.packages)) {
    const n = num(p.weekly_downloads);
    if (n !== undefined && (!best || n > best.n)) best = { p, n };
  }
  if (!best) return EMPTY;
  const name = str(best.p.name);
  return {
    text: `${count(best.n)}${name ? ` (${name}${str(best.p.deprecated) ? ", deprecated" : ""})` : ""}`,
    sort: best.n,
    href: url(best.p.page) ?? url(best.p.downloads_source) ?? `${page}#read-packages`,
  };
}

/** The App Store rating of the competitor's most rated app (its store page names it), with its count. */
function appRating(apps: Obj | undefined, page: string): Cell {
  let best: { a: Obj; rating: number; n: number } | undefined;
  for (const a of list(apps?.apps)) {
    const rating = num(a.rating);
    if (rating === undefined) continue;
    const n = num(a.rating_count) ?? 0;
    if (!best || n > best.n) best = { a, rating, n };
  }
  if (!best) return EMPTY;
  const ratings = num(best.a.rating_count);
  return {
    text: `${best.rating.toFixed(1)} of 5${ratings !== undefined ? ` (${count(ratings)} rating${ratings === 1 ? "" : "s"})` : ""}`,
    sort: best.rating,
    href: url(best.a.page) ?? `${page}#read-apps`,
  };
}

export function competitorRow(src: CompareSource): CompareRow {
  const c = src.doc;
  const reads = isObj(c.reads) ? c.reads : {};
  const ws = isObj(c.workspace) ? c.workspace : {};
  const pricing = isObj(reads.pricing) ? reads.pricing : undefined;
  const pricingPage = url(pricing?.page);
  const plans = (Array.isArray(pricing?.plans) ? pricing.plans : []).filter(isObj);
  const planNames = plans.map((p) => str(p.name)).filter((n): n is string => !!n);
  const integ = isObj(reads.integrations) ? reads.integrations : undefined;
  const integCount =
    num(integ?.count) ?? (Array.isArray(integ?.names) ? (integ.names as unknown[]).length : undefined);
  const hiring = isObj(reads.hiring) ? reads.hiring : undefined;
  const roles = num(hiring?.open_roles);
  const rel = isObj(reads.release_cadence) ? reads.release_cadence : undefined;
  const releases = num(rel?.releases_last_90_days);
  const page = `/app/competitors/${src.id}`;
  const funding = isObj(reads.funding) ? reads.funding : undefined;
  const ceo = isObj(funding?.chief_executive) ? funding.chief_executive : undefined;
  const regulation = isObj(reads.regulation) ? reads.regulation : undefined;
  const filer = isObj(regulation?.sec) ? regulation.sec : undefined;
  const level = (v: unknown): Cell => {
    const t = str(v);
    return t ? { text: t, sort: LEVEL[t.toLowerCase()] ?? -1, href: `${page}#company` } : EMPTY;
  };
  const m = src.material;
  return {
    id: src.id,
    own: false,
    name: str(c.name) ?? `Competitor ${src.id}`,
    href: page,
    cells: {
      entry_price: pricing ? entryPrice(pricing, pricingPage) : EMPTY,
      plans: planNames.length
        ? { text: `${planNames.length}: ${planNames.join(", ")}`, sort: planNames.length, href: pricingPage }
        : EMPTY,
      free_tier: yesNo(pricing?.free_tier, pricingPage),
      enterprise: yesNo(pricing?.has_enterprise, pricingPage),
      integrations:
        integCount !== undefined
          ? {
              text: String(integCount),
              sort: integCount,
              href: url(integ?.page) ?? `${page}#read-integrations`,
            }
          : EMPTY,
      open_roles:
        roles !== undefined
          ? {
              text: String(roles),
              sort: roles,
              href: boardPage(url(hiring?.source)) ?? `${page}#read-hiring`,
            }
          : EMPTY,
      roles_trend: trend(src.hiring),
      releases_90d:
        releases !== undefined
          ? {
              text: String(releases),
              sort: releases,
              href: url(cadenceHref(rel?.source)) ?? `${page}#read-release_cadence`,
            }
          : EMPTY,
      latest_release: latestRelease(rel, page),
      release_cadence: releaseCadence(rel, page),
      npm_downloads: npmDownloads(isObj(reads.packages) ? reads.packages : undefined, page),
      app_rating: appRating(isObj(reads.apps) ? reads.apps : undefined, page),
      chief_executive: str(ceo?.name)
        ? {
            text: str(ceo?.name) as string,
            sort: str(ceo?.name),
            href: url(ceo?.source) ?? `${page}#read-funding`,
          }
        : EMPTY,
      sec_filer: str(filer?.cik)
        ? {
            text: "yes",
            sort: 1,
            href: url(filer?.filings) ?? url(filer?.source) ?? `${page}#read-regulation`,
          }
        : EMPTY,
      last_change: m
        ? { text: `${formatTime(m.at).replace(/,.*$/, "")}: ${m.title}`, sort: m.at, href: signalHref(m.id) }
        : EMPTY,
      risk: level(ws.relative_risk),
      opportunity: level(ws.relative_opportunity),
    },
  };
}

/** The workspace's own company: its name and website from the profile. The profile states no pricing, hiring or
 * releases, so those cells stay empty. */
export function ownRow(name: string, website: string | null): CompareRow {
  const cells = Object.fromEntries(COLUMNS.map(([k]) => [k, EMPTY])) as Record<ColumnKey, Cell>;
  return { own: true, name, href: url(website), cells };
}

/** Rows sorted by a column; empty cells last in either direction; ties keep the tracked order. */
export function sortRows(rows: CompareRow[], key: string, dir: "asc" | "desc"): CompareRow[] {
  const value = (r: CompareRow) => (key === "name" ? r.name.toLowerCase() : r.cells[key as ColumnKey]?.sort);
  const sign = dir === "asc" ? 1 : -1;
  return rows
    .map((r, i) => ({ r, i, v: value(r) }))
    .sort((a, b) => {
      if (a.v === undefined || b.v === undefined)
        return a.v === undefined && b.v === undefined ? a.i - b.i : a.v === undefined ? 1 : -1;
      const c =
        typeof a.v === "number" && typeof b.v === "number"
          ? a.v - b.v
          : String(a.v).localeCompare(String(b.v));
      return c === 0 ? a.i - b.i : sign * c;
    })
    .map((x) => x.r);
}

/** A CSV field: quoted, and a leading formula character neutralised (spreadsheets run `=…`, `+…`, `-…`, `@…`). */
function csvField(v: string): string {
  const safe = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return `"${safe.replaceAll('"', '""')}"`;
}

/** The table as CSV (RFC 4180, CRLF): each column's value and, beside it, its evidence as an absolute URL. */
export function compareCsv(rows: CompareRow[], base: string): string {
  const abs = (h: string | undefined) => (h ? (h.startsWith("/") ? `${base}${h}` : h) : "");
  const header = ["Company", "Company URL"];
  for (const [, label] of COLUMNS) header.push(label, `${label} evidence`);
  const lines = [header.map(csvField).join(",")];
  for (const r of rows) {
    const out = [r.own ? `${r.name} (your company)` : r.name, abs(r.href)];
    for (const [k] of COLUMNS) out.push(r.cells[k].text, r.cells[k].text ? abs(r.cells[k].href) : "");
    lines.push(out.map(csvField).join(","));
  }
  return `${lines.join("\r\n")}\r\n`;
}
