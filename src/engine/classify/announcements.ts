// Announcement rules: a new feed item, or a new entry on a blog / changelog / press / about / security page,
// read by the keyword rules of news.ts.
import { firstSentences, withArticle, withStop } from "../../domain/prose.ts";
import type { EvidenceItem } from "../../domain/records.ts";
import type { Change } from "../compare/types.ts";
import { readNews } from "./news.ts";
import { evidence, push, type RuleInfo, type Rules, rule } from "./rule.ts";
import { clip, pageWord, q, slug } from "./wording.ts";

export const NEWS_PAGES = new Set([
  "feed",
  "blog",
  "changelog",
  "releases",
  "release_notes",
  "press",
  "news",
  "newsroom",
  "github",
  "about",
  "security",
  "trust",
]);

const STARTS_WITH_VERSION = /^v\d/;

export function announcement(
  r: Rules,
  c: Change,
  title: string,
  body: string,
  link: string | undefined,
  extra: EvidenceItem[] = [],
): boolean {
  // A feed is read as its source kind declares (sources/kinds/): GitHub releases, a changelog's feed, a feed.
  const kind = r.ctx.pageKind;
  const n = readNews(title, body, r.name, kind);
  if (!n) return false;
  let severity = n.severity;
  const reasons = [`${n.rule}: "${n.matched}" in ${q(title)}`];
  if (n.type === "feature_launch" && (r.ctx.pageKind === "home" || r.ctx.pageKind === "pricing")) {
    severity = "high";
    reasons.push(`announced on the ${pageWord(r.ctx.pageKind)} (flagship launch)`);
  }
  const versionOnly = n.type === "release" && STARTS_WITH_VERSION.test(n.subject);
  // A repository's release names the repository: "globex-js v4.3.0".
  const repo = kind === "github" ? r.ctx.sourceName : undefined;
  if (versionOnly && repo) n.subject = `${repo} ${n.subject}`;
  const keyPart =
    n.type === "feature_launch" || (n.type === "release" && !versionOnly)
      ? `product:launch:${slug(n.subject)}`
      : `${n.category}:${n.type}:${slug(n.subject)}`;
  const url = link ?? c.url;
  const text = body ? `${title} — ${clip(body, 400)}` : title;
  const fromFeed = c.source === "feed";
  const where = !fromFeed
    ? pageWord(r.ctx.pageKind)
    : kind === "github"
      ? "GitHub releases"
      : kind === "changelog"
        ? "changelog feed"
        : "feed";
  push(r, {
    key: keyPart,
    category: n.category,
    type: n.type,
    severity,
    severity_reasons: reasons,
    confidence: fromFeed ? 0.8 : 0.75,
    confidence_reasons: [`keyword rule on a new ${fromFeed ? "feed item" : `entry of the ${where}`}'s title`],
    title: newsTitle(r.name, n.type, n.subject, title),
    summary: newsSummary(r.name, title, where, body),
    evidence: [evidence(r, c, text, url, fromFeed ? title : r.ctx.pageTitle), ...extra],
    subject: n.subject,
  });
  return true;
}

const DATELINE =
  /^(?:(⟨date⟩)\s+)?[A-Z][A-Z .'-]{2,}(?:,\s*[A-Z][\p{L} .'-]*?)?(?:,\s*(⟨date⟩))?\s*(?:-{1,2}\s*\((?:BUSINESS WIRE|GLOBE NEWSWIRE|ACCESSWIRE|PRNewswire)\)\s*-{1,2}|\/\s*PR ?Newswire\s*\/\s*-{1,2}|[—–])\s*/u;

const BYLINE_SEPARATOR = /\s+·\s+/;
const DATE_PLACEHOLDER = /^⟨date⟩$/;
const SENTENCE_END = /[.!?]$/;
// Release notes' items ("New: … Fixed: …") read as sentences.
const BEFORE_NOTE_ITEM =
  /([^.!?:;])\s+(?=(?:New|Fixed|Improved|Changed|Added|Removed|Deprecated|Security):\s)/g;

/** "Globex published "…" on its blog page on ⟨date⟩. <the entry's first sentences>": the entry's date line
 * and byline (short parts joined by "·") said once, as the date it was published, not quoted as text. */
function newsSummary(name: string, title: string, where: string, body: string): string {
  // A press release's dateline ("⟨date⟩ LISBON, Portugal--(BUSINESS WIRE)--", "BOSTON, ⟨date⟩ /PRNewswire/ --")
  // is its date, not its text.
  const line = DATELINE.exec(body);
  const lead0 = line ? body.slice(line[0].length) : body;
  const parts = lead0.split(BYLINE_SEPARATOR);
  const date = line?.[1] ?? line?.[2] ?? parts.find((p) => DATE_PLACEHOLDER.test(p.trim()));
  const text = parts.filter((p) => p.length >= 40 || SENTENCE_END.test(p.trim())).join(" ");
  const lead = `${name} published ${q(title)} on its ${where}${date ? ` on ${date}` : ""}.`;
  const said = text.replace(BEFORE_NOTE_ITEM, "$1. ");
  return said ? `${lead} ${withStop(firstSentences(said, 300))}` : lead;
}

