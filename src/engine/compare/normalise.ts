// PageExtract (and feed items, job lists, structured fields) → Snapshot: cleaned and masked text, lists and cards
// as sorted sets, widgets dropped, JSON-LD flattened, deterministic serialisation whose SHA-256 is the
// snapshot's identity (docs/engine/compare.md).
import type { Block, PageExtract, Plan } from "../extract/page.ts";
import { clean, MASK, maskText, maskUrl } from "./mask.ts";
import type {
  FeedItemInput,
  JobInput,
  SnapBlock,
  SnapFeedItem,
  SnapJob,
  SnapLink,
  SnapPlan,
  Snapshot,
} from "./types.ts";

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
/** Sorted by a key computed once per element. */
function sortedBy<T>(xs: T[], key: (x: T) => string): T[] {
  return xs
    .map((x) => [key(x), x] as const)
    .sort((a, b) => cmp(a[0], b[0]))
    .map(([, x]) => x);
}
const sortedSet = (xs: string[]) => [...new Set(xs.filter((x) => x !== ""))].sort(cmp);
/** A text a normalisation masked: the masked text, the text the page wrote, and the texts next to it in the
 * document (a date line standing alone is told apart from the others by them). */
export interface Original {
  m: string;
  o: string;
  before?: string;
  after?: string;
}
export type Originals = Original[];
let collecting: { list: Originals; last?: string; open?: Original } | undefined;
/** Masks a text, keeping what the page wrote when masking replaced something (withOriginals collects it). */
function masked(s: string | undefined, opts: Parameters<typeof maskText>[1]): string {
  const m = maskText(s ?? "", opts);
  if (!collecting || !m) return m;
  if (collecting.open) {
    collecting.open.after = m;
    collecting.open = undefined;
  }
  if (m.includes("⟨")) {
    const kept: Original = { m, o: clean(s ?? "") };
    if (collecting.last) kept.before = collecting.last;
    collecting.list.push(kept);
    collecting.open = kept;
  }
  collecting.last = m;
  return m;
}
/** Runs a normalisation and returns the texts it masked too (they are not part of the snapshot: its hash stays
 * the same), so that what a person reads can quote the page's own words. */
export function withOriginals<T>(fn: () => T): { result: T; originals: Originals } {
  const outer = collecting;
  const mine: NonNullable<typeof collecting> = { list: [] };
  collecting = mine;
  try {
    return { result: fn(), originals: mine.list };
  } finally {
    collecting = outer;
  }
}
/** Paragraph text: counters and bare big numbers masked. */
const para = (s: string | undefined) => masked(s, { counters: true, bare: true });
/** Headings, list and card items: counters masked. */
const text = (s: string | undefined) => masked(s, { counters: true });
/** Table cells, plan features, meta: no counters (quotas and limits are material). */
const plain = (s: string | undefined) => masked(s, {});
/** JSON-LD and structured fields: dates are facts there (foundingDate); the noisy ones are dropped by key. */
const fact = (s: string | undefined) => masked(s, { dates: false });

// Consent banners and chat widgets, when extraction let one through.
const LINES = /\n\s*\n|\n/;
const SPACES_AND_BARS = /[\s|]/g;
const CONSENT_WORDS = /\b(?:cookies?|consent|gdpr|ccpa|tracking technologies)\b/i;
const CONSENT_ACTIONS =
  /\b(?:accept|agree|allow|reject|decline|preferences|settings|manage|opt[- ]out|we use|we and our partners)\b/i;
