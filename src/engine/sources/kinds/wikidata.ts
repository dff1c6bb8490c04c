// The Wikidata item the site declares as itself (its JSON-LD sameAs, else a link on its pages), used only when
// the item's official website is this site (../wikidata.ts): its facts in words, compared field by field, a new
// chief executive read by its own rule.
import { chiefExecutive } from "../../classify/facts.ts";
import { normaliseStructured } from "../../compare/normalise.ts";
import {
  isOfficialSite,
  readWikidata,
  type WikidataFacts,
  wikidataEntityUrl,
  wikidataFactsOf,
  wikidataFields,
  wikidataItemFrom,
} from "../wikidata.ts";
import { linkedUrls, type SourceKind, sameAsUrls } from "./kind.ts";

export type WikidataFound = { url: string; facts: WikidataFacts } | undefined;

export const wikidata: SourceKind<WikidataFound, "wikidata"> = {
  name: "wikidata",
  fetch: readWikidata,
  parse(read, url) {
    const facts = wikidataFactsOf(read.text);
    return facts
      ? { snapshot: normaliseStructured(url, wikidataFields(facts)) }
      : { error: "unsupported_content" };
  },
  snapshot: "structured",
  classifyAs: () => ({ pageKind: "wikidata", rules: [chiefExecutive] }),
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
  },
};
