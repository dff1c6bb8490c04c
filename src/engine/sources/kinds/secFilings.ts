// A public company's EDGAR filings (../sec.ts), by the CIK its Wikidata item states (read from the first cycle's
// baseline): a new filing read by its own rule.
import { formatDay } from "../../../domain/dates.ts";
import { evidence, push, type Rules, rule } from "../../classify/rule.ts";
import type { SignalCategory, SignalType } from "../../classify/types.ts";
import { slug } from "../../classify/wording.ts";
import type { Change } from "../../compare/types.ts";
import { cikOf, parseSubmissions, secFilingsSnapshot, secSubmissionsUrl } from "../sec.ts";
import { getJson, type SourceKind } from "./kind.ts";
import type { WikidataFound } from "./wikidata.ts";

/** 8-K items that are news, most material first: the signal each gives, what the company did (said in a summary)
 * and the same as a headline says it. */
const ITEMS: [string, SignalCategory, SignalType, "high" | "medium", string, string][] = [
  [
    "2.01",
    "company",
    "acquisition",
    "high",
    "completed an acquisition or disposition of assets",
    "completes an acquisition or disposition of assets",
  ],
  [
    "5.02",
    "company",
    "leadership_change",
    "high",
    "reported a change of directors or officers",
    "reports a change of directors or officers",
  ],
  [
    "1.01",
    "company",
    "partnership",
    "medium",
    "entered into a material definitive agreement",
    "enters into a material definitive agreement",
  ],
];

export const secFiling = rule(
  {
    id: "secFiling",
    family: "sec_filings",
    reads: ["feed_item_added"],
    gives: { company: ["acquisition", "leadership_change", "partnership", "filing"] },
    severity: "high (8-K item 2.01, 5.02), medium (1.01), low (10-K, 10-Q)",
    when: "A new filing on EDGAR under the CIK of the Wikidata item the site declares: an 8-K by its items (2.01 acquisition, 5.02 officers, 1.01 material agreement), a 10-K or 10-Q as a low filing signal; other 8-K items (2.02 results, 7.01, 8.01, 9.01) give nothing.",
  },
  function secFiling(r: Rules, c: Change): boolean {
    const m = /^(8-K|10-K|10-Q)(\/A)?(?: \(items ([\d., ]+)\))?$/.exec(c.subject);
    if (!m) return false;
    const [, form, amended, list] = m;
    const items = (list ?? "").split(",").map((x) => x.trim());
    const accession = /accession (\d{10}-\d{2}-\d{6})/.exec(c.context ?? "")?.[1] ?? c.subject;
    const url = c.link ?? c.url;
    const filed = c.published ? ` on ${formatDay(c.published)}` : "";
    const text = `Form ${form}${amended ?? ""}${list ? `, items ${list}` : ""}, filed${filed} (accession ${accession})`;
    const ev = evidence(r, c, text, url, `${r.name} on EDGAR`);
    if (form === "8-K") {
      const hit = ITEMS.find(([item]) => items.includes(item));
      if (!hit) return false;
      const [item, category, type, severity, said, headline] = hit;
      push(r, {
        key: `${category}:${type}:sec-${slug(accession)}`,
        category,
        type,
        severity,
        severity_reasons: [`8-K item ${item}: the company ${said}`],
        confidence: 0.95,
        confidence_reasons: ["a filing with the SEC under the company's CIK"],
        title: `${r.name} ${headline} (8-K, item ${item})`,
        summary: `In a Form 8-K filed${filed} (item ${item}), ${r.name} ${said}.`,
        evidence: [ev],
        subject: `8-K ${accession}`,
      });
      return true;
    }
    const what = form === "10-K" ? "annual report" : "quarterly report";
    push(r, {
      key: `company:filing:sec-${slug(accession)}`,
      category: "company",
      type: "filing",
      severity: "low",
      severity_reasons: [`a periodic ${what}`],
      confidence: 0.95,
      confidence_reasons: ["a filing with the SEC under the company's CIK"],
      title: `${r.name} files its ${what} (${form}${amended ?? ""})`,
      summary: `${r.name} filed a Form ${form}${amended ?? ""}${filed}: its ${what}.`,
      evidence: [ev],
      subject: `${form} ${accession}`,
    });
    return true;
  },
);

export const secFilings: SourceKind<undefined, "sec_filings"> = {
  name: "sec_filings",
  fetch: getJson,
  parse(read, url) {
    const parsed = parseSubmissions(read.text);
    return parsed ? { snapshot: secFilingsSnapshot(url, parsed) } : { error: "unsupported_content" };
  },
  snapshot: "feed",
  classifyAs: () => ({ pageKind: "sec_filings" }),
  rules: [secFiling],
  label: () => "SEC filings",
  discovery: {
    sources(_, _s, all) {
      const cik = (all.wikidata as WikidataFound)?.facts.cik;
      const c = cik ? cikOf(cik) : undefined;
      return c ? [{ url: secSubmissionsUrl(c), kind: "sec_filings" }] : [];
    },
  },
};