const CHAT_WIDGET =
  /^(?:chat with us|live chat|we(?:'|’| a)re (?:online|here|away)|hi there|hey there|need help\??|ask us anything|questions\? (?:chat|talk|ask)|send us a message|powered by (?:intercom|drift|crisp|tawk|zendesk|hubspot|livechat))\b/i;
const BUTTON_ONLY =
  /^(?:accept(?: all)?(?: cookies)?|reject(?: all)?(?: cookies)?|decline(?: all)?|deny|allow(?: all)?(?: cookies)?|manage (?:preferences|cookies|settings|options)|cookie settings|customi[sz]e|only (?:necessary|essential)(?: cookies)?|necessary only|save (?:preferences|settings)|got it|ok(?:ay)?|dismiss|close|i agree|agree)$/i;
const WIDGET_HEADING =
  /^(?:cookie (?:preferences|settings|consent|notice)|manage cookies|we value your privacy|your privacy(?: choices)?|privacy (?:preference center|settings)|this (?:website|site) uses cookies)$/i;

function isConsentText(t: string): boolean {
  return (
    (t.length < 700 && CONSENT_WORDS.test(t) && CONSENT_ACTIONS.test(t)) ||
    (t.length < 200 && CHAT_WIDGET.test(t))
  );
}

function blockText(b: Block): string {
  switch (b.kind) {
    case "heading":
    case "text":
      return b.text;
    case "list":
      return b.items.join(" ");
    case "table":
      return b.rows.map((r) => r.join(" ")).join(" ");
    case "card":
      return `${b.title} ${b.items.join(" ")}`;
  }
}

function isWidget(b: Block): boolean {
  const raw = blockText(b);
  if (raw.length > 1400) return false;
  const t = clean(raw);
  if (b.kind === "heading") return WIDGET_HEADING.test(t);
  if (b.kind === "list" || b.kind === "card") {
    const items = b.items.map(clean).filter(Boolean);
    if (items.length > 0 && items.every((i) => BUTTON_ONLY.test(i))) return true;
  }
  return isConsentText(t);
}

function normaliseBlocks(blocks: Block[], fallbackText: string): SnapBlock[] {
  const out: SnapBlock[] = [];
  let section: string | undefined;
  let skipSection = false;
  const sections = new Map<string, string | undefined>();
  const source: Block[] =
    blocks.length > 0
      ? blocks
      : fallbackText
          .split(LINES)
          .map((t) => ({ kind: "text" as const, text: t }))
          .filter((b) => clean(b.text) !== "");
  for (const b of source) {
    if (b.kind === "heading") {
      const h = text(b.text);
      skipSection = WIDGET_HEADING.test(clean(b.text));
      if (skipSection || !h) continue;
      section = h;
      out.push({ t: "h", level: b.level, text: h });
      continue;
    }
    if (skipSection || isWidget(b)) continue;
    let sec = section;
    if (b.section !== undefined) {
      if (!sections.has(b.section)) sections.set(b.section, text(b.section) || undefined);
      sec = sections.get(b.section);
    }
    switch (b.kind) {
      case "text": {
        const t = para(b.text);
        if (t) out.push(withSection({ t: "p", text: t }, sec));
        break;
      }
      case "list": {
        const items = sortedSet(b.items.map(text).filter((i) => !BUTTON_ONLY.test(i)));
        if (items.length) out.push(withSection({ t: "ul", items }, sec));
        break;
      }
      case "table": {
        const rows = b.rows
          .map((r) => r.map(plain).join(" | "))
          .filter((r) => r.replace(SPACES_AND_BARS, "") !== "");
        if (!rows.length) break;
        const [head, ...body] = rows;
        const block: SnapBlock = body.length
          ? { t: "table", head, rows: sortedSet(body) }
          : { t: "table", rows: [head] };
        out.push(withSection(block, sec));
        break;
      }
      case "card": {
        const title = text(b.title);
        const items = sortedSet(b.items.map(text));
        if (title || items.length) out.push(withSection({ t: "card", title, items }, sec));
        break;
      }
    }
  }
  return sortCardRuns(out);
}

function withSection<T extends SnapBlock>(b: T, section: string | undefined): T {
  if (section && b.t !== "h") (b as { section?: string }).section = section;
  return b;
}

/** Cards next to each other (a pricing grid, a feature grid) are a set: sorted by content. */
function sortCardRuns(blocks: SnapBlock[]): SnapBlock[] {
  const out: SnapBlock[] = [];
  let run: SnapBlock[] = [];
  const flush = () => {
    out.push(...sortedBy(run, serialise));
    run = [];
  };
  for (const b of blocks) {
    if (b.t === "card" && (run.length === 0 || (run[0] as { section?: string }).section === b.section)) {
      run.push(b);
      continue;
    }
    flush();
    if (b.t === "card") run.push(b);
    else out.push(b);
  }
  flush();
  return out;
}

export const META_KEYS = new Set([
  "description",
  "keywords",
  "author",
  "application-name",
  "canonical",
  "og:title",
  "og:description",
  "og:site_name",
  "og:url",
  "twitter:title",
  "twitter:description",
  "twitter:site",
]);

function normaliseMeta(meta: Record<string, string>): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(meta ?? {})) {
    const key = k.toLowerCase();
    if (!META_KEYS.has(key) || typeof v !== "string") continue;
    const value = key === "canonical" || key === "og:url" ? maskUrl(v) : plain(v);
    if (value) out[key] = value;
  }
  return Object.keys(out).length ? out : undefined;
}

