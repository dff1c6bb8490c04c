// Facts rules: the Wikidata item the competitor's site declares as itself (sources/wikidata.ts) and the SEC
// filings of the CIK it states (sources/sec.ts). A new chief executive is a leadership signal with the item as
// evidence; the other facts fill the dossier at research and are no signal when edited (Wikidata is edited by
// anyone: only the change that matters is reported). A new 8-K is a signal by its items, a 10-K or 10-Q a low one.
import { formatDay } from "../../domain/dates.ts";
import { possessive } from "../../domain/prose.ts";
import type { Change } from "../compare/types.ts";
import { evidence, push, type Rules, rule, stateChange } from "./rule.ts";
import type { SignalCategory, SignalType } from "./types.ts";
import { slug } from "./wording.ts";

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

export const chiefExecutive = rule(
  {
    id: "chiefExecutive",
    family: "facts",
    reads: ["field_changed"],
    gives: { company: ["leadership_change"] },
    severity: "high",
    when: "The chief executive (P169) of the Wikidata item the site declares as itself (its official website the site) changes.",
  },
  function chiefExecutive(r: Rules, c: Change): boolean {
    if (c.subject !== "chief_executive" || !c.after) return false;
    const item = /Special:EntityData\/(Q\d+)\.json$/.exec(c.url)?.[1];
    const page = item ? `https://www.wikidata.org/wiki/${item}` : c.url;
    const text = c.before
      ? `chief executive officer: ${c.before} → ${c.after}`
      : `chief executive officer: ${c.after}`;
    push(r, {
      ...stateChange(`company:leadership_change:chief-executive:${slug(r.name)}`, c.before, c.after),
      category: "company",
      type: "leadership_change",
      severity: "high",
      severity_reasons: ["a new chief executive"],
      confidence: 0.7,
      confidence_reasons: [
        "stated by the Wikidata item whose official website is the competitor's site (anyone may edit Wikidata)",
      ],
      title: c.before
        ? `${r.name} has a new chief executive: ${c.after} (was ${c.before})`
        : `${possessive(r.name)} chief executive is ${c.after}`,
      summary: c.before
        ? `Wikidata now names ${c.after} as ${possessive(r.name)} chief executive officer, in place of ${c.before}.`
        : `Wikidata now names ${c.after} as ${possessive(r.name)} chief executive officer.`,
      evidence: [evidence(r, c, text, page, "Wikidata")],
      subject: c.after,
    });
    return true;
  },
);

export const secFiling = rule(
  {
    id: "secFiling",
    family: "facts",
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
        summary: `${r.name} filed a Form 8-K${filed} reporting item ${item}: it ${said}.`,
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
