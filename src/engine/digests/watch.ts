// "What to watch": what a period's moves suggest comes next, by stated rules. Each rule reads signals of given
// types (and, for some, words in their title or summary) and says one sentence per competitor built on the
// concrete fact of its most material signal (the plan and its prices, the role, the feature, the round), so no
// two sentences read alike. No rule fires, nothing is said.
import { possessive, withArticle } from "../../domain/prose.ts";
import { type Severity, severityRank } from "../../domain/records.ts";
import { clip } from "../classify/wording.ts";
import type { CitedSentence } from "../llm/rephrase.ts";
import { HN_POINTS } from "../sources/hackernews.ts";
import type { DigestSignal } from "./types.ts";

export interface WatchRule {
  id: string;
  types: string[];
  /** Extra condition on the signal's own words. */
  text?: RegExp;
  /** Extra condition on the signal's title alone (the words a source kind's rule writes it with). */
  title?: RegExp;
  /** Only signals of at least this severity. */
  minSeverity?: Severity;
  /** The sentence (without its stop), from the rule's most material signal of one competitor. */
  say: (s: DigestSignal) => string;
}

const SALES =
  /\b(sales|account executive|account manager|sdr|bdr|business development|marketing|growth|partnerships?|solutions? engineer|customer success)\b/i;

/** The plan a signal is about, as a phrase: "its Team plan". */
function planOf(s: DigestSignal, fallback = "a plan"): string {
  const p = s.subject?.trim();
  if (!p) return fallback;
  return /\b(plan|tier|edition|package)$/i.test(p) ? p : `${p} plan`;
}

/** A count the engine recorded ("3" open roles), if it is one. */
const count = (v: string | undefined) => (v !== undefined && /^\d+$/.test(v.trim()) ? v.trim() : undefined);

const roleOf = (s: DigestSignal) => s.subject?.trim() || undefined;

function rolesMoved(s: DigestSignal, verb: string): string {
  const b = count(s.before);
  const a = count(s.after);
  return b && a
    ? `${s.competitor} ${verb} its open roles from ${b} to ${a}`
    : `${s.competitor} ${verb} its team`;
}

/** The first sentence of a text the competitor wrote (release notes, a deprecation message), short and without
 * its stop, to quote inside one of ours. */
function firstSentence(t: string | undefined): string | undefined {
  const first = t?.split(/(?<=[.!?])\s+/)[0]?.replace(/[.!?\s]+$/, "");
  return first ? clip(first, 90) : undefined;
}

/** The day in an 8-K signal's summary ("In a Form 8-K filed on 20 Nov 2026 (item 5.02), …"). */
const FILED_ON = /Form 8-K filed on (\d{1,2} \w{3} \d{4})/;

/** " in a filing on 20 Nov 2026": the day an SEC filing was made, as its signal states it. */
const filedOn = (s: DigestSignal) => {
  const day = FILED_ON.exec(s.summary ?? "")?.[1];
  return day ? ` in a filing on ${day}` : " in a filing";
};

/** A new chief executive as Wikidata names them, and whom they replace: recorded values, else the title's words. */
function chiefExecutives(s: DigestSignal): { now?: string; was?: string } {
  const m = /chief executive(?: is|: )\s*(.+?)(?: \(was (.+)\))?$/.exec(s.title);
  return { now: s.after ?? m?.[1], was: s.before ?? m?.[2] };
}

