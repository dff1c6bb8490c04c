// The shapes of stored records (as carried by *Recorded events) and their validation from import lines.
import { LIST, MAX_COMPANY_SIZE, PRIORITY, TEXT } from "./limits.ts";
import {
  arr,
  bool,
  httpUrl,
  InvalidInput,
  int,
  isObject,
  num,
  obj,
  oneOf,
  onlyKeys,
  prune,
  str,
  strings,
  ts,
} from "./validate.ts";
import { inVocabulary } from "./vocabulary.ts";

type Obj = Record<string, unknown>;

export const WATCH = ["core", "horizon"] as const;
export const TRACKING = ["active", "paused", "removed", "pending_approval"] as const;
export const SEVERITY = ["low", "medium", "high"] as const;
export type Severity = (typeof SEVERITY)[number];

/** The severities most severe first, the order lists and counts show them in. */
export const SEVERITY_HIGH_FIRST: readonly Severity[] = ["high", "medium", "low"];

/** The one severity order: high 3, medium 2, low 1; none or an unknown value 0. */
export function severityRank(s: string | null | undefined): number {
  return (SEVERITY as readonly (string | null | undefined)[]).indexOf(s) + 1;
}
export const URL_KEYS = [
  "pricing",
  "docs",
  "changelog",
  "careers",
  "linkedin",
  "github",
  "x",
  "youtube",
  "facebook",
  "instagram",
  "tiktok",
] as const;

export interface CompetitorRecord {
  name: string;
  description?: string;
  website_url?: string;
  category?: string;
  industry?: string;
  company_type?: string;
  business_model?: string;
  company_size?: number;
  founding_year?: number;
  headquarters?: { city?: string; country?: string };
  target_customer?: string;
  ownership?: { type?: string; parent_company_name?: string; public?: boolean; ticker?: string };
  urls?: Record<string, string>;
  watch: (typeof WATCH)[number];
  tracking: (typeof TRACKING)[number];
  priority?: number;
  tracked_since?: string;
  workspace?: { relative_risk?: string; relative_opportunity?: string; icp_overlap?: Obj };
  reads?: Obj;
  freshness?: { state_updated_at?: string; last_signal_at?: string; last_snapshot_at?: string };
  internal?: Obj;
}

export interface EvidenceItem {
  text?: string;
  source_title?: string;
  source_url?: string;
  observed_at?: string;
}

export interface SignalRecord {
  title: string;
  summary?: string;
  category?: string;
  type?: string;
  severity?: (typeof SEVERITY)[number];
  status: "open" | "closed";
  first_seen_at?: string;
  last_seen_at?: string;
  confidence?: number;
  topics?: string[];
  evidence: EvidenceItem[];
}

export interface DigestRecord {
  slug?: string;
  type: string;
  status: "generated" | "draft" | "failed";
  title?: string;
  headline?: string;
  tldr?: string;
  what_to_watch?: string;
  coverage_period_start?: string;
  coverage_period_end?: string;
  generated_at?: string;
  items?: Obj[];
  markdown?: string;
}

export interface BattlecardRecord {
  status: "generated" | "generating" | "failed";
  generated_at?: string;
  sections?: Obj;
  evidence?: Obj;
}

const READ_DOMAINS = [
  "positioning",
  "product",
  "pricing",
  "ai",
  "traffic",
  "market",
  "regulation",
  "packages",
  "apps",
  "tech_stack",
  "integrations",
  "release_cadence",
  "hiring",
  "funding",
  "fortnight",
];

function clean<T>(o: T): T {
  return (prune(o) ?? {}) as T;
}

