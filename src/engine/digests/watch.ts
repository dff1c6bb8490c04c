// "What to watch": what a period's moves suggest comes next, by stated rules. Each rule reads signals of given
// types (and, for some, words in their title or summary) and says one sentence per competitor, naming the
// signals it rests on. No rule fires, nothing is said.
import { type Severity, severityRank } from "../../domain/records.ts";
import type { DigestSignal } from "./types.ts";

export interface WatchRule {
  id: string;
  types: string[];
  /** Extra condition on the signal's own words. */
  text?: RegExp;
  /** Only signals of at least this severity. */
  minSeverity?: Severity;
  say: (competitor: string) => string;
}

const SALES =
  /\b(sales|account executive|account manager|sdr|bdr|business development|marketing|growth|partnerships?|solutions? engineer|customer success)\b/i;

/** In order of precedence: a signal feeds the first rule it matches. */
export const WATCH_RULES: WatchRule[] = [
  {
    id: "go_to_market_hiring",
    // A single posting (a low hiring signal) says nothing about where a company is going.
    minSeverity: "medium",
    types: ["hiring_surge", "key_role_opening", "new_location"],
    text: SALES,
    say: (c) =>
      `${c} is hiring for sales or marketing, which often comes before a launch or a push into a new segment: watch its pricing and product pages`,
  },
  {
    id: "leadership",
    types: ["key_role_opening", "leadership_change"],
    say: (c) =>
      `${c} is changing or adding senior leadership: expect a shift in direction in the area that role leads`,
  },
  {
    id: "hiring_slowdown",
    minSeverity: "medium",
    types: ["hiring_slowdown"],
    say: (c) => `${c} is hiring less: watch for a slower release pace and for cuts in its plans`,
  },
  {
    id: "hiring_growth",
    minSeverity: "medium",
    types: ["hiring_surge", "new_location"],
    say: (c) =>
      `${c} is growing its team: more releases and a bigger sales push usually follow within a few months`,
  },
  {
    id: "price_up",
    types: ["price_increase"],
    say: (c) =>
      `${c} raised prices: its customers may look at alternatives at renewal, so raise it in open deals`,
  },
  {
    id: "packaging",
    types: ["price_decrease", "plan_added", "plan_removed", "packaging_change", "free_tier_change"],
    say: (c) => `${c} changed its plans or prices: expect it to compete differently on price in deals`,
  },
  {
    id: "funding",
    types: ["funding"],
    say: (c) =>
      `${c} announced funding: new money usually goes into hiring and launches over the next quarters`,
  },
  {
    id: "acquisition",
    types: ["acquisition"],
    say: (c) =>
      `${c} announced an acquisition: watch for the acquired product in its pricing and integrations`,
  },
  {
    id: "launch",
    types: ["feature_launch", "release", "integration_added"],
    minSeverity: "medium",
    say: (c) =>
      `${c} shipped something new: expect it in its sales pitch, and check the battlecard's talk tracks`,
  },
  {
    id: "certification",
    types: ["certification"],
    say: (c) => `${c} announced a certification: expect it to push into enterprise and regulated buyers`,
  },
  {
    id: "security",
    types: ["security_incident"],
    say: (c) => `${c} posted a security notice: expect questions about it from shared prospects`,
  },
  {
    id: "domain",
    types: ["domain_change"],
    minSeverity: "high",
    say: (c) => `${c} moved its website: a rebrand or a repositioning may follow`,
  },
];

/** One sentence per (rule, competitor), most material first, at most `max`. */
export function whatToWatch(signals: DigestSignal[], max = 4): string[] {
  const fired = new Map<string, { rule: WatchRule; competitor: string; ids: number[]; order: number }>();
  signals.forEach((s, order) => {
    const rule = WATCH_RULES.find(
      (r) =>
        s.type !== undefined &&
        r.types.includes(s.type) &&
        (r.minSeverity === undefined || severityRank(s.severity) >= severityRank(r.minSeverity)) &&
        (r.text === undefined || r.text.test(`${s.title} ${s.summary ?? ""}`)),
    );
    if (!rule) return;
    const key = `${rule.id}\u0000${s.competitor}`;
    const hit = fired.get(key);
    if (hit) hit.ids.push(s.id);
    else fired.set(key, { rule, competitor: s.competitor, ids: [s.id], order });
  });
  return [...fired.values()]
    .sort((a, b) => a.order - b.order)
    .slice(0, max)
    .map(
      (f) =>
        `${f.rule.say(f.competitor)} (${f.ids.length === 1 ? "signal" : "signals"} ${f.ids.join(", ")}).`,
    );
}
