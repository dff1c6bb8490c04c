// Hacker News stories on the competitor's own domain (../hackernews.ts), past the points threshold (read from
// the first cycle's baseline): a new one read by its own rule.
import { possessive } from "../../../domain/prose.ts";
import { evidence, push, type Rules, rule } from "../../classify/rule.ts";
import { slug } from "../../classify/wording.ts";
import type { Change } from "../../compare/types.ts";
import { HN_POINTS, hnDomainOf, hnSearchUrl, hnSnapshot, parseHnSearch } from "../hackernews.ts";
import { getJson, type SourceKind } from "./kind.ts";

/** A linked page as a reader names it: its path ("/blog/series-b"), or "home page" for the root. */
function pageName(url: string): string {
  try {
    const u = new URL(url);
    return u.pathname === "/" ? "home page" : decodeURIComponent(u.pathname);
  } catch {
    return url;
  }
}

export const hackerNewsStory = rule(
  {
    id: "hackerNewsStory",
    family: "hn_mentions",
    reads: ["feed_item_added"],
    gives: { marketing: ["mention"] },
    severity: "medium",
    when: `A Hacker News story whose address is on the competitor's domain passes ${HN_POINTS} points (found through the Algolia search API).`,
  },
  function hackerNewsStory(r: Rules, c: Change): boolean {
    const target = c.context ?? "";
    push(r, {
      key: `marketing:mention:hn-${slug(c.link ?? c.subject)}`,
      category: "marketing",
      type: "mention",
      severity: "medium",
      severity_reasons: [`a Hacker News story about its site passed ${HN_POINTS} points`],
      confidence: 0.9,
      confidence_reasons: ["the story links the competitor's own domain"],
      title: `${r.name} on Hacker News: "${c.subject}"`,
      summary: target
        ? `A Hacker News story linking ${possessive(r.name)} page ${pageName(target)} passed ${HN_POINTS} points: "${c.subject}".`
        : `A Hacker News story about ${r.name} passed ${HN_POINTS} points: "${c.subject}".`,
      evidence: [
        evidence(r, c, target ? `${c.subject} (${target})` : c.subject, c.link ?? c.url, "Hacker News"),
      ],
      subject: c.subject,
    });
    return true;
  },
);

export const hnMentions: SourceKind<undefined, "hn_mentions"> = {
  name: "hn_mentions",
  fetch: getJson,
  parse(read, url) {
    const domain = hnDomainOf(url);
    const stories = domain ? parseHnSearch(read.text, domain) : null;
    return stories ? { snapshot: hnSnapshot(url, stories) } : { error: "unsupported_content" };
  },
  snapshot: "feed",
  classifyAs: () => ({ pageKind: "hacker_news" }),
  rules: [hackerNewsStory],
  label: () => "Hacker News",
  discovery: {
    sources: (_, s) => [{ url: hnSearchUrl(s.site.hostname.replace(/^www\./, "")), kind: "hn_mentions" }],
  },
};
