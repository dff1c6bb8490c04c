// A person's battlecard line that names what the dossier no longer states: a plan the pricing page no longer
// lists, a plan at a price it no longer has, a feature under a plan that no longer includes it (another plan
// does). The line is never changed here: it is named, with the dossier's fact, so a member can drop it
// (domain/battlecardProposals.ts). Read only when the dossier holds the pricing page's plans; a sentence about
// our own plans ("our Growth plan", "we include …") is ours, not the competitor's.
import type { OutdatedLine } from "../domain/battlecardTypes.ts";
import { formatAmount } from "../domain/money.ts";
import { listOf, possessive, sentences } from "../domain/prose.ts";
import type { CompetitorRecord } from "../domain/records.ts";

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

interface Plan {
  name: string;
  /** Every figure the page states for it: as billed, a month's equivalent, the yearly alternative. */
  amounts: number[];
  /** How the page states its price now ("$69 a month"), when it states one. */
  price?: string;
  features: string[];
}

const PER: Record<string, string> = { month: " a month", year: " a year", one_time: "" };

function plansOf(c: CompetitorRecord): Plan[] {
  const pricing = isObj(c.reads?.pricing) ? c.reads.pricing : undefined;
  const plans = Array.isArray(pricing?.plans) ? pricing.plans.filter(isObj) : [];
  return plans.flatMap((p) => {
    const name = typeof p.name === "string" ? p.name.trim() : "";
    if (!name) return [];
    const annual = isObj(p.annual) ? p.annual : {};
    const amounts = [p.amount, p.price, p.monthly_equivalent, annual.amount, annual.monthly_equivalent]
      .map(num)
      .filter((x): x is number => x !== undefined);
    const amount = num(p.amount) ?? num(p.price);
    const currency = typeof p.currency === "string" ? p.currency : undefined;
    const price =
      amount === undefined
        ? undefined
        : amount === 0
          ? "free"
          : `${formatAmount(amount, currency)}${PER[String(p.period)] ?? ""}`;
    const features = Array.isArray(p.features)
      ? p.features.filter((f): f is string => typeof f === "string")
      : [];
    return [{ name, amounts, ...(price ? { price } : {}), features }];
  });
}

/** "$59", "US$38,000", "€49.50", "$5k": the figures a sentence names. */
function figures(s: string): number[] {
  const out: number[] = [];
  for (const m of s.matchAll(/(?:US\$|\$|€|£)\s?(\d[\d,]*(?:\.\d+)?)(\s?[kK]\b)?/g)) {
    const n = Number(m[1].replace(/,/g, "")) * (m[2] ? 1000 : 1);
    if (Number.isFinite(n)) out.push(n);
  }
  return out;
}

/** What a feature is called in a line: the page's words before any parenthesis, colon or dash. */
function featureHead(f: string): string | undefined {
  const head = f
    .split(/\s[(:—–-]\s?|\(/)[0]
    .trim()
    .replace(/[.!?,;]+$/, "");
  return head.length >= 4 && /\p{L}{3}/u.test(head) ? head : undefined;
}

const ours = /\b(?:we|we're|our|ours|us)\b/i;
const negated = /\b(?:no|not|lacks?|lacking|without|missing|doesn't|does not|isn't|only)\b/i;
/** Capitalised words that open a sentence before "plan" without naming one ("Every plan", "Paid plans"). */
const NOT_A_NAME = new Set(
  "every each any all their its the this that a an no one which what whose paid higher top entry cheapest lowest highest new old same other annual monthly yearly current previous next first default your if on in for with at by from per and or but".split(
    " ",
  ),
);

/** The person's lines (by section) the competitor's dossier no longer bears out, each with the fact. */
export function staleAgainstDossier(
  c: CompetitorRecord,
  team: Record<string, string[]>,
): Omit<OutdatedLine, "signal_id">[] {
  const plans = plansOf(c);
  if (!plans.length) return [];
  const company = possessive(c.name);
  // Plan names as the page writes them (case matters: "Team" is a plan, "their team" is not).
  const names = (s: string, plan: string) =>
    new RegExp(`(?<![\\p{L}\\d])${esc(plan)}(?![\\p{L}\\d])`, "u").test(s);
  const listed = (word: string) => plans.some((p) => names(word, p.name) || names(p.name, word));
  // A plan whose card says "Everything in Team, plus …" includes Team's features.
  const includes = (p: Plan, seen = new Set<Plan>()): string[] => {
    seen.add(p);
    const more = plans.filter(
      (q) => !seen.has(q) && p.features.some((f) => /\b(?:everything|all)\b/i.test(f) && names(f, q.name)),
    );
    return [...p.features, ...more.flatMap((q) => includes(q, seen))];
  };
  const out: Omit<OutdatedLine, "signal_id">[] = [];
  for (const [section, lines] of Object.entries(team))
    for (const text of lines) {
      const because = staleFact(text);
      if (because) out.push({ section, text, because });
    }
  return out;

  function staleFact(text: string): string | undefined {
    for (const s of sentences(text)) {
      // The competitor's clause: a sentence that goes on about our own offer is read up to where it does.
      const theirs = s.split(/\s[—–]\s|;|,\s*(?:but|while|whereas)\b/)[0]!;
      if (ours.test(theirs)) continue;
      // A plan the page no longer lists: "the Starter plan", "Brightloop's Free tier".
      for (const m of theirs.matchAll(/\b(\p{Lu}[\p{L}\d+]*(?:\s\p{Lu}[\p{L}\d+]*)?)\s+(?:plan|tier)\b/gu)) {
        const words = m[1]!.split(" ").filter((w) => w.toLowerCase() !== c.name.toLowerCase());
        const plan = words.join(" ");
        if (!plan || NOT_A_NAME.has(words[0]!.toLowerCase()) || listed(plan)) continue;
        return `${company} pricing page no longer lists a ${plan} plan; it lists ${listOf(plans.map((p) => p.name))}.`;
      }
      const mentioned = plans.filter((p) => names(theirs, p.name));
      if (mentioned.length !== 1) continue;
      const plan = mentioned[0]!;
      // A price the plan no longer has: none of the figures the clause names is one the page states for it.
      const said = figures(theirs);
      if (
        said.length &&
        plan.amounts.length &&
        !said.some((n) => plan.amounts.some((a) => Math.abs(a - n) < 0.01))
      )
        return `${company} ${plan.name} plan costs ${plan.price ?? "another price"} now.`;
      // A feature under a plan that no longer lists it, while another plan does.
      if (!plan.features.length || negated.test(theirs)) continue;
      const own = includes(plan).map((f) => featureHead(f)?.toLowerCase());
      for (const other of plans) {
        if (other === plan) continue;
        for (const f of other.features) {
          const head = featureHead(f);
          if (!head || !new RegExp(`\\b${esc(head)}\\b`, "i").test(theirs)) continue;
          if (own.includes(head.toLowerCase())) continue;
          return `${company} pricing page lists ${head} under ${other.name}, not ${plan.name}.`;
        }
      }
    }
    return undefined;
  }
}