/** In order of precedence: a signal feeds the first rule it matches. */
export const WATCH_RULES: WatchRule[] = [
  {
    // A filing's signal names its accession number, not a person or a company: said from the 8-K's item.
    id: "sec_officers",
    types: ["leadership_change"],
    title: /\(8-K, item 5\.02\)$/,
    say: (s) =>
      `${s.competitor} told the SEC of a change among its directors or officers${filedOn(s)}: read it for who is leaving or joining, since a new executive often resets priorities, and check ${possessive(s.competitor)} roadmap and messaging over the next quarters`,
  },
  {
    id: "sec_acquisition",
    types: ["acquisition"],
    title: /\(8-K, item 2\.01\)$/,
    say: (s) =>
      `${s.competitor} told the SEC it completed an acquisition or a sale of assets${filedOn(s)}: read it for what changed hands, and watch ${possessive(s.competitor)} product and pricing pages for what it bought or sold`,
  },
  {
    id: "sec_agreement",
    types: ["partnership"],
    title: /\(8-K, item 1\.01\)$/,
    say: (s) =>
      `${s.competitor} told the SEC of a material agreement${filedOn(s)}: read it for the other party, and look for a partnership or a large customer in ${possessive(s.competitor)} next announcements`,
  },
  {
    id: "chief_executive",
    types: ["leadership_change"],
    text: /\bWikidata now names .+ chief executive officer\b/,
    say: (s) => {
      const { now, was } = chiefExecutives(s);
      const fact = now
        ? `Wikidata now names ${now} as ${possessive(s.competitor)} chief executive${was ? `, in place of ${was}` : ""}`
        : `Wikidata now names a new chief executive for ${s.competitor}`;
      return `${fact}: confirm it in ${possessive(s.competitor)} own news before you repeat it, and expect a new chief executive to revisit pricing and positioning within a year`;
    },
  },
  {
    id: "go_to_market_hiring",
    // A single posting (a low hiring signal) says nothing about where a company is going.
    minSeverity: "medium",
    types: ["hiring_surge", "key_role_opening", "new_location"],
    text: SALES,
    say: (s) => {
      const role = s.type === "key_role_opening" ? roleOf(s) : undefined;
      const fact = role
        ? `${s.competitor} is hiring ${withArticle(role)}`
        : `${rolesMoved(s, "grew")}, sales and marketing among them`;
      return `${fact}: a launch or a push into a new segment often follows, so watch ${possessive(s.competitor)} pricing and product pages`;
    },
  },
  {
    id: "leadership",
    types: ["key_role_opening", "leadership_change"],
    say: (s) => {
      const role = roleOf(s);
      if (s.type === "key_role_opening")
        return role
          ? `${s.competitor} is hiring ${withArticle(role)}: expect a change of direction in what that role leads once it is filled`
          : `${s.competitor} is adding a senior role: expect a change of direction in the area it leads`;
      return role
        ? `${s.competitor} has a new ${role}: new leaders often change priorities in their first quarters, so check ${possessive(s.competitor)} messaging again soon`
        : `${s.competitor} is changing its leadership: new leaders often change priorities in their first quarters`;
    },
  },
  {
    id: "hiring_slowdown",
    minSeverity: "medium",
    types: ["hiring_slowdown"],
    say: (s) => `${rolesMoved(s, "cut")}: watch for a slower release pace and for cuts in its plans`,
  },
  {
    id: "hiring_growth",
    minSeverity: "medium",
    types: ["hiring_surge", "new_location"],
    say: (s) =>
      `${rolesMoved(s, "grew")}: more releases and a bigger sales push usually follow within a few months`,
  },
  {
    id: "price_up",
    types: ["price_increase"],
    say: (s) =>
      s.subject && s.before && s.after
        ? `${possessive(s.competitor)} ${planOf(s)} now costs ${s.after}, up from ${s.before}: its ${s.subject.trim()} customers may look at alternatives at renewal, so bring the new price into open deals`
        : `${s.competitor} raised a price: its customers may look at alternatives at renewal, so bring it into open deals`,
  },
  {
    id: "price_down",
    types: ["price_decrease"],
    say: (s) =>
      s.subject && s.before && s.after
        ? `${possessive(s.competitor)} ${planOf(s)} is now ${s.after}, down from ${s.before}: expect ${s.competitor} to lead with price where buyers compare that plan with yours`
        : `${s.competitor} cut a price: expect it to lead with price in deals`,
  },
  {
    id: "free_tier",
    types: ["free_tier_change"],
    say: (s) =>
      /\b(ends|no longer|removes|drops)\b/i.test(`${s.title} ${s.summary ?? ""}`)
        ? `${s.competitor} no longer offers a free ${freeName(s)}: teams on it must pay or leave, a window to offer them your entry plan`
        : `${s.competitor} now has a free ${freeName(s)}: expect more evaluations to start on it, so make sure your trial answers it`,
  },
  {
    id: "plans",
    types: ["plan_added", "plan_removed"],
    say: (s) =>
      s.type === "plan_added"
        ? `${s.competitor} added ${withArticle(planOf(s, "plan"))}: expect ${s.competitor} to pitch it to buyers between its other plans`
        : `${s.competitor} dropped its ${planOf(s)}: customers on it must move to another plan, so they may be open to a switch`,
  },
  {
    id: "packaging",
    types: ["packaging_change"],
    say: (s) =>
      /\bmoves?\b/i.test(s.title) && s.subject
        ? `${s.competitor} moved ${s.subject.trim()} to a dearer plan: buyers who need it now pay more with ${s.competitor}, so show where your plans include it`
        : `${s.competitor} changed how ${s.subject ? `its ${planOf(s)}` : "a plan"} is priced: check the new terms before comparing prices in deals`,
  },
  {
    id: "funding",
    types: ["funding"],
    say: (s) =>
      `${s.competitor} raised ${s.subject?.trim() || "new funding"}: new money usually goes into hiring and launches over the next quarters`,
  },
  {
    id: "acquisition",
    types: ["acquisition"],
    say: (s) =>
      s.subject
        ? `${s.competitor} acquired ${s.subject.trim()}: watch for ${s.subject.trim()} in ${possessive(s.competitor)} pricing and integrations`
        : `${s.competitor} announced an acquisition: watch for the acquired product in its pricing and integrations`,
  },
  {
    id: "app_rating_drop",
    types: ["rating_drop"],
    say: (s) => {
      const m = /from (\d(?:\.\d)?) to (\d(?:\.\d)?)/.exec(s.title);
      const app = s.subject?.trim();
      const which = app ? `${possessive(s.competitor)} app ${app}` : `${possessive(s.competitor)} app`;
      return m
        ? `${which} is rated ${m[2]} stars on the App Store, down from ${m[1]}: its recent reviews say what its users dislike, a talk track with buyers whose teams work on their phones`
        : `The App Store rating of ${which} fell: its recent reviews say what its users dislike, a talk track with buyers whose teams work on their phones`;
    },
  },
  {
    id: "package_deprecated",
    types: ["feature_removed"],
    title: /\bdeprecates its npm package\b/,
    say: (s) => {
      const pkg = s.subject?.trim();
      const note = firstSentence(/ on npm: (.+)$/.exec(s.summary ?? "")?.[1]);
      return `${s.competitor} deprecated ${pkg ? `its npm package ${pkg}` : "an npm package"}${note ? ` ("${note}")` : ""}: developers who build on it must move off it, a good moment to show them how your product connects`;
    },
  },
  {
    id: "major_version",
    types: ["release"],
    title: /\bon npm, a new major version$/,
    say: (s) => {
      const m = /from major version (\d+) to (\d+)/.exec(s.summary ?? "");
      const pkg = s.subject?.trim() ?? "its npm package";
      return `${s.competitor} released ${pkg}${m ? `, moving its npm package from version ${m[1]} to ${m[2]}` : ", a new major version on npm"}: developers must change their code to upgrade, when they are most open to comparing alternatives`;
    },
  },
  {
    id: "app_release",
    types: ["release"],
    title: / on the App Store$/,
    minSeverity: "medium",
    say: (s) => {
      const notes = firstSentence(/^[^:]*\): (.+)$/.exec(s.summary ?? "")?.[1]);
      return `${s.competitor} shipped ${s.subject?.trim() || "a new version of its app"} on the App Store${notes ? `, its notes leading with "${notes}"` : ""}: check that your mobile app answers it before buyers compare the two`;
    },
  },
  {
    id: "hacker_news",
    types: ["mention"],
    say: (s) =>
      s.subject
        ? `"${clip(s.subject.trim(), 100)}", a story linking ${possessive(s.competitor)} site, passed ${HN_POINTS} points on Hacker News: read the discussion for the praise and objections buyers may repeat to you`
        : `A story linking ${possessive(s.competitor)} site passed ${HN_POINTS} points on Hacker News: read the discussion for the praise and objections buyers may repeat to you`,
  },
  {
    id: "launch",
    types: ["feature_launch", "release"],
    minSeverity: "medium",
    say: (s) =>
      s.subject
        ? `${s.competitor} ${s.type === "release" ? "released" : "launched"} ${s.subject.trim()}: expect it in ${possessive(s.competitor)} pitch, and check the battlecard's talk tracks against it`
        : `${s.competitor} shipped something new: expect it in its pitch, and check the battlecard's talk tracks`,
  },
  {
    id: "integration",
    types: ["integration_added", "integration_removed"],
    minSeverity: "medium",
    say: (s) =>
      s.type === "integration_added"
        ? `${s.competitor} now integrates with ${s.subject?.trim() || "a new tool"}: expect it to come up with buyers who use ${s.subject?.trim() || "that tool"}`
        : `${s.competitor} dropped ${s.subject ? `its ${s.subject.trim()} integration` : "an integration"}: buyers who rely on it may look for another option`,
  },
  {
    id: "partnership",
    types: ["partnership"],
    minSeverity: "medium",
    say: (s) =>
      s.subject
        ? `${s.competitor} partnered with ${s.subject.trim()}: expect joint selling to ${possessive(s.subject.trim())} customers`
        : `${s.competitor} announced a partnership: expect joint selling to the partner's customers`,
  },
  {
    id: "certification",
    types: ["certification"],
    say: (s) =>
      `${s.competitor} now lists ${s.subject?.trim() || "a certification"}: expect it to push into enterprise and regulated buyers`,
  },
  {
    id: "security",
    types: ["security_incident"],
    say: (s) => `${s.competitor} posted a security notice: expect questions about it from shared prospects`,
  },
  {
    id: "domain",
    types: ["domain_change"],
    minSeverity: "high",
    say: (s) => `${s.competitor} moved its website: a rebrand or a repositioning may follow`,
  },
];

