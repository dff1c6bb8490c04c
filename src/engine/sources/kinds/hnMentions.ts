// Hacker News stories on the competitor's own domain (../hackernews.ts), past the points threshold (read from
// the first cycle's baseline): a new one read by its own rule.
import { hackerNewsStory } from "../../classify/mentions.ts";
import { hnDomainOf, hnSearchUrl, hnSnapshot, parseHnSearch } from "../hackernews.ts";
import { getJson, type SourceKind } from "./kind.ts";

export const hnMentions: SourceKind<undefined, "hn_mentions"> = {
  name: "hn_mentions",
  fetch: getJson,
  parse(read, url) {
    const domain = hnDomainOf(url);
    const stories = domain ? parseHnSearch(read.text, domain) : null;
    return stories ? { snapshot: hnSnapshot(url, stories) } : { error: "unsupported_content" };
  },
  snapshot: "feed",
  classifyAs: () => ({ pageKind: "hacker_news", rules: [hackerNewsStory] }),
  label: () => "Hacker News",
  discovery: {
    sources: (_, s) => [{ url: hnSearchUrl(s.site.hostname.replace(/^www\./, "")), kind: "hn_mentions" }],
  },
};
