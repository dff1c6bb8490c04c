// The Wikidata item a competitor's site declares as itself (JSON-LD `sameAs`, or a link on its pages, to
// wikidata.org/wiki/Q…), read only when the item's official website (P856) is the site: founding year (P571),
// headquarters (P159) and country (P17), chief executive (P169), parent organisation (P749), stock ticker (P249)
// and SEC CIK (P5531). Read through the one fetcher: the item's entity JSON (Special:EntityData), then the English
// labels of the items it names (wbgetentities), composed into one answer whose text is the facts.
import type { Fetcher, FetchResult } from "../fetch/index.ts";
import type { Validators } from "./kinds/kind.ts";

/** What the item states, in words (the items it names by their English labels). */
export interface WikidataFacts {
  item: string;
  label?: string;
  official_websites: string[];
  inception_year?: number;
  headquarters?: string;
  country?: string;
  chief_executive?: string;
  parent_organization?: string;
  ticker?: string;
  cik?: string;
}

const ITEM = /^https?:\/\/(?:www\.|m\.)?wikidata\.org\/(?:wiki|entity)\/(Q[1-9]\d{0,11})(?:[/?#]|$)/i;

/** The first Wikidata item among the addresses a site declares or links. */
export function wikidataItemFrom(urls: readonly string[]): string | undefined {
  for (const u of urls) {
    const m = typeof u === "string" ? ITEM.exec(u.trim()) : null;
    if (m) return m[1].toUpperCase();
  }
  return undefined;
}

/** The address of an item's entity JSON (the source's address). */
export function wikidataEntityUrl(item: string): string {
  return `https://www.wikidata.org/wiki/Special:EntityData/${item}.json`;
}

/** The item's page a person reads (what evidence names). */
export function wikidataItemPage(item: string): string {
  return `https://www.wikidata.org/wiki/${item}`;
}

function labelsUrl(ids: string[]): string {
  return `https://www.wikidata.org/w/api.php?action=wbgetentities&ids=${ids.join("%7C")}&props=labels&languages=en&format=json`;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === "object" && !Array.isArray(v);

/** The statements of a property that hold now: not deprecated, preferred ones when there are, and none with
 * an end time (P582) — a chief executive who left is no longer one. */
function current(claims: Obj, prop: string): Obj[] {
  const all = (Array.isArray(claims[prop]) ? claims[prop] : []).filter(isObj);
  const live = all.filter((s) => s.rank !== "deprecated" && !(isObj(s.qualifiers) && s.qualifiers.P582));
  const preferred = live.filter((s) => s.rank === "preferred");
  return preferred.length ? preferred : live;
}

function snakValue(snak: unknown): unknown {
  if (!isObj(snak) || snak.snaktype !== "value" || !isObj(snak.datavalue)) return undefined;
  return snak.datavalue.value;
}

const str = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : undefined);
const itemId = (v: unknown) =>
  isObj(v) && typeof v.id === "string" && /^Q\d+$/.test(v.id) ? v.id : undefined;

interface Entity {
  item: string;
  label?: string;
  websites: string[];
  inception?: number;
  refs: { headquarters?: string; country?: string; chief_executive?: string; parent_organization?: string };
  ticker?: string;
  cik?: string;
}

/** The `entities` object of a Wikidata answer (entity JSON or wbgetentities), or null when the text is not one. */
function entitiesOf(text: string): Obj | null {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  return isObj(data) && isObj(data.entities) ? data.entities : null;
}

/** An entity JSON's item and the statements read from it, or null when it is not an item's entity JSON. */
export function parseEntity(text: string): Entity | null {
  const entities = entitiesOf(text);
  if (!entities) return null;
  const e = Object.values(entities).find((x) => isObj(x) && x.type === "item");
  if (!isObj(e) || typeof e.id !== "string" || !isObj(e.claims)) return null;
  const claims = e.claims;
  const first = (prop: string) => snakValue(current(claims, prop)[0]?.mainsnak);
  const labels = isObj(e.labels) && isObj(e.labels.en) ? str(e.labels.en.value) : undefined;
  const time = first("P571");
  const year = isObj(time) && typeof time.time === "string" ? /^\+(\d{4})-/.exec(time.time)?.[1] : undefined;
  const precision = isObj(time) ? Number(time.precision) : 0;
  // The ticker: stated on its own, or as a qualifier of the stock exchange (P414) as Wikidata usually does.
  const exchange = current(claims, "P414")[0];
  const tickerQ =
    isObj(exchange?.qualifiers) && Array.isArray(exchange.qualifiers.P249)
      ? snakValue(exchange.qualifiers.P249[0])
      : undefined;
  return {
    item: e.id,
    ...(labels ? { label: labels } : {}),
    websites: current(claims, "P856")
      .map((s) => str(snakValue(s.mainsnak)))
      .filter((u): u is string => !!u),
    ...(year && precision >= 9 ? { inception: Number(year) } : {}),
    refs: {
      headquarters: itemId(first("P159")),
      country: itemId(first("P17")),
      chief_executive: itemId(first("P169")),
      parent_organization: itemId(first("P749")),
    },
    ...((str(first("P249")) ?? str(tickerQ)) ? { ticker: str(first("P249")) ?? str(tickerQ) } : {}),
    ...(str(first("P5531")) ? { cik: str(first("P5531")) } : {}),
  };
}

/** The English labels of a wbgetentities answer. */
export function parseLabels(text: string): Record<string, string> | null {
  const entities = entitiesOf(text);
  if (!entities) return null;
  const out: Record<string, string> = {};
  for (const [id, e] of Object.entries(entities)) {
    const v = isObj(e) && isObj(e.labels) && isObj(e.labels.en) ? str(e.labels.en.value) : undefined;
    if (v) out[id] = v;
  }
  return out;
}

const notWikidata = (url: string, r: Extract<FetchResult, { ok: true }>): FetchResult => ({
  ok: false,
  url,
  finalUrl: r.finalUrl,
  status: r.status,
  error: "unsupported_content",
  message: "not a Wikidata entity answer",
  fetchedAt: r.fetchedAt,
});

/** Reads an item: its entity JSON, then the labels of the items it names. The answer's text is the facts
 * (JSON), so a check compares what the item says, not how Wikidata serialised it. */
export async function readWikidata(
  fetcher: Fetcher,
  url: string,
  validators: Validators,
): Promise<FetchResult> {
  const r = await fetcher.fetch({ url, ...validators, headers: { accept: "application/json" } });
  if (!r.ok || r.notModified) return r;
  const e = parseEntity(r.text);
  if (!e) return notWikidata(url, r);
  const ids = [...new Set(Object.values(e.refs).filter((q): q is string => !!q))];
  let labels: Record<string, string> = {};
  if (ids.length) {
    const l = await fetcher.fetch({ url: labelsUrl(ids), headers: { accept: "application/json" } });
    if (!l.ok) return l;
    const parsed = parseLabels(l.text);
    if (!parsed) return notWikidata(l.url, l);
    labels = parsed;
  }
  const facts: WikidataFacts = { item: e.item, official_websites: e.websites };
  if (e.label) facts.label = e.label;
  if (e.inception) facts.inception_year = e.inception;
  for (const k of ["headquarters", "country", "chief_executive", "parent_organization"] as const) {
    const q = e.refs[k];
    if (q && labels[q]) facts[k] = labels[q];
  }
  if (e.ticker) facts.ticker = e.ticker;
  if (e.cik) facts.cik = e.cik;
  return { ...r, contentType: "application/json", text: JSON.stringify(facts) };
}

/** The facts of a composed answer, or null. */
export function wikidataFactsOf(text: string): WikidataFacts | null {
  try {
    const f = JSON.parse(text) as WikidataFacts;
    return isObj(f) && typeof f.item === "string" && Array.isArray(f.official_websites) ? f : null;
  } catch {
    return null;
  }
}

const bareHost = (u: string) => {
  try {
    return new URL(u).hostname.toLowerCase().replace(/^www\./, "");
  } catch {
    return "";
  }
};

/** Whether the item's official website is the competitor's site: the only proof the item is the company. */
export function isOfficialSite(facts: WikidataFacts, site: string): boolean {
  const host = bareHost(site);
  return !!host && facts.official_websites.some((u) => bareHost(u) === host);
}

/** The fields a snapshot compares: what the item says now, in words. */
export function wikidataFields(f: WikidataFacts): Record<string, unknown> {
  return {
    item: f.item,
    label: f.label,
    official_website: f.official_websites.join(" "),
    inception: f.inception_year !== undefined ? String(f.inception_year) : undefined,
    headquarters: f.headquarters,
    country: f.country,
    chief_executive: f.chief_executive,
    parent_organization: f.parent_organization,
    ticker: f.ticker,
    cik: f.cik,
  };
}