/** The free plan's name without a doubled "free" ("Free plan" → "plan", "Starter" → "Starter plan"). */
function freeName(s: DigestSignal): string {
  const p = planOf(s, "tier");
  return /^free\b\s*/i.test(p) ? p.replace(/^free\b\s*/i, "") || "tier" : p;
}

/** The rule a signal feeds: the first that matches it, if any. */
export function watchRuleOf(s: DigestSignal): WatchRule | undefined {
  return WATCH_RULES.find(
    (r) =>
      s.type !== undefined &&
      r.types.includes(s.type) &&
      (r.minSeverity === undefined || severityRank(s.severity) >= severityRank(r.minSeverity)) &&
      (r.text === undefined || r.text.test(`${s.title} ${s.summary ?? ""}`)) &&
      (r.title === undefined || r.title.test(s.title)),
  );
}

/** At most `max` sentences, each with the signals it rests on, most material first: first one per rule and
 * competitor not yet spoken of (so four price rises do not fill the list), then the others in order. */
export function whatToWatch(signals: DigestSignal[], max = 4): CitedSentence[] {
  const fired = new Map<string, { rule: WatchRule; first: DigestSignal; ids: number[] }>();
  for (const s of signals) {
    const rule = watchRuleOf(s);
    if (!rule) continue;
    const key = `${rule.id}\u0000${s.competitor}`;
    const hit = fired.get(key);
    if (hit) hit.ids.push(s.id);
    else fired.set(key, { rule, first: s, ids: [s.id] });
  }
  const all = [...fired.values()];
  const rules = new Set<string>();
  const competitors = new Set<string>();
  const varied = all.filter((f) => {
    if (rules.has(f.rule.id) || competitors.has(f.first.competitor)) return false;
    rules.add(f.rule.id);
    competitors.add(f.first.competitor);
    return true;
  });
  const picked = [...varied, ...all.filter((f) => !varied.includes(f))].slice(0, max);
  const out: CitedSentence[] = [];
  const said = new Set<string>();
  for (const f of all) {
    if (!picked.includes(f)) continue;
    const text = `${f.rule.say(f.first)}.`;
    if (said.has(text)) continue;
    said.add(text);
    out.push({ text, signal_ids: f.ids });
  }
  return out;
}
