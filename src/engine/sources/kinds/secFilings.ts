// A public company's EDGAR filings (../sec.ts), by the CIK its Wikidata item states (read from the first cycle's
// baseline): a new filing read by its own rule.
import { secFiling } from "../../classify/facts.ts";
import { cikOf, parseSubmissions, secFilingsSnapshot, secSubmissionsUrl } from "../sec.ts";
import { getJson, type SourceKind } from "./kind.ts";
import type { WikidataFound } from "./wikidata.ts";

export const secFilings: SourceKind<undefined, "sec_filings"> = {
  name: "sec_filings",
  fetch: getJson,
  parse(read, url) {
    const parsed = parseSubmissions(read.text);
    return parsed ? { snapshot: secFilingsSnapshot(url, parsed) } : { error: "unsupported_content" };
  },
  snapshot: "feed",
  classifyAs: () => ({ pageKind: "sec_filings", rules: [secFiling] }),
  label: () => "SEC filings",
  discovery: {
    sources(_, _s, all) {
      const cik = (all.wikidata as WikidataFound)?.facts.cik;
      const c = cik ? cikOf(cik) : undefined;
      return c ? [{ url: secSubmissionsUrl(c), kind: "sec_filings" }] : [];
    },
  },
};
