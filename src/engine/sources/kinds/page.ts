// A page of the competitor's site (home, pricing, changelog, careers … and any page a person asked to watch):
// one GET, extracted in the Worker pool (cycle/check.ts), read by the rules as its own page kind. Research reads
// the home page and the pages discovery finds (research/index.ts); the pages the site links that could not be
// read now stay sources to watch, guessed standard paths do not.
import { get, type SourceKind } from "./kind.ts";

export const page: SourceKind<undefined, "page"> = {
  name: "page",
  fetch: get,
  snapshot: "page",
  classifyAs: (kind) => ({ pageKind: kind }),
  label: () => "page",
  discovery: {
    sources: (_, s) => [
      { url: s.home.url, kind: "home" },
      ...s.pages.map((p) => ({ url: p.url, kind: p.kind })),
      ...s.discovered.filter((d) => d.via !== "standard").map((d) => ({ url: d.url, kind: d.kind })),
    ],
  },
};
