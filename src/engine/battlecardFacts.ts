// The facts a battlecard rests on: each open signal and each research read becomes at most one fact with a
// topic (what it is about: one plan's price, the free plan, one feature's tier, one round…), the time it was
// seen, whether it helps or hurts the competitor in a deal, how material it is, and the lines it gives: the
// strength or weakness that states it, and what a rep does with it (a talk track or a landmine). Of the facts on
// one topic only the newest stays, so a card never says a thing and its opposite ("a free plan" beside "ended
// its free plan") and never says one thing twice.
import type { BattlecardSignal } from "../domain/battlecardTypes.ts";
import { formatDay } from "../domain/dates.ts";
import type { Move } from "../domain/materiality.ts";
import { formatAmount } from "../domain/money.ts";
import { capitalise, possessive } from "../domain/prose.ts";
import type { CompetitorRecord } from "../domain/records.ts";
import { inVocabulary } from "../domain/vocabulary.ts";

type Obj = Record<string, unknown>;

export type Stance = "strength" | "weakness" | "neutral";

/** Where a line comes from: a signal (its id, source and excerpt) or a field of the dossier. */
export interface LineTrace {
  signal_id?: number;
  dossier_field?: string;
  source_url?: string;
  observed_at?: string;
  excerpt?: string;
}

export interface Fact {
  topic: string;
  /** When it was seen (ISO); a read without a date is older than any signal. */
  at?: string;
  stance: Stance;
  /** A read's place among reads (higher first); a signal's kind of move (a page or a policy is below 20). */
  weight: number;
  /** A signal as the one materiality order reads it (domain/materiality.ts); absent for a read. */
  move?: Move;
  /** What kind of move a signal reports (a card gives one talk track and one landmine per kind). */
  kind?: string;
  /** The strength or weakness line (or, for a neutral fact, the move line). */
  point: string;
  /** The fact as one sentence naming the competitor ("Globex moves SSO to the Enterprise plan on 18 Nov 2026"). */
  said: string;
  talk?: string;
  landmine?: string;
  trace: LineTrace;
  /** Words a person's older line would hold if it states what this fact changed: the plan and its old price,
   * or the free plan. */
  outdates?: RegExp[];
  fromSignal: boolean;
  /** A price fact's plan (lower case) and the amount it states now. */
  plan?: string;
  amount?: string;
}

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : undefined);
const strList = (v: unknown) =>
  Array.isArray(v) ? v.map(str).filter((x): x is string => x !== undefined) : ([] as string[]);
/** "21 Nov 2026" (UTC), as people write a date; undefined without a time. */
export function dayText(ts?: string): string | undefined {
  return ts && !Number.isNaN(Date.parse(ts)) ? formatDay(ts) : undefined;
}

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** A person's line that still offers `thing` (one that says it went is right). */
const offers = (thing: string) => [
  new RegExp(
    `^(?!.*\\b(?:dropped|drops|removed|removes|no longer|ended|gone|discontinued|lost|sunset)\\b).*\\b${esc(thing)}\\b`,
    "i",
  ),
];
const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
/** The sentence without its trailing source in brackets and its stop. */
const bare = (s: string) =>
  s
    .replace(/\s*\((?:https?:\/\/|www\.)[^)]*\)\s*/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[.!?]+$/, "");
/** The title without the company's name in front ("Globex raises …" → "raises …"). */
function predicate(title: string, names: string[]): string {
  // The short name only when a verb follows it ("Globex raises …"), not a product ("Globex Ask reaches …").
  for (const [i, n] of names.entries()) {
    const re = new RegExp(`^${esc(n)}(?:'s)?\\s+(?=${i === 0 ? "" : "\\p{Ll}"})`, "u");
    if (re.test(title)) return title.replace(re, "");
  }
  return title;
}
const cap = capitalise;
const AMOUNT = /[$€£¥₹]\s?\d[\d,]*(?:\.\d+)?\s?(?:[kKmMbB]\b|million|billion)?/g;
function amounts(s: string): string[] {
  return [...s.matchAll(AMOUNT)].map((m) => m[0].replace(/^([$€£¥₹])\s+/, "$1").trim());
}
/** The amount with any period or unit that follows it: "$69 per seat/month", "$99/month". */
function priceText(v: string | null | undefined): string | undefined {
  return v && v !== "listed" ? v : undefined;
}
const pctIn = (s: string) => /\(([+−-]\d+(?:\.\d+)?%)\)/.exec(s)?.[1];