const JSONLD_DROP = new Set([
  "@context",
  "@id",
  "dateModified",
  "uploadDate",
  "aggregateRating",
  "interactionStatistic",
  "review",
  "reviews",
  "ratingCount",
  "reviewCount",
  "commentCount",
  "wordCount",
  "userInteractionCount",
  "potentialAction",
  "image",
  "thumbnailUrl",
  "thumbnail",
  "primaryImageOfPage",
  "breadcrumb",
  "mainEntityOfPage",
  "isPartOf",
  "position",
]);
const HTTP_URL = /^https?:\/\//i;
const JSONLD_SKIP_TYPES = new Set(["BreadcrumbList", "SearchAction", "ImageObject", "WebPage", "ReadAction"]);

function typeName(o: Record<string, unknown>): string {
  const t = o["@type"];
  if (Array.isArray(t)) return t.map(String).join(",");
  return typeof t === "string" && t ? t : "Thing";
}

function scalar(v: unknown, mask: (s: string) => string = fact): string {
  if (typeof v === "string") return HTTP_URL.test(v.trim()) ? maskUrl(v) : mask(v);
  return String(v);
}

function flattenJsonLd(objs: Record<string, unknown>[]): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  const kept = sortedBy(
    objs.filter((o) => o && typeof o === "object" && !JSONLD_SKIP_TYPES.has(typeName(o))),
    serialise,
  );
  const perType = new Map<string, number>();
  for (const o of kept) perType.set(typeName(o), (perType.get(typeName(o)) ?? 0) + 1);
  const unnamed = new Map<string, number>();
  for (const o of kept) {
    const type = typeName(o);
    const name = typeof o.name === "string" ? clean(o.name) : "";
    let prefix = type;
    if ((perType.get(type) ?? 0) > 1) {
      // Several objects of one type: by name, else by place in content order (page order is not a change).
      const n = unnamed.get(type) ?? 0;
      if (!name) unnamed.set(type, n + 1);
      prefix = `${type}[${name || `#${n + 1}`}]`;
    }
    walk(o, prefix, out, 0);
  }
  return Object.keys(out).length ? out : undefined;
}

function walk(
  v: unknown,
  path: string,
  out: Record<string, string>,
  depth: number,
  mask: (s: string) => string = fact,
): void {
  if (v === null || v === undefined || depth > 6) return;
  if (Array.isArray(v)) {
    const prims = v.filter((x) => x === null || typeof x !== "object");
    const objs = v.filter((x) => x !== null && typeof x === "object") as Record<string, unknown>[];
    if (prims.length) {
      const vals = sortedSet(prims.map((x) => scalar(x, mask)));
      if (vals.length) out[path] = vals.join(" | ");
    }
    // Named members by name; the others by their place in content order (their order on the page is not a change).
    let n = 0;
    for (const o of sortedBy(objs, serialise)) {
      const key = typeof o.name === "string" && clean(o.name) ? clean(o.name) : String(n++);
      walk(o, `${path}[${key}]`, out, depth + 1, mask);
    }
    return;
  }
  if (typeof v === "object") {
    const o = v as Record<string, unknown>;
    if (depth > 0 && JSONLD_SKIP_TYPES.has(typeName(o))) return;
    for (const k of Object.keys(o).sort(cmp)) {
      if (JSONLD_DROP.has(k) || (k === "@type" && depth === 0)) continue;
      walk(o[k], `${path}.${k}`, out, depth + 1, mask);
    }
    return;
  }
  const s = scalar(v, mask);
  if (s !== "") out[path] = s;
}

