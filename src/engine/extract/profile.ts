// The competitor profile from extracted pages: only what structured data (JSON-LD) or explicit page text
// states; a field nothing states stays absent. Every field carries the URL and the text it came from.
// Pure and synchronous.
import { sentences } from "../../domain/prose.ts";
import { clean } from "./dom.ts";
import type { Block, PageExtract, Plan } from "./page.ts";

export interface Headquarters {
  city?: string;
  country?: string;
}

export interface Ownership {
  type?: string;
  public?: boolean;
  parent_company_name?: string;
  ticker?: string;
}

export interface ProfileEvidence {
  url: string;
  excerpt: string;
}

export interface Profile {
  description?: string;
  category?: string;
  industry?: string;
  business_model?: string;
  company_type?: string;
  headquarters?: Headquarters;
  founding_year?: number;
  company_size?: number;
  target_customer?: string;
  ownership?: Ownership;
  /** Home page hero headline + sub-headline. */
  positioning?: string;
  evidence: Partial<Record<Exclude<keyof Profile, "evidence">, ProfileEvidence>>;
}

type Obj = Record<string, unknown>;

const ORG_TYPES = new Set([
  "Organization",
  "Corporation",
  "OnlineBusiness",
  "OnlineStore",
  "LocalBusiness",
  "ProfessionalService",
  "NGO",
  "EducationalOrganization",
  "GovernmentOrganization",
  "NewsMediaOrganization",
  "SportsOrganization",
]);
const NESTED_ORG_KEYS = [
  "publisher",
  "provider",
  "creator",
  "manufacturer",
  "brand",
  "parentOrganization",
  "author",
];
const APP_TYPES = new Set([
  "SoftwareApplication",
  "WebApplication",
  "MobileApplication",
  "WebSite",
  "Product",
  "Service",
]);

const SCHEMA_ORG = /^https?:\/\/schema\.org\//;
function types(o: Obj): string[] {
  const t = o["@type"];
  const list = Array.isArray(t) ? t : [t];
  return list.filter((x): x is string => typeof x === "string").map((x) => x.replace(SCHEMA_ORG, ""));
}

function str(v: unknown): string | undefined {
  if (typeof v === "string") return clean(v) || undefined;
  if (typeof v === "number") return String(v);
  if (Array.isArray(v)) return str(v[0]);
  if (v && typeof v === "object") return str((v as Obj).name ?? (v as Obj)["@value"]);
  return undefined;
}

const WWW = /^www\./;
function hostOf(url: string): string {
  try {
    return new URL(url).hostname.replace(WWW, "");
  } catch {
    return "";
  }
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return "";
  }
}

// ISO 3166 alpha-2/alpha-3 codes and common short forms → country names (as the competitor record shows them).
const COUNTRIES: Record<string, string> = {
  US: "United States",
  USA: "United States",
  "U.S.": "United States",
  "U.S.A.": "United States",
  "UNITED STATES OF AMERICA": "United States",
  GB: "United Kingdom",
  UK: "United Kingdom",
  GBR: "United Kingdom",
  "GREAT BRITAIN": "United Kingdom",
  ENGLAND: "United Kingdom",
  SCOTLAND: "United Kingdom",
  CA: "Canada",
  CAN: "Canada",
  DE: "Germany",
  DEU: "Germany",
  FR: "France",
  FRA: "France",
  ES: "Spain",
  ESP: "Spain",
  PT: "Portugal",
  PRT: "Portugal",
  IT: "Italy",
  ITA: "Italy",
  NL: "Netherlands",
  NLD: "Netherlands",
  "THE NETHERLANDS": "Netherlands",
  BE: "Belgium",
  IE: "Ireland",
  IRL: "Ireland",
  CH: "Switzerland",
  AT: "Austria",
  SE: "Sweden",
  NO: "Norway",
  DK: "Denmark",
  FI: "Finland",
  IS: "Iceland",
  PL: "Poland",
  CZ: "Czechia",
  EE: "Estonia",
  LT: "Lithuania",
  LV: "Latvia",
  RO: "Romania",
  BG: "Bulgaria",
  GR: "Greece",
  HU: "Hungary",
  UA: "Ukraine",
  TR: "Turkey",
  IL: "Israel",
  AE: "United Arab Emirates",
  UAE: "United Arab Emirates",
  SA: "Saudi Arabia",
  IN: "India",
  IND: "India",
  SG: "Singapore",
  JP: "Japan",
  CN: "China",
  HK: "Hong Kong",
  TW: "Taiwan",
  KR: "South Korea",
  AU: "Australia",
  AUS: "Australia",
  NZ: "New Zealand",
  BR: "Brazil",
  MX: "Mexico",
  AR: "Argentina",
  CL: "Chile",
  CO: "Colombia",
  ZA: "South Africa",
  NG: "Nigeria",
  KE: "Kenya",
  EG: "Egypt",
  LU: "Luxembourg",
  MT: "Malta",
  CY: "Cyprus",
  HR: "Croatia",
  SI: "Slovenia",
  SK: "Slovakia",
  RS: "Serbia",
  PH: "Philippines",
  VN: "Vietnam",
  TH: "Thailand",
  MY: "Malaysia",
  ID: "Indonesia",
  PK: "Pakistan",
  BD: "Bangladesh",
};
const COUNTRY_NAMES = new Set(Object.values(COUNTRIES).map((c) => c.toUpperCase()));