type Kind =
  | "price_increase"
  | "price_decrease"
  | "free_tier_ended"
  | "free_tier_started"
  | "plan_added"
  | "plan_removed"
  | "tier_move"
  | "feature_launch"
  | "release"
  | "feature_removed"
  | "integration_added"
  | "integration_removed"
  | "partnership"
  | "funding"
  | "acquisition"
  | "hiring"
  | "leadership"
  | "security_incident"
  | "certification"
  | "messaging"
  | "customer"
  | "rating_drop"
  | "other";

/** The kind of move a signal reports: its engine type, else read from an imported signal's words. */
function kindOf(s: BattlecardSignal): Kind {
  // Imported names ("price_change", "product_launch") read in the one vocabulary first.
  const t = inVocabulary(s.category, s.type, [s.title, s.summary]).type ?? "";
  const text = `${s.title} ${s.summary ?? ""}`;
  switch (t) {
    case "price_increase":
    case "price_decrease":
    case "plan_added":
    case "plan_removed":
    case "feature_launch":
    case "feature_removed":
    case "integration_added":
    case "integration_removed":
    case "partnership":
    case "funding":
    case "acquisition":
    case "security_incident":
    case "certification":
      return t;
    case "release":
      return "release";
    case "free_tier_change":
      return s.value_after === null || /ends|no longer/i.test(s.title)
        ? "free_tier_ended"
        : "free_tier_started";
    case "packaging_change":
      return /\bmoves?\b.+\bto\b/i.test(s.title) ? "tier_move" : "other";
    case "hiring_surge":
    case "key_role_opening":
    case "new_location":
      return "hiring";
    case "leadership_change":
      return "leadership";
    case "messaging_change":
      return "messaging";
    case "hiring_slowdown":
    case "page_added":
    case "page_removed":
    case "domain_change":
    case "office_opening":
    case "policy_change":
    // a new repository, a filing, a story on Hacker News: what their titles quote is no move of their own
    case "open_source":
    case "filing":
    case "mention":
      return "other";
    case "rating_drop":
      return "rating_drop";
  }
  const title = s.title;
  if (/\bmoves?\b.+\bto (?:the )?\w+ (?:plan|tier)\b/i.test(title)) return "tier_move";
  if (/\b(?:ends?|drops?|removes?)\b.*\bfree (?:plan|tier)\b/i.test(title)) return "free_tier_ended";
  if (/\b(?:rais(?:es|ed)|increases?)\b.*\bprice|\bprice (?:rise|increase)/i.test(title))
    return "price_increase";
  if (/\b(?:cuts?|lowers?|drops?|reduces?)\b.*\bprice/i.test(title)) return "price_decrease";
  if (/\badds? an? .+ (?:plan|tier)\b/i.test(title)) return "plan_added";
  if (/\bseries [a-f]\b|\braises? (?:an? )?[$€£]|\bfunding\b|\bpre-seed\b|\bseed round\b/i.test(title))
    return "funding";
  if (/\bacquir/i.test(title)) return "acquisition";
  if (/\bpartners? with\b|\bpartnership\b/i.test(title)) return "partnership";
  if (/\b(?:bug|breach|outage|incident|vulnerab)/i.test(text)) return "security_incident";
  if (/\bcertif|\bSOC 2\b|\bISO 27001\b/i.test(title)) return "certification";
  if (/\b(?:opens?|posts?) \d+ .*\broles?\b|\bhiring\b/i.test(title)) return "hiring";
  if (/\bhires? an? (?:CEO|CFO|CTO|COO|CRO|CMO|VP|chief|head)\b|\bappoints?\b/i.test(title))
    return "leadership";
  if (/\bhomepage\b|\bheadline\b|\breposition/i.test(text)) return "messaging";
  if (/\bcase study\b|\bcustomer win\b/i.test(title)) return "customer";
  if (/\b(?:launch|ships?|releases?|general availability|introduc|adds? .+ support)/i.test(title))
    return "feature_launch";
  return "other";
}

