// Keyword rules for announcements: a feed item's, blog post's, changelog entry's or press release's title
// (and a little of its text) → a taxonomy type, with the words that matched as the reason. Only what matches
// a rule is a signal: a generic blog post ("5 tips for better onboarding") gives nothing.
import { launchInLead, partnerInLead, partnershipHeadline, releaseLead } from "./release.ts";
import { findRole, ROLE_WORDS, type Role } from "./roles.ts";
import type { Severity, SignalCategory, SignalType } from "./types.ts";

export interface NewsRead {
  category: SignalCategory;
  type: SignalType;
  severity: Severity;
  /** What the announcement is about: the launched feature, the acquired company, the round, the role … */
  subject: string;
  /** The rule that matched, for severity_reasons. */
  rule: string;
  /** The words that matched. */
  matched: string;
}

const NEW_ROLE = new RegExp(`\\bnew ${ROLE_WORDS}\\b`, "i");

const CERTS: [RegExp, string][] = [
  [/\bsoc ?2(?: type (?:ii|2|i|1))?\b/i, "SOC 2"],
  [/\bsoc ?1\b/i, "SOC 1"],
  [/\biso[ /-]?(?:iec )?27001\b/i, "ISO 27001"],
  [/\biso[ /-]?(?:iec )?27701\b/i, "ISO 27701"],
  [/\biso[ /-]?(?:iec )?27017\b/i, "ISO 27017"],
  [/\biso[ /-]?(?:iec )?27018\b/i, "ISO 27018"],
  [/\biso[ /-]?9001\b/i, "ISO 9001"],
  [/\bhipaa\b/i, "HIPAA"],
  [/\bpci[ -]?dss\b/i, "PCI DSS"],
  [/\bfedramp\b/i, "FedRAMP"],
  [/\bhitrust\b/i, "HITRUST"],
  [/\bcsa star\b/i, "CSA STAR"],
  [/\btisax\b/i, "TISAX"],
  [/\bcyber essentials(?: plus)?\b/i, "Cyber Essentials"],
  [/\bgdpr\b/i, "GDPR"],
];

/** Words of an incident or breach notice. */
export const INCIDENT =
  /\b(security incident|data breach|security breach|breach notification|unauthori[sz]ed access|ransomware attack|cve-\d{4}-\d+|security advisory|incident report)\b/i;

/** Certifications named in a text (normalised names). */
export function certificationsIn(text: string): string[] {
  return CERTS.filter(([re]) => re.test(text)).map(([, n]) => n);
}

const LAUNCH_LEAD =
  /^(?:introducing|announcing|launching|unveiling|meet|say hello to|welcome|new|now available|just launched|launched|released|release|beta|ga|preview)\b[:\s-–—]*/i;
const LAUNCH =
  /\b(introduc(?:e|es|ing)|announc(?:e|es|ing)|launch(?:es|ed|ing)?|unveil(?:s|ed|ing)?|debut(?:s|ed)?|rolls? out|rolled out|now available|now live|is live|are live|is here|are here|generally available|general availability|public beta|private beta|open beta|early access|now in beta|say hello to|premieres?|reveals|adds support for|brings new|delivers new|expands \S+(?: \S+)? with new|makes \S+(?: \S+){0,3} available)\b/i;
const VERSION = /\bv?(\d+)\.(\d+)(?:\.(\d+))?(?:[-+][0-9a-z.]+)?\b/i;
const NEWISH = /\b(new|add(?:s|ed)?|introduc\w*|launch\w*|support for|now (?:supports|available))\b/i;

const SPACES = /\s+/g;

function clip(s: string, max = 80): string {
  const t = s.replace(SPACES, " ").trim();
  return t.length > max ? `${t.slice(0, max - 1).trimEnd()}…` : t;
}

const REGEXP_SPECIAL = /[.*+?^${}()|[\]\\]/g;
const escapeRe = (s: string) => s.replace(REGEXP_SPECIAL, "\\$&");

/** The competitor's name (escaped) at the start of a title, with or without "'s". One pattern per name, kept:
 *  the names a process classifies for are its competitors', and the cache starts over past its bound. */
const NAME_PREFIX_CACHE_MAX = 1024;
const namePrefixes = new Map<string, RegExp>();
function namePrefix(escaped: string): RegExp {
  let re = namePrefixes.get(escaped);
  if (!re) {
    if (namePrefixes.size >= NAME_PREFIX_CACHE_MAX) namePrefixes.clear();
    re = new RegExp(`^${escaped}(?:'s|’s)?\\s+`, "i");
    namePrefixes.set(escaped, re);
  }
  return re;
}

