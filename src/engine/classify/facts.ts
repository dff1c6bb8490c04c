// Facts rules: the Wikidata item the competitor's site declares as itself (sources/wikidata.ts). A new chief
// executive is a leadership signal with the item as evidence; the other facts (founding year, headquarters,
// parent, ticker, CIK) fill the dossier at research and are no signal when edited (Wikidata is edited by anyone:
// only the change that matters is reported).
import type { Change } from "../compare/types.ts";
import { evidence, push, type Rules, rule, stateChange } from "./rule.ts";
import { slug } from "./wording.ts";

/** The page kind the classifier reads a Wikidata item as. */
export const WIKIDATA = "wikidata";

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
        : `${r.name}'s chief executive is ${c.after}`,
      summary: c.before
        ? `Wikidata now names ${c.after} as ${r.name}'s chief executive officer, in place of ${c.before}.`
        : `Wikidata now names ${c.after} as ${r.name}'s chief executive officer.`,
      evidence: [evidence(r, c, text, page, "Wikidata")],
      subject: c.after,
    });
    return true;
  },
);