const STANCE: Record<Kind, Stance> = {
  price_increase: "weakness",
  price_decrease: "strength",
  free_tier_ended: "weakness",
  free_tier_started: "strength",
  plan_added: "strength",
  plan_removed: "weakness",
  tier_move: "weakness",
  feature_launch: "strength",
  release: "strength",
  feature_removed: "weakness",
  integration_added: "strength",
  integration_removed: "weakness",
  partnership: "strength",
  funding: "strength",
  acquisition: "strength",
  hiring: "strength",
  leadership: "neutral",
  security_incident: "weakness",
  certification: "strength",
  messaging: "neutral",
  customer: "strength",
  rating_drop: "weakness",
  other: "neutral",
};

/** Materiality, the one order of a card's moves: prices and plans first (a bigger change first), then what
 * changes a deal's terms, then launches and deals, then the rest; a signal's severity breaks ties. */
const KIND_WEIGHT: Record<Kind, number> = {
  price_increase: 90,
  price_decrease: 90,
  free_tier_ended: 95,
  free_tier_started: 95,
  plan_removed: 85,
  plan_added: 80,
  tier_move: 85,
  security_incident: 80,
  acquisition: 75,
  funding: 70,
  feature_removed: 70,
  feature_launch: 60,
  release: 35,
  partnership: 55,
  integration_removed: 55,
  integration_added: 45,
  certification: 45,
  hiring: 40,
  customer: 35,
  rating_drop: 50,
  leadership: 30,
  messaging: 30,
  other: 10,
};
const SEVERITY_WEIGHT: Record<string, number> = { high: 8, medium: 4, low: 0 };

/** The vocabulary's type of a kind read from an imported signal's words, for the materiality order. */
const KIND_TYPE: Partial<Record<Kind, string>> = {
  free_tier_ended: "free_tier_change",
  free_tier_started: "free_tier_change",
  tier_move: "packaging_change",
  hiring: "key_role_opening",
  leadership: "leadership_change",
  messaging: "messaging_change",
};

/** A plan named by the signal: its subject, else "<Name> plan|tier" in the title. */
function planOf(s: BattlecardSignal, kind: Kind): string | undefined {
  if (s.subject && kind !== "tier_move") return s.subject;
  return /\b([A-Z][\w+-]*) (?:plan|tier)\b/.exec(s.title)?.[1];
}

/** What moved tier and where to: "Warehouse sync (Snowflake, BigQuery)", "Enterprise". */
function tierMove(
  s: BattlecardSignal,
  names: string[],
): { what: string; from?: string; to: string } | undefined {
  const m =
    /\bmoves?\s+(.+?)\s+(?:from (?:the |its )?(.+?)\s+)?to (?:the |its )?(.+?)(?:\s+plan|\s+tier)?$/i.exec(
      predicate(bare(s.title), names),
    );
  if (!m) return undefined;
  return {
    what: s.subject ?? m[1],
    from: m[2]?.replace(/\s+(?:plan|tier)$/i, ""),
    to: m[3].replace(/\s+(?:plan|tier)$/i, ""),
  };
}

function firstSource(s: BattlecardSignal) {
  return s.evidence.find((e) => e.source_url) ?? s.evidence[0];
}

/** "(+17%) (seen 21 Nov 2026)" → "(+17%, seen 21 Nov 2026)"; "(Austin, TX) (seen 21 Nov 2026)" → "(Austin, TX),
 * seen 21 Nov 2026". */
const oneBracket = (line: string) =>
  line.replace(/%\) \(seen ([^)]+)\)/g, "%, seen $1)").replace(/\) \(seen ([^)]+)\)/g, "), seen $1");

/** One fact from one signal, with the lines a rep uses. A line is dated by the day Rivals first saw the change
 * ("seen 21 Nov 2026", "as of 21 Nov 2026"): a round announced on the 18th and seen on the 21st was not raised
 * on the 21st. */
export function signalFact(s: BattlecardSignal, c: CompetitorRecord): Fact {
  const f = factOf(s, c);
  const dated = (k: "point" | "talk" | "landmine" | "said") => (f[k] ? { [k]: oneBracket(f[k]) } : {});
  return { ...f, ...dated("point"), ...dated("talk"), ...dated("landmine"), ...dated("said") };
}