const LEADING_VERSION = /^v?\d+\.\d+(?:\.\d+)?\S*\s*(?:[:–—|-]\s*)?/i;
const LEADING_LAUNCH_VERB =
  /^(?:launch(?:es|ed|ing)?|introduc(?:e|es|ing)|announc(?:e|es|ing)|unveil(?:s|ed|ing)?|debuts?|rolls? out)\s+/i;
const SUBJECT_END = /\s*(?::|\s[–—-]\s|\||,\s|\.\s|!|\?|\()\s*/;
const IS_NOW_AVAILABLE =
  /\s+(?:is|are)\s+(?:now\s+)?(?:here|live|available|generally available|in beta|out|ready).*$/i;
const TRAILING_AVAILABILITY =
  /\s+(?:now\s+)?(?:available|in beta|generally available|launches|launched|ga)$/i;
const LEADING_ARTICLE = /^(?:the|our|a|an|new|all-new|brand-new)\s+/i;
const LEADING_NEW = /^(?:new)\s+/i;
const TRAILING_BANGS = /[.!]+$/;

/** The named thing of a launch title: "Introducing Flows: visual automation" → "Flows". */
export function launchSubject(title: string, company: string): string {
  let t = title.replace(SPACES, " ").trim().replace(LEADING_VERSION, "");
  const co = escapeRe(company.trim());
  const name = co ? namePrefix(co) : undefined;
  if (name) t = t.replace(name, "");
  t = t.replace(LEADING_LAUNCH_VERB, "");
  for (let i = 0; i < 3; i++) t = t.replace(LAUNCH_LEAD, "");
  t = t.split(SUBJECT_END)[0] ?? t;
  t = t.replace(IS_NOW_AVAILABLE, "");
  t = t.replace(TRAILING_AVAILABILITY, "");
  if (name) t = t.replace(name, "");
  t = t.replace(LEADING_ARTICLE, "").replace(LEADING_NEW, "");
  t = t.replace(TRAILING_BANGS, "").trim();
  return clip(t || title, 80);
}

const PHRASE_END =
  /\s*(?:[,:;.!?(]|\s[–—-]\s|\s(?:to|for|in|on|at|as|and|that|which|after|with|across|around)\s)\s*/i;

/** The words after the first match of `re` (a non-global pattern) up to the end of the phrase. */
function after(re: RegExp, text: string): string | undefined {
  const m = re.exec(text);
  if (!m) return undefined;
  const rest = text.slice(m.index + m[0].length);
  const s = rest.split(PHRASE_END)[0];
  return s?.trim() ? clip(s.trim(), 60) : undefined;
}

const AMOUNT =
  /(?:[$€£]\s?\d[\d.,]*\s?(?:million|billion|mm|bn?|k|m)?|\b\d[\d.,]*\s?(?:million|billion)\s?(?:usd|eur|dollars|euros)?)/i;

function money(text: string): string | undefined {
  const m = AMOUNT.exec(text);
  return m?.[0].trim();
}

const END_OR_PUNCTUATION = /^\s*(?:$|[,:;.!?—–-])/;
const THEN_CAPITAL = /^\s+\p{Lu}/u;

/** "Our new CFO", "new CEO Jane Doe": a role right after "new", then the end, punctuation or a name. */
function newRole(t: string): boolean {
  const m = NEW_ROLE.exec(t);
  if (!m) return false;
  const rest = t.slice(m.index + m[0].length);
  return END_OR_PUNCTUATION.test(rest) || THEN_CAPITAL.test(rest);
}

/** A change of leadership: high for a C-level role. */
function leadershipChange(role: Role): NewsRead {
  const cLevel = role.level === "c_level";
  return {
    category: "company",
    type: "leadership_change",
    severity: cLevel ? "high" : "medium",
    subject: role.name,
    rule: cLevel ? "C-level change" : "leadership change",
    matched: role.matched,
  };
}

// A company's name follows (capitalised): "How we acquired 1,000 customers" is not an acquisition.
const ACQUISITION =
  /\b([Aa]cquires|[Aa]cquired|to acquire|[Aa]cquisition of|has been acquired by|[Mm]erges with|[Mm]erger with)\s+(?=\p{Lu})/u;
const ACQUIRED_BY = /has been acquired by\s+/i;
/** The words ACQUISITION matched, then spaces: one pattern per alternative (a dozen at most), kept. */
const acquisitionWords = new Map<string, RegExp>();
function acquisitionWord(matched: string): RegExp {
  let re = acquisitionWords.get(matched);
  if (!re) {
    re = new RegExp(`\\b${escapeRe(matched)}\\s+`, "i");
    acquisitionWords.set(matched, re);
  }
  return re;
}
const FUNDING =
  /\b(series [a-h]\b|seed round|pre-seed|funding round|raises|raised|secures? \S+ (?:in )?funding|closes? \S+ (?:round|funding)|growth equity|investment led by)/i;
const FUNDING_CONTEXT = /\b(series [a-h]|seed|funding|round|invest\w*|capital|led by)\b/i;
const ROUND = /\bseries [a-h]\b|\bseed\b|\bpre-seed\b/i;
const WORD_START = /\b\w/g;
const LEADERSHIP_VERB =
  /\b(appoints?|appointed|names?|named|hires?|hired|welcomes?|promot\w+|joins?|joined|steps? down|depart\w*|succeed\w*)\b/i;
const APPOINTMENT_IN_LEAD =
  /\b(?:announced|announces|has announced)\s+the\s+(?:appointment|hiring|promotion)\s+of\s+[^,.;]{3,80}?\s+as\s+(?:its\s+|the\s+|our\s+)?(?:new\s+)?([^,.;]{3,80})/i;
const CERTIFICATION_VERB =
  /\b(achiev\w*|certif\w*|complian\w*|attest\w*|audit\w*|report|complet\w*|earn\w*|receiv\w*|awarded|obtain\w*)\b/i;
const OFFICE_OPENING =
  /\b(opens?|opening|opened|launches|expands? to|expansion (?:in)?to)\b.{0,40}\b(office|hub|headquarters|hq|studio)\b/i;
const NEW_OFFICE = /\b(new (?:office|hub|headquarters|hq))\b/i;
const OFFICE_PLACE = /\b(?:office|hub|headquarters|hq|studio)\s+in\s+|\bin\s+/i;
const POLICY =
  /\b(terms of service|terms of use|terms and conditions|privacy policy|privacy notice|data processing (?:agreement|addendum)|acceptable use policy|cookie policy|sub-?processors?)\b/i;
const POLICY_EDIT = /\b(updat\w*|chang\w*|revis\w*|new)\b/i;
const COMPANY_FACT_PAGE = /^(about|company|team|leadership|security|trust|careers)$/;
const STARTS_WITH_VERSION = /^v?\d/;
const RELEASE_SOURCE = /changelog|release|github/;
const RELEASE_WORD = /\brelease[sd]?\b/i;
const LEADING_RELEASE_WORD = /^\s*(?:release|version|v)\b/i;
const THREE_LETTERS = /[\p{L}]{3,}/u;
const ONLY_RELEASE_WORD = /^(release|version|changelog)$/i;

/** Reads an announcement. `kind` is the page kind it came from (changelog entries fall back to releases). */
export function readNews(title: string, body: string, company: string, kind: string): NewsRead | null {
  const t = title.replace(SPACES, " ").trim();
  if (!t) return null;
  // The headline and the lead are the news; quotes, the "About" boilerplate (investors, headcount, past
  // acquisitions), forward-looking statements and contacts are not (classify/release.ts).
  const lead = releaseLead(body);
  const all = `${t} ${lead}`.slice(0, 1200);
  let m: RegExpExecArray | null;

  m = ACQUISITION.exec(t);
  if (m) {
    const target = m[1].toLowerCase().startsWith("has been acquired")
      ? `${company} by ${after(ACQUIRED_BY, t) ?? ""}`.trim()
      : (after(acquisitionWord(m[1]), t) ?? clip(t, 60));
    return {
      category: "company",
      type: "acquisition",
      severity: "high",
      subject: target,
      rule: "acquisition",
      matched: m[1],
    };
  }
  m = FUNDING.exec(t);
  if (m && (FUNDING_CONTEXT.test(all) || money(t))) {
    const round = ROUND.exec(all)?.[0];
    const amount = money(t) ?? money(lead);
    const subject = [round ? round.replace(WORD_START, (c) => c.toUpperCase()) : undefined, amount]
      .filter(Boolean)
      .join(" ");
    return {
      category: "company",
      type: "funding",
      severity: "high",
      subject: subject || clip(t, 60),
      rule: "funding",
      matched: m[1],
    };
  }
  const role = findRole(t);
  if (
    role &&
    (LEADERSHIP_VERB.test(t) ||
      // "our new CFO", "new CEO Jane Doe" — not "the new CFO playbook".
      newRole(t))
  ) {
    return leadershipChange(role);
  }
  // "…today announced the appointment of Maria Chen as Chief Revenue Officer" under a headline that names
  // no role ("Globex Strengthens Its Leadership Team").
  const appointed = APPOINTMENT_IN_LEAD.exec(lead);
  const leadRole = appointed ? findRole(appointed[1]) : undefined;
  if (leadRole) return leadershipChange(leadRole);
  m = INCIDENT.exec(t);
  if (m) {
    return {
      category: "legal_security",
      type: "security_incident",
      severity: "high",
      subject: clip(t, 60),
      rule: "incident or breach notice",
      matched: m[1],
    };
  }
  const certs = certificationsIn(t);
  if (certs.length && CERTIFICATION_VERB.test(t)) {
    return {
      category: "legal_security",
      type: "certification",
      severity: "medium",
      subject: certs[0],
      rule: "certification",
      matched: certs[0],
    };
  }
  const headline = partnershipHeadline(t, company);
  if (headline) {
    return {
      category: "company",
      type: "partnership",
      severity: "medium",
      subject: clip(headline.partner ?? partnerInLead(lead) ?? t, 60),
      rule: "partnership",
      matched: headline.matched,
    };
  }
  m = OFFICE_OPENING.exec(t) ?? NEW_OFFICE.exec(t);
  if (m) {
    const where = after(OFFICE_PLACE, t) ?? clip(t, 60);
    return {
      category: "company",
      type: "office_opening",
      severity: "medium",
      subject: where,
      rule: "office opening",
      matched: m[0],
    };
  }
  m = POLICY.exec(t);
  if (m && POLICY_EDIT.test(t)) {
    return {
      category: "legal_security",
      type: "policy_change",
      severity: "low",
      subject: m[1].replace(WORD_START, (c) => c.toUpperCase()),
      rule: "terms or privacy edit",
      matched: m[1],
    };
  }
  // About, security and careers pages announce company facts, not launches ("Meet the team").
  if (COMPANY_FACT_PAGE.test(kind)) return null;
  const v = VERSION.exec(t);
  const launch = LAUNCH.exec(t);
  if (
    launch &&
    !(v && !NEWISH.test(t.replace(v[0], "")) && STARTS_WITH_VERSION.test(launchSubject(t, company)))
  ) {
    return {
      category: "product",
      type: "feature_launch",
      severity: "medium",
      subject: launchSubject(t, company),
      rule: "launch announcement",
      matched: launch[1],
    };
  }
  // A wire release's headline may name no launch verb ("Northwind Brings Renewal Forecasts to Every Plan");
  // its lead does: "…today announced the general availability of Renewal Forecasts".
  const launched = launchInLead(lead);
  if (launched && !v) {
    return {
      category: "product",
      type: "feature_launch",
      severity: "medium",
      subject: clip(launched, 80),
      rule: "launch announcement",
      matched: launched,
    };
  }
  const releaseSource = RELEASE_SOURCE.test(kind);
  if (v && (releaseSource || RELEASE_WORD.test(t))) {
    const patch = v[3] !== undefined && Number(v[3]) > 0;
    const hasNew = NEWISH.test(all);
    const named = launchSubject(t.replace(v[0], "").replace(LEADING_RELEASE_WORD, ""), company);
    return {
      category: "product",
      type: "release",
      severity: patch && !hasNew ? "low" : "medium",
      subject:
        THREE_LETTERS.test(named) && !ONLY_RELEASE_WORD.test(named)
          ? named
          : `v${v[1]}.${v[2]}${v[3] !== undefined ? `.${v[3]}` : ""}`,
      rule: patch && !hasNew ? "patch release" : "release with new features",
      matched: v[0],
    };
  }
  if (releaseSource && kind !== "github") {
    const hasNew = NEWISH.test(all);
    return {
      category: "product",
      type: "release",
      severity: hasNew ? "medium" : "low",
      subject: launchSubject(t, company),
      rule: hasNew ? "changelog entry with new features" : "changelog entry",
      matched: t,
    };
  }
  // "…today announced a strategic partnership with Fivetran" under a headline that does not say so.
  const partner = partnerInLead(lead);
  if (partner) {
    return {
      category: "company",
      type: "partnership",
      severity: "medium",
      subject: clip(partner, 60),
      rule: "partnership",
      matched: partner,
    };
  }
  return null;
}
