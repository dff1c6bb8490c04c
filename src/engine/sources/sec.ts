// SEC EDGAR filings of a public company, by the Central Index Key its Wikidata item states (the item the site
// declares as itself): the submissions JSON (data.sec.gov/submissions/CIK##########.json), read through the one
// fetcher, whose User-Agent carries RIVALS_BOT_CONTACT as SEC's declared-User-Agent rule asks. The snapshot holds
// the recent 8-K, 10-K and 10-Q filings, one item per accession number, with the 8-K's items.
import { normaliseFeed } from "../compare/normalise.ts";
import type { Snapshot } from "../compare/types.ts";
import type { FeedItem } from "./feeds.ts";

/** The forms read: current reports and the periodic ones (amendments too). */
const FORMS = /^(?:8-K|10-K|10-Q)(?:\/A)?$/;
/** The newest filings kept (EDGAR's recent list holds up to 1,000). */
const MAX_FILINGS = 40;

/** A CIK as EDGAR's addresses write it: ten digits. */
export function cikOf(value: string): string | undefined {
  const d = value.replace(/\D/g, "");
  return d && d.length <= 10 ? d.padStart(10, "0") : undefined;
}

/** The company's submissions JSON. */
export function secSubmissionsUrl(cik: string): string {
  return `https://data.sec.gov/submissions/CIK${cik}.json`;
}

/** The company's filings as EDGAR lists them for a person. */
export function edgarFilingsPage(cik: string): string {
  return `https://www.sec.gov/cgi-bin/browse-edgar?action=getcompany&CIK=${cik}&type=&dateb=&owner=include&count=40`;
}

export interface SecFiling {
  accession: string;
  form: string;
  filedAt: string;
  /** The 8-K's item numbers ("5.02", "9.01"). */
  items: string[];
  url: string;
  description?: string;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === "object" && !Array.isArray(v);

/** The recent 8-K, 10-K and 10-Q filings of a submissions answer (newest first), or null when it is not one. */
export function parseSubmissions(text: string): { name?: string; filings: SecFiling[] } | null {
  let d: unknown;
  try {
    d = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObj(d) || typeof d.cik !== "string" || !isObj(d.filings) || !isObj(d.filings.recent)) return null;
  const r = d.filings.recent;
  const col = (k: string) => (Array.isArray(r[k]) ? (r[k] as unknown[]) : []);
  const acc = col("accessionNumber");
  const form = col("form");
  const date = col("filingDate");
  const items = col("items");
  const doc = col("primaryDocument");
  const desc = col("primaryDocDescription");
  if (!acc.length || form.length !== acc.length || date.length !== acc.length) return null;
  const cik = String(Number(d.cik));
  const out: SecFiling[] = [];
  for (let i = 0; i < acc.length && out.length < MAX_FILINGS; i++) {
    const f = String(form[i] ?? "");
    const a = String(acc[i] ?? "");
    if (!FORMS.test(f) || !/^\d{10}-\d{2}-\d{6}$/.test(a)) continue;
    const primary = String(doc[i] ?? "");
    const folder = `https://www.sec.gov/Archives/edgar/data/${cik}/${a.replace(/-/g, "")}`;
    const filing: SecFiling = {
      accession: a,
      form: f,
      filedAt: String(date[i] ?? ""),
      items: String(items[i] ?? "")
        .split(",")
        .map((x) => x.trim())
        .filter((x) => /^\d\.\d\d$/.test(x)),
      url: primary ? `${folder}/${primary}` : `${folder}/`,
    };
    const description = typeof desc[i] === "string" && desc[i] ? String(desc[i]) : undefined;
    if (description) filing.description = description;
    out.push(filing);
  }
  return { ...(typeof d.name === "string" ? { name: d.name } : {}), filings: out };
}

/** A filing as a feed item: its form and items in the title, the items again in the summary the rules read. */
function itemOf(f: SecFiling): FeedItem {
  return {
    id: f.accession,
    title: f.items.length ? `${f.form} (items ${f.items.join(", ")})` : f.form,
    url: f.url,
    published: f.filedAt,
    summary: `form ${f.form}; items ${f.items.join(", ") || "none"}; accession ${f.accession}${f.description ? `; ${f.description}` : ""}`,
  };
}

/** The snapshot of a company's recent filings. */
export function secFilingsSnapshot(url: string, parsed: { name?: string; filings: SecFiling[] }): Snapshot {
  return normaliseFeed(url, parsed.filings.map(itemOf), parsed.name ? `${parsed.name} on EDGAR` : undefined);
}
