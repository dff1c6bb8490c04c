// The Wikidata item the site declares as itself (its JSON-LD sameAs, else a link on its pages), used only when
// the item's official website is this site (../wikidata.ts): its facts in words, compared field by field, a new
// chief executive read by its own rule; the dossier's chief executive and SEC CIK, kept current by cycles.

import { possessive } from "../../../domain/prose.ts";
import type { ResearchProfile } from "../../../domain/researchTypes.ts";
import { evidence, push, type Rules, rule, stateChange } from "../../classify/rule.ts";
import { slug } from "../../classify/wording.ts";
import { normaliseStructured } from "../../compare/normalise.ts";
import type { Change } from "../../compare/types.ts";
import { cikOf, edgarFilingsPage } from "../sec.ts";
import {
  isOfficialSite,
  readWikidata,
  type WikidataFacts,
  wikidataEntityUrl,
  wikidataFactsOf,
  wikidataFields,
  wikidataItemFrom,
  wikidataItemPage,
} from "../wikidata.ts";
import { type FieldEvidence, linkedUrls, type SourceKind, sameAsUrls } from "./kind.ts";

export type WikidataFound = { url: string; facts: WikidataFacts } | undefined;

export const chiefExecutive = rule(
  {
    id: "chiefExecutive",
    family: "wikidata",
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

export const wikidata: SourceKind<WikidataFound, "wikidata"> = {
  name: "wikidata",
  fetch: readWikidata,
  parse(read, url) {
    const facts = wikidataFactsOf(read.text);
    return facts
      ? { snapshot: normaliseStructured(url, wikidataFields(facts)), read: wikidataReads(facts) }
      : { error: "unsupported_content" };
  },
  // A new chief executive (its leadership_change signal) or CIK is the dossier's in the same command.
  observe: (_src, now) =>
    now.read
      ? {
          chief_executive: (now.read.chief_executive as Record<string, unknown> | null) ?? null,
          sec: (now.read.sec as Record<string, unknown> | null) ?? null,
        }
      : {},
  snapshot: "structured",
  classifyAs: () => ({ pageKind: "wikidata" }),
  rules: [chiefExecutive],
  label: () => "Wikidata",
  discovery: {
    async read(s, io) {
      const item = wikidataItemFrom([...sameAsUrls(s), ...linkedUrls(s)]);
      if (!item) return undefined;
      const url = wikidataEntityUrl(item);
      const r = await readWikidata(io.counting, url, {});
      if (!r.ok) {
        io.failed(url, r.error);
        return undefined;
      }
      const facts = wikidataFactsOf(r.text);
      if (!facts || !isOfficialSite(facts, s.site.href)) {
        io.failed(url, "not_official_website");
        return undefined;
      }
      return { url, facts };
    },
    sources: (found) => (found ? [{ url: found.url, kind: "wikidata" }] : []),
    reads: (found) => {
      if (!found) return undefined;
      const r = wikidataReads(found.facts);
      return {
        ...(r.chief_executive ? { funding: { chief_executive: r.chief_executive } } : {}),
        ...(r.sec ? { regulation: { sec: r.sec } } : {}),
      };
    },
    profile: (found, p, evidence) => {
      if (found) fillFromWikidata(p, evidence, found.facts);
    },
  },
};

type Obj = Record<string, unknown>;

/** What the dossier's reads show of the item: its chief executive (`reads.funding.chief_executive`) and the
 * company's SEC Central Index Key with its EDGAR filings (`reads.regulation.sec`), each with the item as source. */
export function wikidataReads(f: WikidataFacts): { chief_executive: Obj | null; sec: Obj | null } {
  const source = { source: wikidataItemPage(f.item), source_title: "Wikidata" };
  const cik = f.cik ? cikOf(f.cik) : undefined;
  return {
    chief_executive: f.chief_executive ? { name: f.chief_executive, ...source } : null,
    sec: cik ? { cik, filings: edgarFilingsPage(cik), ...source } : null,
  };
}

/** The company facts the site does not state itself, from its Wikidata item, each with the item as its source:
 * founding year, headquarters, parent organisation and stock ticker (a ticker: publicly traded). */
function fillFromWikidata(p: ResearchProfile, evidence: FieldEvidence, f: WikidataFacts): void {
  const url = wikidataItemPage(f.item);
  const said = (field: string, excerpt: string) => {
    evidence[field] = { url, excerpt: `${excerpt} (Wikidata ${f.item})` };
  };
  if (p.founding_year === undefined && f.inception_year) {
    p.founding_year = f.inception_year;
    said("founding_year", `inception: ${f.inception_year}`);
  }
  if (!p.headquarters && f.headquarters) {
    p.headquarters = { city: f.headquarters, ...(f.country ? { country: f.country } : {}) };
    said("headquarters", `headquarters location: ${f.headquarters}${f.country ? `, ${f.country}` : ""}`);
  }
  const own = p.ownership ?? {};
  const parent = !own.parent_company_name && f.parent_organization;
  // A site that says it is not publicly traded is not contradicted.
  const ticker = !own.ticker && own.public !== false && f.ticker;
  if (parent || ticker) {
    p.ownership = {
      ...own,
      ...(parent ? { parent_company_name: f.parent_organization } : {}),
      ...(ticker ? { ticker: f.ticker, public: true } : {}),
    };
    said(
      "ownership",
      [
        parent ? `parent organization: ${f.parent_organization}` : "",
        ticker ? `ticker symbol: ${f.ticker}` : "",
      ]
        .filter(Boolean)
        .join("; "),
    );
  }
}
