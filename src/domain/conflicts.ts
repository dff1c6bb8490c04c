// Facts that disagree: two open signals of one competitor that report the same funding round with different
// amounts ("a $32M Series B" and "raises $40 million Series B") are one round reported twice, and a reader
// is told the sources disagree instead of being shown two facts. Read from each signal's own title and
// summary, or from the sentences the dossier's funding read keeps; nothing is estimated.
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

/** One source's word on a round's size: the amount as written, the sentence, the page (or the signal) it is in. */
export interface RoundStatement {
  amount_text?: string;
  amount?: number;
  currency?: string;
  text?: string;
  source?: string;
  signal_id?: number;
}

/** A round the sources size differently (the dossier's `reads.funding.conflicts`): the round, a sentence for a
 * reader, and what each source says. */
export interface RoundConflict {
  round: string;
  text: string;
  claims: RoundStatement[];
}

const sameSize = (a: RoundStatement, b: RoundStatement) =>
  a.amount === b.amount && (a.currency ?? "USD") === (b.currency ?? "USD");

/** A stated round's claim on its size (its round name and date left out). */
export function statementOf(r: RoundStatement): RoundStatement {
  const out: RoundStatement = {};
  for (const k of ["amount_text", "amount", "currency", "text", "source", "signal_id"] as const)
    if (r[k] !== undefined) (out as Record<string, unknown>)[k] = r[k];
  return out;
}

/** `claims` with `claim` added, unless a claim of its size is there already (the first source stands for it). */
export function addClaim(claims: readonly RoundStatement[], claim: RoundStatement): RoundStatement[] {
  return claim.amount === undefined || claims.some((c) => sameSize(c, claim))
    ? [...claims]
    : [...claims, claim];
}

/** The conflict over `round` when its claims give two sizes or more; undefined while they agree. */
export function roundConflict(round: string, claims: readonly RoundStatement[]): RoundConflict | undefined {
  const sized = claims.filter((c) => c.amount !== undefined);
  if (sized.length < 2) return undefined;
  const amounts = sized.map((c) => claimAmount({ round, amount: c.amount!, currency: c.currency }));
  return {
    round,
    text: `Sources disagree on the size of the ${round}: ${amounts.slice(0, -1).join(", ")} or ${amounts.at(-1)}.`,
    claims: sized,
  };
}

/** The dossier's round conflicts with what the open signals say added: a signal that sizes a round otherwise
 * than the dossier's read or another signal. */
export function roundConflicts(
  recorded: readonly RoundConflict[],
  rounds: readonly (RoundStatement & { round: string })[],
  signals: readonly ClaimSignal[],
): RoundConflict[] {
  const claims = new Map<string, RoundStatement[]>(recorded.map((c) => [c.round, [...c.claims]]));
  for (const r of rounds)
    if (!claims.has(r.round) && r.amount !== undefined) claims.set(r.round, [statementOf(r)]);
  for (const s of signals) {
    const c = roundClaim(`${s.title} ${s.summary ?? ""}`);
    if (!c) continue;
    claims.set(
      c.round,
      addClaim(claims.get(c.round) ?? [], {
        amount_text: claimAmount(c),
        amount: c.amount,
        ...(c.currency ? { currency: c.currency } : {}),
        text: s.title,
        signal_id: s.id,
      }),
    );
  }
  return [...claims].flatMap(([round, list]) => roundConflict(round, list) ?? []);
}