const ACQUIRED_BY = /^.+ by /;
const ROUND_AND_AMOUNT = /^(Series [A-H]|Seed|Pre-Seed)?\s*(.*)$/i;
const DIGIT = /\d/;

export function newsTitle(name: string, type: string, subject: string, title: string): string {
  switch (type) {
    case "feature_launch":
      return `${name} launches ${subject}`;
    case "release":
      return `${name} releases ${subject}`;
    case "acquisition":
      return ACQUIRED_BY.test(subject) && subject.startsWith(name)
        ? `${name} is acquired: ${clip(title, 160)}`
        : `${name} acquires ${subject}`;
    case "funding": {
      // "Series B $40 million" → "raises a $40 million Series B"
      const m = ROUND_AND_AMOUNT.exec(subject);
      const round = m?.[1];
      const amount = m?.[2] && DIGIT.test(m[2]) ? m[2] : undefined;
      if (round && amount) return `${name} raises ${withArticle(`${amount} ${round}`)}`;
      if (round) return `${name} raises ${withArticle(`${round} round`)}`;
      if (amount) return `${name} raises ${amount}`;
      return `${name} raises funding${subject ? `: ${subject}` : ""}`;
    }
    case "leadership_change":
      // the announcement's own headline says who and what ("Northwind appoints Dana Whitfield as CEO")
      return title.toLowerCase().startsWith(name.toLowerCase())
        ? clip(title, 200)
        : `${name} leadership change (${subject}): ${clip(title, 160)}`;
    case "partnership":
      return `${name} announces partnership with ${subject}`;
    case "office_opening":
      return `${name} opens an office in ${subject}`;
    case "security_incident":
      return `${name} reports a security incident: ${clip(title, 160)}`;
    case "certification":
      return `${name} announces ${subject} certification`;
    case "policy_change":
      return `${name} updates its ${subject}`;
    default:
      return `${name}: ${clip(title, 200)}`;
  }
}

/** What the announcement keyword rules (news.ts) can give. */
const NEWS_GIVES: RuleInfo["gives"] = {
  company: ["acquisition", "funding", "leadership_change", "partnership", "office_opening"],
  product: ["feature_launch", "release"],
  legal_security: ["security_incident", "certification", "policy_change"],
};

export const feedItem = rule(
  {
    id: "feedItem",
    family: "announcements",
    reads: ["feed_item_added"],
    gives: NEWS_GIVES,
    severity: "per keyword rule (news.ts)",
    when: "A new feed item (blog, changelog, GitHub releases, press) read by the announcement keyword rules.",
  },
  function feedItem(r: Rules, c: Change): boolean {
    return announcement(r, c, c.subject, c.context ?? "", c.link);
  },
);

/** New entries on article-like pages: an added heading with the paragraphs under it, or a new card. */
export const entries = rule(
  {
    id: "entries",
    family: "announcements",
    reads: ["text_added"],
    gives: NEWS_GIVES,
    severity: "per keyword rule (news.ts)",
    when: "A new heading with the text under it (on a news list also a new section whose heading took the newest entry's place), or a new card, on a blog, newsroom, changelog, about or security page, read by the announcement keyword rules (a press release by its headline and lead only).",
  },
  function entries(r: Rules, changes: Change[]): Set<Change> {
    const used = new Set<Change>();
    const added = changes.filter((c) => c.kind === "text_added");
    for (const c of added) {
      const isHeading = c.after !== null && c.subject === c.after && !c.added;
      const isCard = !!c.added && c.after !== null && c.after.includes(": ");
      if (!isHeading && !isCard) continue;
      const title = isHeading ? c.after! : c.after!.split(": ")[0];
      const bodyParts = isCard ? [c.after!.slice(title.length + 2)] : [];
      const under = added.filter((o) => o !== c && o.section === title && o.subject !== o.after);
      for (const o of under) bodyParts.push(o.after ?? "");
      if (announcement(r, c, title, bodyParts.join(" "), undefined)) {
        used.add(c);
        for (const o of under) used.add(o);
      }
    }
    // A new entry whose heading the comparison paired with the old first entry's heading (on a news list the
    // newest entry's title sits where the previous one's did, and reads as the hero's subheadline): its
    // paragraphs arrive under a section the previous version did not have.
    const before = r.ctx.previous;
    if (before && NEWS_PAGES.has(r.ctx.pageKind)) {
      const headings = new Set(
        (before.blocks ?? []).flatMap((b) => (b.t === "h" ? [b.text] : b.t === "card" ? [b.title] : [])),
      );
      const sections = new Map<string, Change[]>();
      for (const c of added)
        if (!used.has(c) && c.section && c.after !== c.section && !headings.has(c.section))
          sections.set(c.section, [...(sections.get(c.section) ?? []), c]);
      for (const [title, under] of sections) {
        if (announcement(r, under[0], title, under.map((o) => o.after ?? "").join(" "), undefined))
          for (const o of under) used.add(o);
      }
    }
    return used;
  },
);