function factOf(s: BattlecardSignal, c: CompetitorRecord): Fact {
  const name = c.name;
  const names = [name, name.split(/\s+/)[0]];
  const kind = kindOf(s);
  const when = dayText(s.first_seen_at);
  const on = when ? ` (seen ${when})` : "";
  const since = when ? ` as of ${when}` : "";
  const ev = firstSource(s);
  const trace: LineTrace = {
    signal_id: s.id,
    ...(ev?.source_url ? { source_url: ev.source_url } : {}),
    ...(ev?.observed_at || s.first_seen_at ? { observed_at: ev?.observed_at ?? s.first_seen_at } : {}),
    ...(ev?.text ? { excerpt: ev.text.slice(0, 300) } : {}),
  };
  const what = predicate(bare(s.title), names);
  // "Globex Insights raises …", but "Globex Ask reaches …" (the product already names the company).
  const said = `${what.startsWith(`${names[1]} `) ? what : `${name} ${what}`}${on}`;
  const base = {
    at: s.first_seen_at,
    stance: STANCE[kind],
    weight: KIND_WEIGHT[kind] + (SEVERITY_WEIGHT[s.severity ?? ""] ?? 0),
    trace,
    fromSignal: true,
    said,
    kind,
    move: {
      id: s.id,
      type:
        s.type && inVocabulary(s.category, s.type).type
          ? (inVocabulary(s.category, s.type).type ?? kind)
          : (KIND_TYPE[kind] ?? kind),
      ...(s.severity ? { severity: s.severity } : {}),
      first_seen_at: s.first_seen_at ?? "",
    } as Move,
  };
  const plan = planOf(s, kind);
  const planKey = plan ? slug(plan) : undefined;
  switch (kind) {
    case "price_increase":
    case "price_decrease": {
      const up = kind === "price_increase";
      // The amounts the title states, else the summary's ("moved from $49 to $59").
      const stated = amounts(s.title).length >= 2 ? amounts(s.title) : amounts(s.summary ?? "");
      const before = priceText(s.value_before) ?? (stated.length >= 2 ? stated[0] : undefined);
      const after = priceText(s.value_after) ?? (stated.length >= 2 ? stated[1] : undefined);
      const by = /\bby (\d+(?:\.\d+)?%)/.exec(s.title)?.[1];
      const pct = pctIn(s.title) ?? (by ? `${up ? "+" : "-"}${by}` : undefined);
      const oldAmount = before ? (amounts(before)[0] ?? before) : undefined;
      const newAmount = after ? (amounts(after)[0] ?? after) : undefined;
      // "$59 → $69 per seat/month" when both are billed the same way.
      const from =
        before && after && before.slice(oldAmount?.length) === after.slice(newAmount?.length)
          ? oldAmount
          : before;
      const planName = plan ? `${plan} plan` : undefined;
      const outdates =
        plan && oldAmount
          ? [
              new RegExp(
                `\\b${esc(plan)}\\b[^.]*${esc(oldAmount)}(?!\\d)|${esc(oldAmount)}(?!\\d)[^.]*\\b${esc(plan)}\\b`,
                "i",
              ),
            ]
          : undefined;
      const structured = planName && after;
      return {
        ...base,
        // A bigger move is more material.
        move: { ...base.move, ...(pct ? { percent: Number.parseFloat(pct.replace("−", "-")) } : {}) },
        topic: `price:${planKey ?? slug(what)}`,
        ...(planKey ? { plan: planKey } : {}),
        ...(newAmount ? { amount: newAmount } : {}),
        point: structured
          ? `${planName} ${up ? "raised" : "cut"}${from ? ` from ${from}` : ""} to ${after}${pct ? ` (${pct})` : ""}${on}.`
          : `${cap(what)}${on}.`,
        talk: structured
          ? up
            ? `${possessive(name)} ${planName} costs ${after}${since}${from ? `, up from ${from}` : ""}: price the buyer's real seat count or volume at the new rate next to our quote, and ask whether their budget was set at the old one.`
            : `${name} cut its ${planName} to ${after}${from ? ` from ${from}` : ""}${on}: expect the lower number in the buyer's comparison; compare what the ${planName} includes at the buyer's volume, not the list price.`
          : `${said}: ${up ? `ask whether the buyer's budget for ${name} was set before the change, and price their real volume at the new terms.` : "expect the lower number in the buyer's comparison; compare what it includes at the buyer's volume."}`,
        ...(outdates ? { outdates } : {}),
      };
    }
    case "free_tier_ended":
      return {
        ...base,
        topic: "free_tier",
        point: `Ended its free plan${on}: every seat now needs a paid plan.`,
        landmine: `Ask whether the buyer's team uses free ${name} accounts today: the free plan is gone${since}, so staying means paying.`,
        outdates: [/\bfree (?:plan|tier)\b|\bgenerous free\b|\bfreemium\b/i],
      };
    case "free_tier_started":
      return {
        ...base,
        topic: "free_tier",
        point: `Offers a free plan${since}.`,
        talk: `${name} has a free plan${since}: expect the buyer's team to try it; agree the evaluation criteria before they do.`,
      };
    case "plan_added": {
      const price = /\bat (.+)$/.exec(what)?.[1];
      const planName = plan ? `${plan} plan` : "plan";
      return {
        ...base,
        topic: `price:${planKey ?? slug(what)}`,
        point: `New ${planName}${price ? ` at ${price}` : ""}${on}.`,
        talk: `${name} added a ${planName}${price ? ` at ${price}` : ""}${on}: find out which plan the buyer was quoted and compare like for like.`,
      };
    }
    case "plan_removed":
      return {
        ...base,
        topic: `price:${planKey ?? slug(what)}`,
        point: `Dropped ${plan ? `its ${plan} plan` : "a plan"}${on}.`,
        ...(plan ? { outdates: offers(`${plan} plan`) } : {}),
        landmine: `Ask whether the buyer was quoted ${plan ? `${name}'s ${plan} plan` : "a plan"} ${name} no longer lists${since}: the quote may not be honoured at renewal.`,
      };
    case "tier_move": {
      const m = tierMove(s, names);
      const feature = m?.what ?? what;
      return {
        ...base,
        topic: `tier:${slug(feature)}`,
        point: `${feature} moved${m?.from ? ` from ${m.from}` : ""} to ${m?.to ?? "a higher plan"}${on}.`,
        landmine: `Ask whether the buyer needs ${feature}: at ${name} it now takes the ${m?.to ?? "higher"} plan${since}, so get that quote before comparing ${m?.from ?? "entry"} prices.`,
      };
    }
    case "feature_removed": {
      // A deprecated package still installs: it is not "removed".
      const verb = /\bdeprecat/i.test(s.title) ? "deprecated" : "removed";
      return {
        ...base,
        topic: `feature:${slug(s.subject ?? what)}`,
        point: `${cap(verb)} ${s.subject ?? what}${on}.`,
        ...(s.subject && s.subject.length >= 4 ? { outdates: offers(s.subject) } : {}),
        landmine: `Ask whether the buyer relies on ${s.subject ?? "it"}: ${name} ${verb} it${on}.`,
      };
    }
    case "integration_added":
    case "integration_removed": {
      const added = kind === "integration_added";
      const subject = s.subject ?? what.replace(/^(?:adds|removes)\s+/i, "").replace(/\s+integration$/i, "");
      return {
        ...base,
        topic: `integration:${slug(subject)}`,
        point: `${added ? "Added an integration with" : "Dropped its integration with"} ${subject}${on}.`,
        ...(added
          ? {
              talk: `${name} added an integration with ${subject}${on}: if the buyer uses ${subject}, ask to see it work on their data in the trial.`,
            }
          : {
              landmine: `Ask whether the buyer uses ${subject}: ${name} dropped its integration with it${on}.`,
              ...(subject.length >= 3 ? { outdates: offers(subject) } : {}),
            }),
      };
    }
    case "partnership": {
      const partner = s.subject ?? what.replace(/^.*partnership with\s+/i, "");
      return {
        ...base,
        topic: `partner:${slug(partner)}`,
        point: `Partnership with ${partner} announced${on}.`,
        talk: `${name} announced a partnership with ${partner}${on}: if the buyer runs on ${partner}, ask which part of it is in the plan they are quoted and what is still a roadmap promise.`,
      };
    }
    case "funding": {
      const round = /series [a-f]\b/i.exec(`${s.subject ?? ""} ${s.title}`)?.[0];
      const amount =
        amounts(`${s.subject ?? ""} ${s.title}`)[0] ??
        /\$?\d+(?:\.\d+)? million/i.exec(`${s.subject ?? ""}`)?.[0];
      return {
        ...base,
        topic: `funding:${round ? slug(round) : s.id}`,
        point: `Raised ${[amount, round].filter(Boolean).join(" ") || "new funding"}${on}.`,
        talk: `${name} raised ${[amount, round].filter(Boolean).join(" ") || "new funding"}${on}: expect a bigger sales push; ask the buyer which roadmap promises ${name} made and get them in writing.`,
      };
    }
    case "acquisition": {
      const target = s.subject ?? what.replace(/^acquires\s+/i, "");
      return {
        ...base,
        topic: `acquisition:${slug(target)}`,
        point: `Acquired ${target}${on}.`,
        talk: `${name} acquired ${target}${on}: ask the buyer whether ${target} is part of their evaluation and when ${name} says it will be in the product.`,
      };
    }
    case "hiring": {
      // What the roles mean in a deal, by what they are.
      const action = /\b(?:sales|account executive|seller|solutions? engineer|business development)\b/i.test(
        what,
      )
        ? `expect more ${name} sellers in deals like this one; agree the buyer's decision criteria early`
        : /\b(?:support|success|customer)\b/i.test(what)
          ? `ask the buyer what support response times ${name} commits to today, in writing`
          : /\b(?:engineer|engineering|developer|product|CTO|data|ML|AI)\b/i.test(what)
            ? `expect roadmap promises; ask the buyer which ${name} features they were promised, and by when`
            : `ask the buyer who at ${name} will own their account and for how long`;
      return {
        ...base,
        topic: `hiring:${slug(what).slice(0, 60)}`,
        // "Hiring a VP of Engineering", not "Is hiring …".
        point: `${cap(what.replace(/^is (?=hiring\b)/i, ""))}${on}.`,
        talk: `${said}: ${action}.`,
      };
    }
    case "release":
      return {
        ...base,
        topic: `release:${slug(s.subject ?? what).slice(0, 60)}`,
        point: `${cap(what)}${on}.`,
      };
    case "security_incident": {
      // "discloses a masking bug that …" → "a masking bug that …"
      const incident = /^(?:discloses|disclosed|reports|reported|confirms|confirmed)\s+(.+)$/i.exec(
        what,
      )?.[1];
      return {
        ...base,
        topic: `security:${s.id}`,
        point: `${cap(what)}${on}.`,
        landmine: incident
          ? `Ask whether the buyer's security review has looked at ${incident}, which ${name} disclosed${on}, and ask ${name} for its incident report.`
          : `Ask whether the buyer's security review has looked at this: ${said}.`,
      };
    }
    case "certification": {
      const cert = s.subject ?? what;
      return {
        ...base,
        topic: `cert:${slug(cert)}`,
        point: `${cap(what)}${on}.`,
        talk: `${name} ${what}${on}: expect its security review to go quickly; bring the buyer's compliance requirements up early so both vendors answer the same list.`,
      };
    }
    case "feature_launch":
      return {
        ...base,
        topic: `feature:${slug(s.subject ?? what).slice(0, 60)}`,
        point: `${cap(what)}${on}.`,
        talk: `${said}: ask whether it is on the buyer's requirements list; if it is, show how we answer the same need in the demo, if not, keep the evaluation on their criteria.`,
      };
    case "rating_drop": {
      const m = /from (\d(?:\.\d)?) to (\d(?:\.\d)?)/.exec(s.title);
      return {
        ...base,
        topic: `rating:${slug(s.subject ?? what).slice(0, 60)}`,
        point: `${cap(what)}${on}.`,
        talk: m
          ? `${said}: if the buyer's team will use it on their phones, ask what its users say since the rating fell from ${m[1]} to ${m[2]} stars, and show ours.`
          : `${said}: ask what its users say about it, and show ours.`,
      };
    }
    case "customer":
      return {
        ...base,
        topic: `customer:${s.id}`,
        point: `${cap(what)}${on}.`,
        talk: `${said}: ask the buyer whether ${name} showed them this reference, and offer a reference from a company like theirs.`,
      };
    case "messaging": {
      const headline = s.value_after ? s.value_after.split(" — ")[0] : undefined;
      return {
        ...base,
        topic: "messaging",
        point: headline ? `Home page now leads with "${headline}"${since}.` : `${cap(what)}${on}.`,
        ...(headline
          ? {
              talk: `${name}'s home page now leads with "${headline}"${since}: ask the buyer which of those claims they have seen proven, and show ours on their data.`,
            }
          : {}),
      };
    }
    default:
      return {
        ...base,
        topic: `other:${s.id}`,
        point: `${cap(what)}${on}.`,
      };
  }
}