const CAPITALISED_NAME = /^[A-Z][A-Za-z .'-]+$/;
/** A country name from a name or code; undefined when it is neither. */
export function countryName(v: string | undefined): string | undefined {
  if (!v) return undefined;
  const s = clean(v);
  const up = s.toUpperCase();
  if (COUNTRIES[up]) return COUNTRIES[up];
  if (COUNTRY_NAMES.has(up)) return [...Object.values(COUNTRIES)].find((c) => c.toUpperCase() === up);
  if (s.length > 3 && CAPITALISED_NAME.test(s)) return s; // a country name we do not list
  return undefined;
}

function addressOf(v: unknown): Headquarters | undefined {
  const list = Array.isArray(v) ? v : [v];
  for (const a of list) {
    if (!a || typeof a !== "object") continue;
    const o = a as Obj;
    const city = str(o.addressLocality);
    const country = countryName(str(o.addressCountry));
    if (city || country) {
      const hq: Headquarters = {};
      if (city) hq.city = city;
      if (country) hq.country = country;
      return hq;
    }
  }
  return undefined;
}

const YEAR = /\b(1[6-9]\d\d|20\d\d)\b/;
function yearOf(v: unknown): number | undefined {
  const s = str(v);
  const m = s ? YEAR.exec(s) : null;
  return m ? Number(m[1]) : undefined;
}

const DIGITS_ONLY = /^\s*\d[\d,. ]*\s*$/;
const DIGIT_SEPARATORS = /[,. ]/g;
function intOf(v: unknown): number | undefined {
  if (typeof v === "number" && Number.isFinite(v)) return Math.round(v);
  if (typeof v === "string" && DIGITS_ONLY.test(v)) {
    const n = Number(v.replace(DIGIT_SEPARATORS, ""));
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

function employeesOf(v: unknown): number | undefined {
  if (v == null) return undefined;
  if (typeof v !== "object") return intOf(v);
  if (Array.isArray(v)) return employeesOf(v[0]);
  const o = v as Obj;
  const exact = intOf(o.value);
  if (exact !== undefined) return exact;
  const min = intOf(o.minValue);
  const max = intOf(o.maxValue);
  return min !== undefined && min === max ? min : undefined; // a range states no single size
}

const GENERIC_APP_CATEGORY = /^(https?:\/\/schema\.org\/)?[A-Z][A-Za-z]*Application$/;

// ---- facts: "Label | value" rows on about/company pages ---------------------------------------------

type FactKey =
  | "founded"
  | "headquarters"
  | "employees"
  | "industry"
  | "business_model"
  | "company_type"
  | "ownership"
  | "parent"
  | "target"
  | "category";

const FACT_LABELS: [FactKey, RegExp][] = [
  ["founded", /^(founded|year founded|founding year|established|founded in)$/i],
  ["headquarters", /^(headquarters|hq|head office|headquartered in|headquartered|main office|based in)$/i],
  ["employees", /^(employees|team size|headcount|team members|company size|number of employees|staff)$/i],
  ["industry", /^(industry|industries|sector)$/i],
  ["business_model", /^(business model|revenue model)$/i],
  ["company_type", /^(company type|type of company|legal form|entity type)$/i],
  ["ownership", /^(ownership|owned by|funding status|ownership type)$/i],
  ["parent", /^(parent company|parent organi[sz]ation)$/i],
  ["target", /^(target customers?|target market|ideal customers?|who we serve|built for)$/i],
  ["category", /^(category|product category)$/i],
];

interface Fact {
  value: string;
  url: string;
  excerpt: string;
}

const TRAILING_COLON = /[:：]\s*$/;
const LABELLED_LINE = /^([A-Za-z][A-Za-z ]{1,30}):\s+(.{1,120})$/;
function factsOf(pages: PageExtract[]): Map<FactKey, Fact> {
  const facts = new Map<FactKey, Fact>();
  const put = (label: string, value: string, url: string) => {
    const l = clean(label).replace(TRAILING_COLON, "");
    const v = clean(value);
    if (!l || !v || v.length > 200) return;
    for (const [key, re] of FACT_LABELS) {
      if (re.test(l) && !facts.has(key)) facts.set(key, { value: v, url, excerpt: `${l}: ${v}` });
    }
  };
  for (const p of pages) {
    for (const b of p.blocks) {
      if (b.kind === "table") {
        for (const r of b.rows) if (r.length === 2) put(r[0]!, r[1]!, p.url);
      } else if (b.kind === "text" || b.kind === "list") {
        const lines = b.kind === "text" ? [b.text] : b.items;
        for (const line of lines) {
          const m = LABELLED_LINE.exec(line);
          if (m) put(m[1]!, m[2]!, p.url);
        }
      }
    }
  }
  return facts;
}

// ---- explicit sentences -----------------------------------------------------------------------------

const ABOUT_PATH =
  /^\/?$|(^|\/)(about|about-us|company|our-story|who-we-are|team|investors|careers?|jobs|join-us)(\/|$|\.)/i;

function sentencesOf(pages: PageExtract[]): { text: string; url: string }[] {
  const out: { text: string; url: string }[] = [];
  for (const p of pages) {
    if (!ABOUT_PATH.test(pathOf(p.url))) continue;
    for (const b of p.blocks) {
      const texts =
        b.kind === "text" ? [b.text] : b.kind === "card" ? b.items : b.kind === "heading" ? [b.text] : [];
      for (const t of texts) out.push({ text: t, url: p.url });
    }
  }
  return out;
}

/** The sentences of `text` that hold the match at `index` (a dot in a domain or a decimal ends none). */
function excerptAround(text: string, index: number, len: number): string {
  const out: string[] = [];
  let at = 0;
  for (const s of sentences(text)) {
    const from = text.indexOf(s.slice(0, 20), at);
    const start = from < 0 ? at : from;
    const end = start + s.length;
    if (end > index && start < index + len) out.push(s);
    at = end;
  }
  return clean(out.join(" ") || text).slice(0, 300);
}

const FOUNDED_RE = /\b(?:was\s+)?(?:founded|started|established)\b[^.]{0,80}?\bin\s+(1[89]\d\d|20\d\d)\b/i;
const TEAM_OF_RE = /\bteam of\s+(\d{1,3}(?:,\d{3})*|\d+)(?!\s*(?:%|\+|,\d|\d))\b/i;
const PEOPLE_RE =
  /\b(?:we are|we're|we’re|today,?|now|with|employ(?:s|ing)?)\s+(\d{1,3}(?:,\d{3})*|\d+)(?!\+)\s+(?:people|employees|team members|staff|teammates|full-time employees)\b/i;
const PEOPLE_WORK_RE =
  /\b(\d{1,3}(?:,\d{3})*|\d+)(?!\+)\s+(?:people|employees|team members)\s+(?:work|are working)\b/i;
const APPROX_BEFORE =
  /\b(over|more than|nearly|almost|about|around|approximately|roughly|up to|under|less than)\s*$/i;
const TARGET_RE = /\b(?:is|are)\s+(?:built|made|designed|purpose-built)\s+for\s+([^.]{6,160})\./i;
const OWNERSHIP_PHRASES: [RegExp, Ownership][] = [
  [/\b(venture[- ]backed|vc[- ]backed|venture[- ]funded)\b/i, { type: "Venture-backed" }],
  [/\b(bootstrapped|self[- ]funded|customer[- ]funded)\b/i, { type: "Bootstrapped" }],
  [/\b(private[- ]equity[- ]backed|backed by private equity)\b/i, { type: "Private equity-backed" }],
  [/\bemployee[- ]owned\b/i, { type: "Employee-owned" }],
  [/\bfamily[- ]owned\b/i, { type: "Family-owned" }],
  [/\bpublicly traded\b/i, { type: "Public", public: true }],
];
const ORG_NAME = String.raw`[A-Z][\w&'’-]*(?:\s+(?:[A-Z][\w&'’.-]*|of|and|&))*?`;
/** Said of the company itself (a name or "we" right before the verb). */
const ACQUIRED_RE = new RegExp(
  String.raw`(?:^|\b(?:we|[A-Z][\w&.-]*))\s+(?:was|were|has\s+been|have\s+been|got)\s+acquired\s+by\s+(${ORG_NAME})(?=\s+in\s+\d{4}|[.,;!]|\s*$)|(?:^|\b(?:we|[A-Z][\w&.-]*))\s+(?:is|are|we're|we’re)\s+(?:now\s+)?(?:a\s+)?part\s+of\s+(?:the\s+)?(${ORG_NAME})(?:\s+(?:group|family))?(?=\s+in\s+\d{4}|[.,;!]|\s*$)|(?:^|\b(?:we|[A-Z][\w&.-]*))\s+joined\s+the\s+(${ORG_NAME})\s+family\b`,
);
const TICKER_RE = /\((NASDAQ|NYSE|LSE|TSX|ASX|XETRA|Euronext)\s*:\s*([A-Z.]{1,6})\)/;

const PLACE = String.raw`[A-Z][\w.'’-]+(?:\s+[A-Z][\w.'’-]+){0,2}`;
// "Acme is headquartered in Berlin, Germany", "we're based in Toronto", "our headquarters are in Austin, Texas"
const HQ_RE = new RegExp(
  String.raw`(?:\bheadquartered\s+in|\b(?:is|are|[Ww]e're|[Ww]e’re|[Ww]e\s+are)\s+(?:\w+\s+)?based\s+(?:out\s+of|in)|\b(?:[Oo]ur|[Ii]ts)\s+(?:headquarters|head\s+office|HQ)\s+(?:is|are)\s+(?:located\s+)?in)\s+(?:the\s+)?(${PLACE})(?:,\s*(${PLACE}))?`,
);

const TRAILING_DOTS = /\.+$/;
/** The headquarters a sentence states of the company ("headquartered in Berlin, Germany"). A second part that
 *  is no country we know (a state, a region) is left out. */
function hqFromText(t: string): { hq: Headquarters; index: number; len: number } | null {
  const m = HQ_RE.exec(t);
  if (!m) return null;
  const hq: Headquarters = {};
  const first = clean(m[1]).replace(TRAILING_DOTS, "");
  const second = m[2] ? clean(m[2]).replace(TRAILING_DOTS, "") : undefined;
  const known = (v: string) => {
    const up = v.toUpperCase();
    return COUNTRIES[up] ?? (COUNTRY_NAMES.has(up) ? countryName(v) : undefined);
  };
  if (second) {
    hq.city = first;
    const c = known(second);
    if (c) hq.country = c;
  } else if (known(first)) hq.country = known(first);
  else hq.city = first;
  return { hq, index: m.index, len: m[0].length };
}

const COMMAS = /,/g;
function sizeFromText(t: string): { n: number; index: number; len: number } | null {
  for (const re of [TEAM_OF_RE, PEOPLE_RE, PEOPLE_WORK_RE]) {
    const m = re.exec(t);
    if (!m) continue;
    if (APPROX_BEFORE.test(t.slice(0, m.index + m[0].indexOf(m[1]!)))) continue;
    const n = Number(m[1]!.replace(COMMAS, ""));
    if (n > 0 && n < 5_000_000) return { n, index: m.index, len: m[0].length };
  }
  return null;
}

/** Ownership from a value. `fact` = the value of an "Ownership" row, where a bare "Private"/"Public" is a
 *  statement; in running text only explicit phrases count ("public companies" is not about the company). */
function ownershipFrom(value: string, fact: boolean): Ownership | undefined {
  const o: Ownership = {};
  for (const [re, own] of OWNERSHIP_PHRASES) {
    const m = re.exec(value);
    if (!m || o.type) continue;
    // in running text the phrase must be said of the subject: "Globex is venture-backed", "we are bootstrapped",
    // "we're a small, bootstrapped team", "100% bootstrapped", or open the sentence ("Self-funded since day one")
    if (
      !fact &&
      m.index > 0 &&
      !/\b(is|are|we're|we’re|remain|remains|been|proudly|fully|stayed|stay)\s+(?:a\s+|an\s+)?(?:[\w%-]+,?\s+){0,3}$/i.test(
        value.slice(Math.max(0, m.index - 40), m.index),
      )
    )
      continue;
    Object.assign(o, own);
  }
  if (fact && /\bprivate(ly held)?\b/i.test(value) && o.public === undefined) o.public = false;
  if (fact && /^public\b|\bpublic company\b/i.test(value) && !/\bprivate/i.test(value)) o.public = true;
  if (!fact && /\bprivately held\b/i.test(value)) o.public = false;
  const t = TICKER_RE.exec(value);
  if (t) {
    o.public = true;
    o.ticker = `${t[1]}:${t[2]}`;
  }
  const sub = /\b(?:a )?subsidiary of ([A-Z][\w&.,' -]{1,60}?)(?:[.,;]|$)/.exec(value);
  if (sub) o.parent_company_name = clean(sub[1]);
  // "Acme was acquired by Initech", "we are now part of Initech", "joined the Initech family"
  if (!fact || !o.parent_company_name) {
    const acq = ACQUIRED_RE.exec(value);
    if (acq) {
      // only "acquired by" says how; "part of" and "joined the … family" name the parent alone
      if (acq[1]) o.type ??= "Acquired";
      o.parent_company_name ??= clean(acq[1] ?? acq[2] ?? acq[3]);
    }
  }
  return Object.keys(o).length ? o : undefined;
}

// ---- business model from plans -------------------------------------------------------------------------

/** A business model phrase from the pricing plans the site publishes (see docs/engine/extract.md, "Profile"). */
export function businessModelFrom(plans: Plan[]): string | undefined {
  const paid = plans.filter((p) => p.price !== null && p.price > 0 && p.period && p.period !== "one_time");
  const free = plans.some((p) => p.price === 0);
  if (!paid.length) return undefined;
  const units = [...new Set(paid.map((p) => p.unit).filter((u): u is string => !!u))];
  const annual = paid.every((p) => p.period === "year");
  let model = units.length === 1 ? `per-${units[0]} subscription` : "subscription";
  if (annual) model = `annual ${model}`;
  if (free) return `Freemium ${model}`;
  return model[0]!.toUpperCase() + model.slice(1);
}

// ---- the profile ---------------------------------------------------------------------------------------

function homeOf(pages: PageExtract[]): PageExtract | undefined {
  return pages.find((p) => pathOf(p.url) === "/" || pathOf(p.url) === "") ?? pages[0];
}

const ENDS_SENTENCE = /[.!?…:]$/;
/** Joins a hero headline and sub-headline into one positioning statement. */
export function positioningOf(hero: PageExtract["hero"]): string | undefined {
  if (!hero?.headline) return undefined;
  if (!hero.subheadline) return hero.headline;
  const h = hero.headline.trim();
  return `${h}${ENDS_SENTENCE.test(h) ? "" : "."} ${hero.subheadline.trim()}`;
}

/** `positioning` and `evidence` are not competitor-record fields: they are made non-enumerable, so spreading
 *  the profile into a record (`{ ...record, ...profile }`) or serialising it copies only the record fields,
 *  while `profile.positioning` and `profile.evidence` stay readable. */
function recordSafe(profile: Profile): Profile {
  for (const key of ["positioning", "evidence"] as const) {
    if (key in profile) {
      const value = profile[key];
      Object.defineProperty(profile, key, { value, enumerable: false, writable: true, configurable: true });
    }
  }
  return profile;
}

/** Profile fields the pages state (JSON-LD first, then explicit facts, then explicit sentences). */
export function profileFrom(pages: PageExtract[]): Profile {
  const profile: Profile = { evidence: {} };
  if (!pages.length) return recordSafe(profile);
  const home = homeOf(pages)!;
  const homeHost = hostOf(home.url);
  const ev = (field: Exclude<keyof Profile, "evidence">, url: string, excerpt: string) => {
    profile.evidence[field] = { url, excerpt: clean(excerpt).slice(0, 300) };
  };

  // Structured data: the organisation (prefer the home page's, and one whose url is the site) and the app.
  const orgs: { o: Obj; url: string; score: number }[] = [];
  const apps: { o: Obj; url: string }[] = [];
  for (const p of pages) {
    for (const top of p.jsonLd) {
      // an organisation may only appear nested: WebSite.publisher, SoftwareApplication.provider, Product.brand …
      const nested = NESTED_ORG_KEYS.map((k) => top[k]).filter(
        (v): v is Obj => !!v && typeof v === "object" && !Array.isArray(v),
      );
      for (const [o, depth] of [[top, 0] as const, ...nested.map((n) => [n, 1] as const)]) {
        const ts = types(o);
        if (ts.some((t) => ORG_TYPES.has(t))) {
          const url = str(o.url);
          const score = (p === home ? 2 : 0) + (url && hostOf(url) === homeHost ? 1 : 0) - depth * 0.5;
          orgs.push({ o, url: p.url, score });
        } else if (depth === 0 && ts.some((t) => APP_TYPES.has(t))) apps.push({ o, url: p.url });
      }
    }
  }
  orgs.sort((a, b) => b.score - a.score);
  const org = orgs[0];
  const facts = factsOf(pages);
  const sentences = sentencesOf(pages);

  // description
  const orgDesc = org && str(org.o.description);
  if (org && orgDesc) {
    profile.description = orgDesc;
    ev("description", org.url, orgDesc);
  } else if (home.meta.description || home.meta["og:description"]) {
    profile.description = home.meta.description || home.meta["og:description"];
    ev("description", home.url, profile.description!);
  }

  // category
  for (const a of apps) {
    const sub = str(a.o.applicationSubCategory);
    const cat = str(a.o.applicationCategory);
    const c = sub ?? (cat && !GENERIC_APP_CATEGORY.test(cat) ? cat : undefined);
    if (c) {
      profile.category = c;
      ev("category", a.url, `${sub ? "applicationSubCategory" : "applicationCategory"}: ${c}`);
      break;
    }
  }
  if (!profile.category && facts.get("category")) {
    const f = facts.get("category")!;
    profile.category = f.value;
    ev("category", f.url, f.excerpt);
  }

  // industry
  const orgIndustry = org && str(org.o.industry);
  if (org && orgIndustry) {
    profile.industry = orgIndustry;
    ev("industry", org.url, `industry: ${orgIndustry}`);
  } else if (facts.get("industry")) {
    const f = facts.get("industry")!;
    profile.industry = f.value;
    ev("industry", f.url, f.excerpt);
  }

  // headquarters
  const hq = org && (addressOf(org.o.address) ?? addressOf((org.o.location as Obj | undefined)?.address));
  if (org && hq) {
    profile.headquarters = hq;
    ev("headquarters", org.url, [hq.city, hq.country].filter(Boolean).join(", "));
  } else if (facts.get("headquarters")) {
    const f = facts.get("headquarters")!;
    const parts = f.value.split(",").map(clean).filter(Boolean);
    const country = parts.length > 1 ? countryName(parts[parts.length - 1]) : countryName(parts[0]);
    const h: Headquarters = {};
    if (parts.length > 1 || !country) h.city = parts[0];
    if (country && (parts.length > 1 || country === parts[0])) h.country = country;
    if (h.city || h.country) {
      profile.headquarters = h;
      ev("headquarters", f.url, f.excerpt);
    }
  }

  if (!profile.headquarters) {
    for (const s of sentences) {
      const h = hqFromText(s.text);
      if (h) {
        profile.headquarters = h.hq;
        ev("headquarters", s.url, excerptAround(s.text, h.index, h.len));
        break;
      }
    }
  }

  // founding year
  const fy = org && yearOf(org.o.foundingDate);
  if (org && fy) {
    profile.founding_year = fy;
    ev("founding_year", org.url, `foundingDate: ${str(org.o.foundingDate)}`);
  } else if (facts.get("founded") && yearOf(facts.get("founded")!.value)) {
    const f = facts.get("founded")!;
    profile.founding_year = yearOf(f.value);
    ev("founding_year", f.url, f.excerpt);
  } else {
    for (const s of sentences) {
      const m = FOUNDED_RE.exec(s.text);
      if (m) {
        profile.founding_year = Number(m[1]);
        ev("founding_year", s.url, excerptAround(s.text, m.index, m[0].length));
        break;
      }
    }
  }

  // company size
  const size = org && employeesOf(org.o.numberOfEmployees);
  if (org && size !== undefined) {
    profile.company_size = size;
    ev("company_size", org.url, `numberOfEmployees: ${size}`);
  } else if (facts.get("employees") && intOf(facts.get("employees")!.value) !== undefined) {
    const f = facts.get("employees")!;
    profile.company_size = intOf(f.value);
    ev("company_size", f.url, f.excerpt);
  } else {
    for (const s of sentences) {
      const m = sizeFromText(s.text);
      if (m) {
        profile.company_size = m.n;
        ev("company_size", s.url, excerptAround(s.text, m.index, m.len));
        break;
      }
    }
  }

  // target customer
  for (const a of apps) {
    const aud = a.o.audience as Obj | undefined;
    const t = aud && str(aud.audienceType);
    if (t) {
      profile.target_customer = t;
      ev("target_customer", a.url, `audienceType: ${t}`);
      break;
    }
  }
  if (!profile.target_customer && facts.get("target")) {
    const f = facts.get("target")!;
    profile.target_customer = f.value;
    ev("target_customer", f.url, f.excerpt);
  }
  if (!profile.target_customer) {
    for (const s of sentences) {
      const m = TARGET_RE.exec(s.text);
      if (m) {
        profile.target_customer = clean(m[1]);
        ev("target_customer", s.url, excerptAround(s.text, m.index, m[0].length));
        break;
      }
    }
  }

  // ownership and company type
  let own: Ownership | undefined;
  const parent = org && str((org.o.parentOrganization as Obj | undefined)?.name ?? org.o.parentOrganization);
  const ticker = org && str(org.o.tickerSymbol);
  if (org && (parent || ticker)) {
    own = {};
    if (parent) own.parent_company_name = parent;
    if (ticker) {
      own.public = true;
      own.ticker = ticker;
    }
    ev("ownership", org.url, parent ? `parentOrganization: ${parent}` : `tickerSymbol: ${ticker}`);
  }
  const ownFact = facts.get("ownership");
  if (!own && ownFact) {
    own = ownershipFrom(ownFact.value, true);
    if (own) ev("ownership", ownFact.url, ownFact.excerpt);
  }
  if (!own && facts.get("parent")) {
    const f = facts.get("parent")!;
    own = { parent_company_name: f.value };
    ev("ownership", f.url, f.excerpt);
  }
  if (!own) {
    for (const s of sentences) {
      const o = ownershipFrom(s.text, false);
      if (o) {
        own = o;
        ev("ownership", s.url, s.text);
        break;
      }
    }
  }
  if (own) profile.ownership = own;

  const typeFact = facts.get("company_type");
  if (typeFact) {
    profile.company_type = typeFact.value;
    ev("company_type", typeFact.url, typeFact.excerpt);
  } else if (own?.public === true) {
    profile.company_type = "Public company";
    ev("company_type", profile.evidence.ownership!.url, profile.evidence.ownership!.excerpt);
  } else if (own?.public === false) {
    profile.company_type = "Private company";
    ev("company_type", profile.evidence.ownership!.url, profile.evidence.ownership!.excerpt);
  }

  // business model
  const bm = facts.get("business_model");
  if (bm) {
    profile.business_model = bm.value;
    ev("business_model", bm.url, bm.excerpt);
  } else {
    const seen = new Set<string>();
    const plans: Plan[] = [];
    let planUrl = "";
    for (const p of pages) {
      for (const pl of p.plans) {
        if (seen.has(pl.name)) continue;
        seen.add(pl.name);
        plans.push(pl);
        planUrl ||= p.url;
      }
    }
    const model = businessModelFrom(plans);
    if (model) {
      profile.business_model = model;
      ev(
        "business_model",
        planUrl,
        plans
          .map(
            (p) =>
              `${p.name}: ${p.price === null ? "custom" : `${p.price}${p.unit ? ` per ${p.unit}` : ""}${p.period ? ` (${p.period})` : ""}`}`,
          )
          .join("; "),
      );
    }
  }

  // positioning
  const pos = positioningOf(home.hero);
  if (pos) {
    profile.positioning = pos;
    ev("positioning", home.url, pos);
  }
  return recordSafe(profile);
}

export type { Block };