/** "12.3k", "4M+" in a link's text. */
const SHORT_COUNT = /\b\d+(?:[.,]\d+)?\s?[kKmM]\b\+?/g;

function normalisePages(links: PageExtract["links"]): SnapLink[] | undefined {
  const byUrl = new Map<string, string>();
  for (const l of [...(links?.nav ?? []), ...(links?.footer ?? [])]) {
    if (!HTTP_URL.test(l.url)) continue;
    const url = maskUrl(l.url);
    // Link texts only name the page (pages compare by URL); counts in them ("Star 12.3k") are masked.
    const t = para(l.text).replace(SHORT_COUNT, MASK.count);
    const had = byUrl.get(url);
    if (had === undefined || (t && (had === "" || t < had))) byUrl.set(url, t);
  }
  const out = [...byUrl.entries()].sort(([a], [b]) => cmp(a, b)).map(([url, t]) => ({ url, text: t }));
  return out.length ? out : undefined;
}

function normalisePlans(plans: Plan[]): SnapPlan[] | undefined {
  const out = (plans ?? [])
    .map((p) => {
      const plan: SnapPlan = {
        name: clean(p.name),
        price: typeof p.price === "number" && Number.isFinite(p.price) ? p.price : null,
        features: sortedSet((p.features ?? []).map((f) => plain(f))),
      };
      if (p.currency) plan.currency = p.currency.toUpperCase();
      if (p.period) plan.period = p.period;
      if (p.unit) plan.unit = clean(p.unit);
      if (p.custom) plan.custom = true;
      if (p.starting) plan.starting = true;
      if (typeof p.amount === "number" && Number.isFinite(p.amount)) plan.amount = p.amount;
      if (p.annual && Number.isFinite(p.annual.price))
        plan.annual = { price: p.annual.price, amount: p.annual.amount };
      return plan;
    })
    .filter((p) => p.name);
  out.sort((a, b) => cmp(a.name.toLowerCase(), b.name.toLowerCase()) || cmp(serialise(a), serialise(b)));
  return out.length ? out : undefined;
}

function normaliseJobList(jobs: JobInput[]): SnapJob[] | undefined {
  const out = (jobs ?? [])
    .map((j) => {
      const job: SnapJob = { title: plain(j.title) };
      if (j.department && clean(j.department)) job.department = plain(j.department);
      if (j.location && clean(j.location)) job.location = plain(j.location);
      if (j.url) job.url = maskUrl(j.url);
      return job;
    })
    .filter((j) => j.title);
  return out.length ? sortedBy(out, serialise) : undefined;
}

const setOrUndefined = (xs: string[] | undefined) => {
  const s = sortedSet((xs ?? []).map((x) => plain(x)));
  return s.length ? s : undefined;
};

/** Drops undefined members so the serialisation (and the hash) only holds what is there. */
function compact<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/** A page's snapshot. Pure and deterministic: the same extract (up to noise) gives the same serialisation. */
export function normalise(extract: PageExtract): Snapshot {
  const hero = extract.hero?.headline
    ? compact({
        headline: text(extract.hero.headline),
        subheadline: extract.hero.subheadline ? text(extract.hero.subheadline) || undefined : undefined,
      })
    : undefined;
  const blocks = normaliseBlocks(extract.blocks ?? [], extract.text ?? "");
  return compact({
    v: 1 as const,
    kind: "page" as const,
    url: extract.url,
    title: extract.title ? plain(extract.title) || undefined : undefined,
    lang: extract.lang ? clean(extract.lang).toLowerCase() || undefined : undefined,
    meta: normaliseMeta(extract.meta),
    fields: flattenJsonLd(extract.jsonLd ?? []),
    hero,
    blocks: blocks.length ? blocks : undefined,
    pages: normalisePages(extract.links),
    plans: normalisePlans(extract.plans),
    features: setOrUndefined(extract.features),
    integrations: setOrUndefined(extract.integrations),
    jobs: normaliseJobList(extract.jobs),
  });
}

