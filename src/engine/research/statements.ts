// What a competitor's own pages state about money and compliance, read sentence by sentence with transparent
// patterns: funding rounds ("raised a $40 million Series B"), who backs or owns it, revenue when stated, and
// certifications (SOC 2, ISO 27001 …). Only what a sentence says; nothing is estimated. Each item keeps the
// sentence and the page it came from.

import { sentences as splitSentences } from "../../domain/prose.ts";
export interface StatedText {
  url: string;
  text: string;
}

export interface FundingRound {
  round: string;
  amount_text?: string;
  amount?: number;
  currency?: string;
  date?: string;
  text: string;
  source: string;
}

const ROUND = /\b(pre-seed|seed|series\s+[a-h]|growth round|growth equity|bridge round)\b/i;
const MONEY =
  /(?:(US\$|\$|€|£)\s?(\d+(?:[.,]\d+)?)\s*(million|billion|mn|bn|m|b|k)?\b|(\d+(?:[.,]\d+)?)\s*(million|billion)\s+(dollars|euros|pounds|USD|EUR|GBP))/i;
const RAISE =
  /\b(raised|raises|raising|closed|closes|secured|secures|announced|announces|completed|led by|funding|round of)\b/i;
const MONTHS =
  /\b(January|February|March|April|May|June|July|August|September|October|November|December)\s+(\d{1,2},\s+)?(\d{4})\b/;

/** A text's sentences of a readable length (the one splitter, domain/prose.ts). */
export function sentences(text: string): string[] {
  return splitSentences(text).filter((s) => s.length < 600);
}

function money(s: string): { amount_text: string; amount?: number; currency?: string } | undefined {
  const m = MONEY.exec(s);
  if (!m) return undefined;
  const sym = m[1] ?? "";
  const num = Number((m[2] ?? m[4]).replace(",", "."));
  const unit = (m[3] ?? m[5] ?? "").toLowerCase();
  const mult =
    unit === "billion" || unit === "bn" || unit === "b"
      ? 1e9
      : unit === "million" || unit === "mn" || unit === "m"
        ? 1e6
        : unit === "k"
          ? 1e3
          : 1;
  const cur = m[6]?.toUpperCase();
  const currency = sym.includes("$")
    ? "USD"
    : sym === "€"
      ? "EUR"
      : sym === "£"
        ? "GBP"
        : cur === "DOLLARS"
          ? "USD"
          : cur === "EUROS"
            ? "EUR"
            : cur === "POUNDS"
              ? "GBP"
              : cur;
  return {
    amount_text: m[0].trim(),
    ...(Number.isFinite(num) && mult > 1 ? { amount: Math.round(num * mult) } : {}),
    ...(currency ? { currency } : {}),
  };
}

function isoDate(s: string): string | undefined {
  const m = MONTHS.exec(s);
  if (!m) return /\b(?:in|since|during)\s+((?:19|20)\d\d)\b/i.exec(s)?.[1];
  const d = new Date(`${m[1]} ${m[2] ? m[2].replace(",", "") : "1"} ${m[3]} UTC`);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString().slice(0, m[2] ? 10 : 7);
}

function titleRound(r: string): string {
  const t = r.toLowerCase().replace(/\s+/g, " ");
  if (t.startsWith("series")) return `Series ${t.slice(-1).toUpperCase()}`;
  if (t === "pre-seed") return "Pre-seed";
  return t[0].toUpperCase() + t.slice(1);
}

/** A sentence about the company itself: first person ("we raised"), or naming it (not as someone's vendor: "a
 * Globex customer"). Keeps a blog post about a customer's round ("Acme, a customer, raised a Series A") out of
 * the competitor's funding. */
function aboutItself(s: string, names: string[]): boolean {
  if (/\bwe('ve| have| are|'re)?\b/i.test(s)) return true;
  if (/\bour (pre-seed|seed|series|funding|round|investors|backers|latest|new)\b/i.test(s)) return true;
  // Named as itself, not as a customer's or partner's vendor ("Acme, a Globex customer, raised …").
  return names.some(
    (n) =>
      n.length > 1 &&
      new RegExp(
        `(?<![\\p{L}\\d])${n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\p{L}\\d])(?!\\s+(?:customers?|clients?|partners?|users?|resellers?)\\b)`,
        "iu",
      ).test(s),
  );
}

/** Funding rounds the pages state: a round name and a raise in one sentence about the company itself. One per
 * round name. */
export function fundingRounds(texts: StatedText[], names: string[] = []): FundingRound[] {
  const out = new Map<string, FundingRound>();
  for (const { url, text } of texts)
    for (const s of sentences(text)) {
      const r = ROUND.exec(s);
      if (!r || !RAISE.test(s) || !aboutItself(s, names)) continue;
      const round = titleRound(r[1]);
      if (out.has(round)) continue;
      const m = money(s);
      const date = isoDate(s);
      out.set(round, { round, ...(m ?? {}), ...(date ? { date } : {}), text: s, source: url });
    }
  return [...out.values()];
}

/** A sentence naming who backs or owns the company ("backed by …", "a subsidiary of …"). */
export function ownershipSentence(texts: StatedText[]): { text: string; source: string } | undefined {
  for (const { url, text } of texts)
    for (const s of sentences(text))
      if (
        /\b(backed by|investors include|a subsidiary of|wholly owned by|acquired by|bootstrapped|publicly traded)\b/i.test(
          s,
        )
      )
        return { text: s, source: url };
  return undefined;
}

/** A sentence stating revenue ("$25 million in ARR"). */
export function revenueSentence(texts: StatedText[]): { text: string; source: string } | undefined {
  for (const { url, text } of texts)
    for (const s of sentences(text))
      if (
        MONEY.test(s) &&
        /\b(ARR|annual recurring revenue|annual revenue|in revenue|revenue run[- ]rate)\b/i.test(s)
      )
        return { text: s, source: url };
  return undefined;
}

const CERTS: [string, RegExp][] = [
  ["SOC 2 Type II", /\bSOC\s?2\s+Type\s+(II|2)\b/i],
  ["SOC 2", /\bSOC\s?2\b/i],
  ["ISO 27001", /\bISO(\/IEC)?\s?27001\b/i],
  ["ISO 27701", /\bISO(\/IEC)?\s?27701\b/i],
  ["ISO 27017", /\bISO(\/IEC)?\s?27017\b/i],
  ["ISO 27018", /\bISO(\/IEC)?\s?27018\b/i],
  ["HIPAA", /\bHIPAA\b/],
  ["GDPR", /\bGDPR\b/],
  ["CCPA", /\bCCPA\b/],
  ["PCI DSS", /\bPCI[ -]DSS\b/i],
  ["FedRAMP", /\bFedRAMP\b/i],
  ["HITRUST", /\bHITRUST\b/i],
  ["CSA STAR", /\bCSA STAR\b/i],
  ["Cyber Essentials", /\bCyber Essentials\b/i],
];

/** Certifications and regimes a security/trust page names (SOC 2 Type II hides plain SOC 2). */
export function certifications(texts: StatedText[]): { name: string; source: string }[] {
  const found = new Map<string, string>();
  for (const { url, text } of texts)
    for (const [name, re] of CERTS) if (re.test(text) && !found.has(name)) found.set(name, url);
  if (found.has("SOC 2 Type II")) found.delete("SOC 2");
  return [...found].map(([name, source]) => ({ name, source }));
}