/** Facts the research reads state (the dossier's pricing, product, AI, integrations, hiring, funding and
 * compliance reads), each dated by the dossier's last update. */
export function readFacts(c: CompetitorRecord): Fact[] {
  const reads = c.reads;
  if (!reads) return [];
  const at = c.freshness?.state_updated_at;
  const out: Fact[] = [];
  const d = (k: string) => (isObj(reads[k]) ? (reads[k] as Obj) : undefined);
  const fact = (
    topic: string,
    stance: Stance,
    weight: number,
    field: string,
    point: string,
    more: Partial<Fact> = {},
  ) =>
    out.push({
      topic,
      ...(at ? { at } : {}),
      stance,
      weight,
      point,
      said: `${c.name}: ${point.replace(/[.!?]$/, "")}`,
      trace: {
        dossier_field: field,
        ...(c.urls?.pricing && field === "reads.pricing" ? { source_url: c.urls.pricing } : {}),
        ...(at ? { observed_at: at } : {}),
      },
      fromSignal: false,
      ...more,
    });
  const pricing = d("pricing");
  if (pricing) {
    const plans = Array.isArray(pricing.plans) ? pricing.plans.filter(isObj) : [];
    const free = plans.find(
      (p) =>
        p.amount === 0 || p.price === 0 || /^\$?0\b|\bfree\b/i.test(String(p.price_text ?? p.name ?? "")),
    );
    const paid = plans.filter((p) => Number(p.amount ?? p.price) > 0);
    const entry = paid[0];
    if (pricing.free_tier === true || free) {
      const limits = free
        ? strList(free.features).length
          ? strList(free.features).slice(0, 2)
          : strList([free.price_text])
        : [];
      fact(
        "free_tier",
        "strength",
        50,
        "reads.pricing",
        `Free plan${limits.length ? `: ${limits.join(", ")}` : ""}.`,
        {
          talk: `${c.name} has a free plan${limits.length ? ` (${limits.join(", ")})` : ""}: expect the buyer's team to try it first; agree the evaluation criteria before they do.`,
        },
      );
    } else if (pricing.free_tier === false)
      fact("free_tier", "weakness", 45, "reads.pricing", "No free plan: buyers pay before they try.");
    if (entry && typeof entry.name === "string") {
      const unit = typeof entry.unit === "string" ? ` per ${entry.unit}` : "";
      const period = entry.period === "year" ? " a year" : entry.period === "month" ? " a month" : "";
      // As the page bills it ("$5,000 a year", never a monthly equivalent); no currency, none guessed.
      const amount = formatAmount(
        Number(entry.amount ?? entry.price),
        typeof entry.currency === "string" ? entry.currency : null,
      );
      fact(`entry-price`, "neutral", 40, "reads.pricing", `${entry.name} plan: ${amount}${unit}${period}.`, {
        plan: slug(entry.name),
        amount,
        talk: `${c.name}'s cheapest paid plan is ${entry.name} at ${amount}${unit}${period}: price the buyer's real team size and volume on it before comparing.`,
      });
    } else {
      const price = str(pricing.entry_price_text);
      const named = price ? /\b([A-Z][\w+-]*) (?:plan|tier)\b|^([A-Z][\w+-]*) from\b/.exec(price) : null;
      if (price)
        fact("entry-price", "neutral", 40, "reads.pricing", `Lists "${price}".`, {
          ...(named ? { plan: slug(named[1] ?? named[2]) } : {}),
          ...(amounts(price)[0] ? { amount: amounts(price)[0] } : {}),
          talk: `${c.name} lists "${price}": price the buyer's real team size and volume before comparing.`,
        });
    }
  }
  const product = d("product");
  const summary = str(product?.summary);
  if (summary) fact("product", "strength", 30, "reads.product", `Product: ${bare(summary)}.`);
  const ai = d("ai");
  if (str(ai?.summary))
    fact(
      "ai",
      "strength",
      30,
      "reads.ai",
      `AI: ${bare(str(ai?.summary) ?? "")}${str(ai?.maturity) ? ` (${str(ai?.maturity)})` : ""}.`,
    );
  const integ = d("integrations");
  if (integ) {
    const hl = strList(integ.highlights).slice(0, 5);
    const count = str(integ.count_text);
    if (count || hl.length)
      fact(
        "integrations",
        "strength",
        25,
        "reads.integrations",
        `Integrations: ${[count, hl.join(", ")].filter(Boolean).join(", including ")}.`,
      );
  }
  const hiring = d("hiring");
  const trend = str(hiring?.trend)?.toLowerCase();
  const roles = typeof hiring?.open_roles === "number" ? hiring.open_roles : undefined;
  if (trend && /grow|up|expand/.test(trend))
    fact(
      "hiring:trend",
      "strength",
      20,
      "reads.hiring",
      `Growing team${roles ? `: ${roles} open roles` : ""}${strList(hiring?.focus).length ? ` (${strList(hiring?.focus).join(", ")})` : ""}.`,
    );
  if (trend && /shrink|down|declin|cut/.test(trend))
    fact(
      "hiring:trend",
      "weakness",
      20,
      "reads.hiring",
      `Shrinking team${roles !== undefined ? ` (${roles} open roles)` : ""}.`,
      {
        landmine: `Ask ${c.name} how many people support and build the product today: its team is shrinking.`,
      },
    );
  const funding = d("funding");
  const round = str(funding?.last_round_text);
  if (round) {
    const series = /series [a-f]\b/i.exec(round)?.[0];
    fact(
      `funding:${series ? slug(series) : "last"}`,
      "strength",
      20,
      "reads.funding",
      `Last round: ${bare(round)}.`,
    );
  }
  const reg = d("regulation");
  if (str(reg?.summary))
    fact("compliance", "strength", 20, "reads.regulation", `Compliance: ${bare(str(reg?.summary) ?? "")}.`);
  for (const [k, v] of Object.entries(reads)) {
    if (!isObj(v)) continue;
    for (const field of ["weaknesses", "limitations", "risks", "gaps", "complaints"])
      for (const item of strList(v[field]).slice(0, 3))
        fact(`read:${k}:${slug(item)}`, "weakness", 25, `reads.${k}`, `${bare(item)}.`);
    for (const item of strList(v.strengths).slice(0, 3))
      fact(`read:${k}:${slug(item)}`, "strength", 25, `reads.${k}`, `${bare(item)}.`);
  }
  return out;
}

/** Of the facts on one topic, the newest (a signal beats a read seen at the same time). A plan's price read from
 * the dossier and a signal that changed that price agree when the amounts match; else the newer one stays. */
export function newestPerTopic(facts: Fact[]): Fact[] {
  const reads = facts.filter((f) => f.topic === "entry-price");
  const dropped = new Set<Fact>();
  for (const r of reads)
    for (const f of facts) {
      if (f === r || !f.fromSignal || !f.plan || f.plan !== r.plan) continue;
      if ((f.at ?? "") >= (r.at ?? "")) dropped.add(r);
      else if (f.amount && r.amount && f.amount !== r.amount) dropped.add(f);
    }
  facts = facts.filter((f) => !dropped.has(f));
  const best = new Map<string, Fact>();
  for (const f of facts) {
    const cur = best.get(f.topic);
    if (!cur) {
      best.set(f.topic, f);
      continue;
    }
    const a = cur.at ?? "";
    const b = f.at ?? "";
    if (b > a || (b === a && f.fromSignal && !cur.fromSignal)) best.set(f.topic, f);
  }
  return [...best.values()];
}