/** A feed's snapshot: its items by id (a feed only shows its latest items; compare reports new ones). */
export function normaliseFeed(url: string, items: FeedItemInput[], title?: string): Snapshot {
  const seen = new Set<string>();
  const out: SnapFeedItem[] = [];
  for (const i of items) {
    const id = clean(i.id || i.url || i.title || "");
    if (!id || seen.has(id)) continue;
    seen.add(id);
    out.push(
      compact({
        id,
        title: plain(i.title),
        url: i.url ? maskUrl(i.url) : undefined,
        published: i.published ? clean(i.published) : undefined,
        summary: i.summary ? plain(i.summary).slice(0, 500) || undefined : undefined,
      }),
    );
  }
  out.sort((a, b) => cmp(a.id, b.id));
  return compact({
    v: 1 as const,
    kind: "feed" as const,
    url,
    title: title ? plain(title) || undefined : undefined,
    items: out.length ? out : undefined,
  });
}

/** A job board's snapshot (or a careers page's list read on its own). */
export function normaliseJobs(url: string, jobs: JobInput[]): Snapshot {
  return compact({ v: 1 as const, kind: "jobs" as const, url, jobs: normaliseJobList(jobs) });
}

/** Any other structured source (security.txt fields, a profile): flattened fields, masked (dates too: a
 * security.txt Expires moves every year). */
export function normaliseStructured(url: string, fields: Record<string, unknown>): Snapshot {
  const out: Record<string, string> = {};
  for (const k of Object.keys(fields).sort(cmp)) walk(fields[k], k, out, 1, plain);
  return compact({
    v: 1 as const,
    kind: "structured" as const,
    url,
    fields: Object.keys(out).length ? out : undefined,
  });
}

/** What JSON.stringify escapes in a string: a quote, a backslash, a control character, a lone surrogate (a
 * string with any surrogate goes through JSON.stringify). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what JSON escapes
const ESCAPED_IN_JSON = /["\\\u0000-\u001f\ud800-\udfff]/;

/** JSON with object keys sorted at every level and undefined members left out: the snapshot's stable
 * serialisation (hand-written: it runs on every check of every page). A string that needs no escape is written
 * as it is, without a call to JSON.stringify per string (a third of the serialisation's time). */
export function serialise(value: unknown): string {
  if (typeof value === "string") return ESCAPED_IN_JSON.test(value) ? JSON.stringify(value) : `"${value}"`;
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) {
    let out = "[";
    for (let i = 0; i < value.length; i++) {
      if (i) out += ",";
      const v = value[i];
      out += v === undefined || typeof v === "function" ? "null" : serialise(v);
    }
    return `${out}]`;
  }
  const o = value as Record<string, unknown>;
  const keys = Object.keys(o);
  if (keys.length > 1) keys.sort(cmp);
  let out = "{";
  let first = true;
  for (const k of keys) {
    const v = o[k];
    if (v === undefined || typeof v === "function") continue;
    out += `${first ? "" : ","}${serialise(k)}:${serialise(v)}`;
    first = false;
  }
  return `${out}}`;
}

/** SHA-256 (hex) of the serialisation: the key of the snapshot's blob. */
export function snapshotHash(snapshot: Snapshot | string): string {
  const s = typeof snapshot === "string" ? snapshot : serialise(snapshot);
  return new Bun.CryptoHasher("sha256").update(s).digest("hex");
}