export function parseCompetitor(o: Obj): CompetitorRecord {
  onlyKeys(
    o,
    [
      "name",
      "description",
      "website_url",
      "category",
      "industry",
      "company_type",
      "business_model",
      "company_size",
      "founding_year",
      "headquarters",
      "target_customer",
      "ownership",
      "urls",
      "watch",
      "tracking",
      "priority",
      "tracked_since",
      "workspace",
      "reads",
      "freshness",
      "internal",
    ],
    "competitor",
  );
  const hq = obj(o, "headquarters");
  if (hq) onlyKeys(hq, ["city", "country"], "headquarters");
  const own = obj(o, "ownership");
  if (own) onlyKeys(own, ["type", "parent_company_name", "public", "ticker"], "ownership");
  const urls = obj(o, "urls");
  const urlMap: Record<string, string> = {};
  if (urls) {
    onlyKeys(urls, URL_KEYS, "urls");
    for (const k of Object.keys(urls)) {
      const u = httpUrl(urls, k);
      if (u) urlMap[k] = u;
    }
  }
  const ws = obj(o, "workspace");
  if (ws) {
    onlyKeys(ws, ["relative_risk", "relative_opportunity", "icp_overlap"], "workspace");
    obj(ws, "icp_overlap");
  }
  const reads = obj(o, "reads");
  if (reads) {
    onlyKeys(reads, READ_DOMAINS, "reads");
    str(reads, "positioning", { max: TEXT.text });
    for (const d of READ_DOMAINS.filter((x) => x !== "positioning" && x !== "fortnight")) obj(reads, d);
    const f = obj(reads, "fortnight");
    if (f) {
      ts(f, "written_at");
      arr(f, "sentences", LIST.fortnightSentences);
    }
  }
  const fr = obj(o, "freshness");
  if (fr) onlyKeys(fr, ["state_updated_at", "last_signal_at", "last_snapshot_at"], "freshness");
  return clean<CompetitorRecord>({
    name: str(o, "name", { required: true, max: TEXT.name })!,
    description: str(o, "description", { max: TEXT.text }),
    website_url: httpUrl(o, "website_url"),
    category: str(o, "category", { max: TEXT.label }),
    industry: str(o, "industry", { max: TEXT.label }),
    company_type: str(o, "company_type", { max: TEXT.label }),
    business_model: str(o, "business_model", { max: TEXT.label }),
    company_size: int(o, "company_size", { min: 0, max: MAX_COMPANY_SIZE }),
    founding_year: int(o, "founding_year", { min: 1000, max: 3000 }),
    headquarters: hq && {
      city: str(hq, "city", { max: TEXT.label }),
      country: str(hq, "country", { max: TEXT.label }),
    },
    target_customer: str(o, "target_customer", { max: TEXT.text }),
    ownership: own && {
      type: str(own, "type", { max: TEXT.label }),
      parent_company_name: str(own, "parent_company_name", { max: TEXT.name }),
      public: bool(own, "public"),
      ticker: str(own, "ticker", { max: TEXT.label }),
    },
    urls: urlMap,
    watch: oneOf(o, "watch", WATCH, "core")!,
    tracking: oneOf(o, "tracking", TRACKING, "active")!,
    priority: int(o, "priority", PRIORITY),
    tracked_since: ts(o, "tracked_since"),
    workspace: ws && {
      relative_risk: str(ws, "relative_risk", { max: TEXT.label }),
      relative_opportunity: str(ws, "relative_opportunity", { max: TEXT.label }),
      icp_overlap: ws.icp_overlap as Obj | undefined,
    },
    reads: reads && {
      ...reads,
      fortnight: reads.fortnight && {
        ...(reads.fortnight as Obj),
        written_at: ts(reads.fortnight as Obj, "written_at"),
      },
    },
    freshness: fr && {
      state_updated_at: ts(fr, "state_updated_at"),
      last_signal_at: ts(fr, "last_signal_at"),
      last_snapshot_at: ts(fr, "last_snapshot_at"),
    },
    internal: obj(o, "internal"),
  });
}

