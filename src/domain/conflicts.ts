// Facts that disagree: two open signals of one competitor that report the same funding round with different
// amounts ("a $32M Series B" and "raises $40 million Series B") are one round reported twice, and a reader
// is told the sources disagree instead of being shown two facts. Read from each signal's own title and
// summary; nothing is estimated.
import { formatAmount } from "./money.ts";

export interface RoundClaim {
  /** "Series B", "Seed", "Pre-seed". */
  round: string;
  amount: number;
  currency?: string;
}

const ROUND = /\b(pre-seed|seed|series\s+[a-h])\b/i;
const MONEY =
  /(US\$|\$|€|£)\s?(\d+(?:[.,]\d+)?)\s*(million|billion|mn|bn|m|b|k)?\b|(\d+(?:[.,]\d+)?)\s*(million|billion)\s+(dollars|euros|pounds)/i;
const CURRENCY: Record<string, string> = { $: "USD", US$: "USD", "€": "EUR", "£": "GBP" };

/** The round and amount a text reports, when it names both. */
export function roundClaim(text: string): RoundClaim | undefined {
  const r = ROUND.exec(text);
  const m = MONEY.exec(text);
  if (!r || !m) return undefined;
  const n = Number((m[2] ?? m[4]).replace(",", "."));
  const unit = (m[3] ?? m[5] ?? "").toLowerCase();
  const mult = /^b/.test(unit) ? 1e9 : /^m/.test(unit) ? 1e6 : unit === "k" ? 1e3 : 1;
  const word = (m[6] ?? "").toLowerCase();
  const currency = m[1]
    ? CURRENCY[m[1]]
    : word === "dollars"
      ? "USD"
      : word === "euros"
        ? "EUR"
        : word === "pounds"
          ? "GBP"
          : undefined;
  const round = r[1].toLowerCase().replace(/\s+/g, " ");
  return {
    round: round.startsWith("series")
      ? `Series ${round.slice(-1).toUpperCase()}`
      : round[0].toUpperCase() + round.slice(1),
    amount: n * mult,
    ...(currency ? { currency } : {}),
  };
}

export interface ClaimSignal {
  id: number;
  title: string;
  summary?: string;
  first_seen_at?: string;
}

export interface Conflict {
  /** The other signal. */
  signal: ClaimSignal;
  round: string;
  /** What this signal says and what the other says, written as people write money. */
  says: string;
  other: string;
}

/** `$40 million`, `€1.5 billion`, `$500,000`. */
export function claimAmount(c: RoundClaim): string {
  const [n, unit] =
    c.amount >= 1e9
      ? [c.amount / 1e9, " billion"]
      : c.amount >= 1e6
        ? [c.amount / 1e6, " million"]
        : [c.amount, ""];
  return `${formatAmount(Math.round(n * 100) / 100, c.currency ?? "USD")}${unit}`;
}

/** The other signals that report the same round as `s` with another amount. */
export function conflictsOf(s: ClaimSignal, others: readonly ClaimSignal[]): Conflict[] {
  const mine = roundClaim(`${s.title} ${s.summary ?? ""}`);
  if (!mine) return [];
  const out: Conflict[] = [];
  for (const o of others) {
    if (o.id === s.id) continue;
    const theirs = roundClaim(`${o.title} ${o.summary ?? ""}`);
    if (!theirs || theirs.round !== mine.round) continue;
    if ((theirs.currency ?? "USD") === (mine.currency ?? "USD") && theirs.amount === mine.amount) continue;
    out.push({ signal: o, round: mine.round, says: claimAmount(mine), other: claimAmount(theirs) });
  }
  return out;
}
