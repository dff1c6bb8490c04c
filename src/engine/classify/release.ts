// A press release read as one is written: a headline, a dateline ("SAN FRANCISCO, Nov. 12, 2026
// /PRNewswire/ --", "BOSTON--(BUSINESS WIRE)--", "(GLOBE NEWSWIRE)"), a lead paragraph that says what
// happened, then quotes, background and boilerplate — "About <company>" (what it does, its investors, its
// headcount), forward-looking statements, media contacts. Only the headline and the lead are the news: the
// rest describes the company as it always was, and must never become a funding, acquisition, leadership or
// hiring signal.

/** Where a release's own news ends: the boilerplate and contact sections. */
const BOILERPLATE =
  /(?:^|\n|\s{2,}|[.!?"”]\s+)(?=(?:about (?:the )?[\p{Lu}\d][^\n]{0,80}?(?:\n|:|\s{2,}|$)|about us\b|forward[- ]looking statements|safe harbor|cautionary (?:note|statement)|media (?:contact|inquiries|relations)|press (?:contact|inquiries)|investor (?:contact|relations)|contacts?:|for more information|source:|view original content|###))/iu;

/** A wire service's dateline, up to the dash after it. */
const DATELINE =
  /^[\s\S]{0,160}?(?:\/\s*(?:PRNewswire|PRWeb|Newswire)[^/]*\/|\((?:BUSINESS WIRE|GLOBE NEWSWIRE|ACCESSWIRE|MARKETWIRED|EZ NEWSWIRE|PRNewswire)\)|\b(?:BUSINESS WIRE|GLOBE NEWSWIRE)\b)\s*(?:--|—|–|-)+\s*/i;

/** A plain dateline: "LONDON, 12 November 2026 —", "Austin, TX — Nov 12, 2026 —". */
const PLAIN_DATELINE =
  /^\s*[\p{Lu}][\p{L} .,'-]{1,40},?\s*(?:[\p{Lu}]{2}\s*)?(?:[—–-]{1,2}\s*)?(?:\(?[A-Z][a-z]{2,8}\.? \d{1,2},? \d{4}\)?|\d{1,2} [A-Z][a-z]{2,8} \d{4})\s*(?:--|—|–|-)\s*/u;

/** A sentence that is someone speaking: quoted words and a "said"/"says"/"added". */
const QUOTE =
  /["“][^"”]{8,}["”][^.]{0,80}\b(?:said|says|added|explained|noted|commented)\b[^.]*\.|\b(?:said|says|added)\s+[^.]{0,80}["“][^"”]{8,}["”]/giu;

const CARRIAGE_RETURNS = /\r/g;
const SPACES = /\s+/g;

/** The news of a press release (or of any post written like one): the text before its boilerplate, without
 * the dateline and without quotes; the first `max` characters. */
export function releaseLead(body: string, max = 600): string {
  let t = body.replace(CARRIAGE_RETURNS, "");
  const cut = BOILERPLATE.exec(t);
  if (cut && cut.index > 0) t = t.slice(0, cut.index + cut[0].length);
  t = t.replace(DATELINE, "").replace(PLAIN_DATELINE, "");
  t = t.replace(QUOTE, " ");
  t = t.replace(SPACES, " ").trim();
  return t.length > max ? t.slice(0, max) : t;
}

const LAUNCH_IN_LEAD =
  /\b(?:today |has |recently )?(?:announced|announces|unveiled|unveils|introduced|introduces|launched|launches|released|releases|debuted|debuts|rolled out|rolls out)\s+(?:the\s+)?(?:launch|release|general availability|availability|public beta|beta|debut|introduction)\s+of\s+(?:its\s+|the\s+|a\s+|an\s+)?(?:new\s+|all-new\s+)?([^,.;:(—–]{3,80})/i;

/** "…today announced the launch of X, …", "…announced the general availability of X": the launched thing. */
export function launchInLead(lead: string): string | undefined {
  const m = LAUNCH_IN_LEAD.exec(lead);
  return m?.[1]?.trim();
}

const PARTNER_IN_LEAD =
  /\b(?:(?:a|an|new|its|strategic|global|multi-year|expanded|technology|integration|reseller|distribution)\s+)+(?:partnership|collaboration|alliance)\s+with\s+([^,.;:(—–]{2,60})|\bin (?:partnership|collaboration) with\s+([^,.;:(—–]{2,60})|\b(?:partnered|teamed up|joined forces)\s+with\s+([^,.;:(—–]{2,60})/i;

/** "…announced a strategic partnership with Y", "…in partnership with Y": the partner. */
export function partnerInLead(lead: string): string | undefined {
  const m = PARTNER_IN_LEAD.exec(lead);
  return (m?.[1] ?? m?.[2] ?? m?.[3])?.trim();
}

const PARTNERS_PAIR =
  /^(.{2,60}?)\s+(?:&|and|\+|x)\s+(.{2,60}?)\s+(partner|team up|join forces|collaborate|announce (?:a |an |new |strategic |global )*(?:partnership|collaboration|alliance))\b/i;
const PARTNERSHIP_WORDS =
  /\b(partners? with|partnership with|teams? up with|strategic alliance|joins forces with|collaborates? with|collaboration with|announc\w* (?:a |an |new |strategic |global )*(?:partnership|collaboration|alliance)|partner to)\b/i;
const PARTNER_AFTER_WORDS =
  /\b(?:partners? with|partnership with|teams? up with|joins forces with|alliance with|collaborates? with|collaboration with)\s+([^,.;:(—–|]{2,60}?)(?:\s+to\b|\s+on\b|\s+for\b|$|[,.;:(—–|])/i;

/** "X & Y Partner to …", "X and Y Announce Strategic Partnership", "X Teams Up with Y", "X Collaborates with
 * Y": a headline that announces a partnership, and the other party when it names one. */
export function partnershipHeadline(
  title: string,
  company: string,
): { matched: string; partner?: string } | undefined {
  const t = title.replace(SPACES, " ").trim();
  const pair = PARTNERS_PAIR.exec(t);
  if (pair) {
    const [a, b] = [pair[1].trim(), pair[2].trim()];
    const other = a.toLowerCase().includes(company.toLowerCase())
      ? b
      : b.toLowerCase().includes(company.toLowerCase())
        ? a
        : b;
    return { matched: pair[3], partner: other };
  }
  const one = PARTNERSHIP_WORDS.exec(t);
  if (!one) return undefined;
  const partner = PARTNER_AFTER_WORDS.exec(t)?.[1];
  return { matched: one[1], partner: partner?.trim() };
}
