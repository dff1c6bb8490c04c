// Mention rules: Hacker News stories whose address is on the competitor's domain (sources/hackernews.ts). A story
// that passes the points threshold is a marketing signal with the discussion as evidence.
import { possessive } from "../../domain/prose.ts";
import type { Change } from "../compare/types.ts";
import { HN_POINTS } from "../sources/hackernews.ts";
import { evidence, push, type Rules, rule } from "./rule.ts";
import { slug } from "./wording.ts";

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
    family: "mentions",
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