export function parseEvidence(v: unknown, i: number): EvidenceItem {
  if (!isObject(v)) throw new InvalidInput(`evidence[${i}] must be an object`, "evidence");
  onlyKeys(v, ["text", "source_title", "source_url", "observed_at"], `evidence[${i}]`);
  return clean<EvidenceItem>({
    text: str(v, "text", { max: TEXT.text }),
    source_title: str(v, "source_title", { max: TEXT.title }),
    source_url: httpUrl(v, "source_url"),
    observed_at: ts(v, "observed_at"),
  });
}

export function parseSignal(o: Obj): SignalRecord {
  onlyKeys(
    o,
    [
      "title",
      "summary",
      "category",
      "type",
      "severity",
      "status",
      "first_seen_at",
      "last_seen_at",
      "confidence",
      "topics",
      "evidence",
    ],
    "signal",
  );
  const evidence = (arr(o, "evidence", LIST.evidence) ?? [])
    .map(parseEvidence)
    .filter((e) => Object.keys(e).length > 0);
  const rec = clean<SignalRecord>({
    title: str(o, "title", { required: true, max: TEXT.title })!,
    summary: str(o, "summary", { max: TEXT.text }),
    category: str(o, "category", { max: TEXT.label }),
    type: str(o, "type", { max: TEXT.label }),
    severity: oneOf(o, "severity", SEVERITY),
    status: oneOf(o, "status", ["open", "closed"] as const, "open")!,
    first_seen_at: ts(o, "first_seen_at"),
    last_seen_at: ts(o, "last_seen_at"),
    confidence: num(o, "confidence"),
    topics: strings(o, "topics", { maxItems: LIST.topics, max: TEXT.label }),
    evidence: [],
  });
  rec.evidence = evidence;
  // One vocabulary with the engine's signals: other tools' names for a category or type mapped onto it.
  const v = inVocabulary(rec.category, rec.type, [rec.title, rec.summary]);
  if (v.category) rec.category = v.category;
  if (v.type) rec.type = v.type;
  return rec;
}

export function parseDigest(o: Obj): DigestRecord {
  onlyKeys(
    o,
    [
      "slug",
      "type",
      "status",
      "title",
      "headline",
      "tldr",
      "what_to_watch",
      "coverage_period_start",
      "coverage_period_end",
      "generated_at",
      "items",
      "markdown",
    ],
    "digest",
  );
  const slug = str(o, "slug", { max: TEXT.slug });
  if (slug !== undefined && !/^[a-z0-9][a-z0-9-]*$/i.test(slug))
    throw new InvalidInput("slug may hold only letters, digits and hyphens", "slug");
  if (slug !== undefined && /^\d+$/.test(slug)) throw new InvalidInput("slug must not be all digits", "slug");
  const items = arr(o, "items", LIST.digestItems);
  items?.forEach((x, i) => {
    if (!isObject(x)) throw new InvalidInput(`items[${i}] must be an object`, "items");
  });
  return clean<DigestRecord>({
    slug,
    type: str(o, "type", { required: true, max: 100 })!,
    status: oneOf(o, "status", ["generated", "draft", "failed"] as const, "generated")!,
    title: str(o, "title", { max: TEXT.title }),
    headline: str(o, "headline", { max: TEXT.title }),
    tldr: str(o, "tldr", { max: TEXT.text }),
    what_to_watch: str(o, "what_to_watch", { max: TEXT.text }),
    coverage_period_start: ts(o, "coverage_period_start"),
    coverage_period_end: ts(o, "coverage_period_end"),
    generated_at: ts(o, "generated_at"),
    items: items as Obj[] | undefined,
    markdown: str(o, "markdown", { max: TEXT.document }),
  });
}

export function parseBattlecard(o: Obj): BattlecardRecord {
  onlyKeys(o, ["status", "generated_at", "sections", "evidence"], "battlecard");
  return clean<BattlecardRecord>({
    status: oneOf(o, "status", ["generated", "generating", "failed"] as const, "generated")!,
    generated_at: ts(o, "generated_at"),
    sections: obj(o, "sections"),
    evidence: obj(o, "evidence"),
  });
}
