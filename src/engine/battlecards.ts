// The battlecard writer: a deterministic composition of a competitor's stored dossier, its recent open
// signals (with their evidence) and, when the card holds a person's words, what those words already say. No
// model, no network: every line is built from one stored fact (engine/battlecardFacts.ts) and `evidence.lines`
// names the signal or dossier field, source and excerpt behind each.
//
// Rules (rules-v2):
// - one fact per topic (a plan's price, the free plan, a feature's tier, a round, a partner …), the newest;
//   a setback of the competitor (a price rise, a plan or free plan ended, a feature moved to a dearer plan, an
//   integration dropped, an incident) is a weakness, a move (a cut, a launch, a round, a partnership, an
//   acquisition, hiring) a strength; the period's moves in the one materiality order (domain/materiality.ts),
//   then what the dossier states.
// - talk_tracks: the fact, then what to do with it in the deal; landmines: a question to plant that names the
//   fact. Each fact gives at most one of the two, each kind of move one of each; no line repeats another.
// - a differentiator of the workspace becomes a talk track only against the competitor fact it answers.
// - recent_moves: the period's other dated moves (positioning, leadership …) not already on the card.
// - a card with a person's sections: a section they wrote gets only facts first seen after their version (an
//   empty one any fact they do not already state), and a person's line a newer fact contradicts (the old price
//   of a plan, a free plan that ended) or that names what the dossier no longer states (a plan the page no
//   longer lists, a plan's old price, a feature under a plan that no longer includes it: battlecardStale.ts) is
//   named so a member can drop it; their lines are never changed here.
// - team notes are never mixed into the sections above: they appear only under `team_framing`, each
//   labelled as an unverified team note, and are counted in `evidence.team_notes`.

import { sameThing } from "../domain/battlecardProposals.ts";
import type {
  BattlecardInput,
  CardLine,
  ComposedBattlecard,
  OutdatedLine,
} from "../domain/battlecardTypes.ts";
import { byMateriality } from "../domain/materiality.ts";
import { firstSentences, fixArticles, undoubled } from "../domain/prose.ts";
import type { CompetitorRecord } from "../domain/records.ts";
import { dayText, type Fact, newestPerTopic, readFacts, signalFact } from "./battlecardFacts.ts";
import { staleAgainstDossier } from "./battlecardStale.ts";

export type {
  BattlecardInput,
  BattlecardNote,
  BattlecardSignal,
  ComposedBattlecard,
  OwnProfile,
} from "../domain/battlecardTypes.ts";

type Obj = Record<string, unknown>;

export const RULES_VERSION = "rules-v2";

/** How many lines of each list a card holds (with a person's lines, the engine fills up to these). */
export const CARD_LIMITS = {
  strengths: 5,
  weaknesses: 5,
  talk_tracks: 5,
  landmines: 4,
  recent_moves: 3,
} as const;
/** Moves older than this before the card is written are not "recent". */
const PERIOD_DAYS = 45;

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : undefined);
const sentence = (s: string) => (/[.!?…"”]$/.test(s) ? s : `${s}.`);

const GENERIC = new Set(
  "the and for with our your their every all any more less than from into onto plan plans tier team teams one per no not only also just out over under free paid new".split(
    " ",
  ),
);
/** The words of a differentiator that can tie it to a fact ("SSO on every plan" → SSO). */
function significant(text: string, company: string): string[] {
  const own = new Set(company.toLowerCase().split(/\s+/));
  return [
    ...new Set(
      text
        .split(/[^\p{L}\p{N}-]+/u)
        .filter((w) => w.length >= 3 && !GENERIC.has(w.toLowerCase()) && !own.has(w.toLowerCase())),
    ),
  ].map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
}

function overview(c: CompetitorRecord): string {
  const facts: string[] = [];
  if (c.founding_year) facts.push(`founded ${c.founding_year}`);
  const hq = [c.headquarters?.city, c.headquarters?.country].filter(Boolean).join(", ");
  if (hq) facts.push(hq);
  const headcount =
    c.company_size ?? (isObj(c.reads?.hiring) ? c.reads.hiring.estimated_headcount : undefined);
  if (typeof headcount === "number") facts.push(`about ${headcount.toLocaleString("en-US")} people`);
  const kind = c.category ?? c.industry;
  const host = c.website_url ? /^https?:\/\/(?:www\.)?([^/]+)/.exec(c.website_url)?.[1] : undefined;
  const out = [
    `${c.name}${kind ? `: ${kind}` : ""}${facts.length ? ` (${facts.join("; ")})` : host && !kind ? ` (${host})` : ""}.`,
  ];
  if (c.description) out.push(sentence(firstSentences(c.description, 240)));
  const positioning = str(c.reads?.positioning);
  if (positioning) out.push(`Its pitch: "${firstSentences(positioning, 160).replace(/[.!?]$/, "")}".`);
  if (c.target_customer)
    out.push(sentence(`Sells to ${c.target_customer.replace(/^\p{Lu}(?=\p{Ll})/u, (x) => x.toLowerCase())}`));
  const ws = c.workspace;
  if (ws?.relative_risk || ws?.relative_opportunity)
    out.push(
      sentence(
        `For us: ${[
          ws.relative_risk ? `${ws.relative_risk} risk` : undefined,
          ws.relative_opportunity ? `${ws.relative_opportunity} opportunity` : undefined,
        ]
          .filter(Boolean)
          .join(", ")}`,
      ),
    );
  return out.join(" ");
}

/** The dossier fields the overview states. */
function overviewFields(c: CompetitorRecord): string[] {
  return [
    "name",
    ...(c.category || c.industry ? [c.category ? "category" : "industry"] : []),
    ...(c.founding_year ? ["founding_year"] : []),
    ...(c.headquarters?.city || c.headquarters?.country ? ["headquarters"] : []),
    ...(c.company_size ? ["company_size"] : []),
    ...(c.description ? ["description"] : []),
    ...(str(c.reads?.positioning) ? ["reads.positioning"] : []),
    ...(c.target_customer ? ["target_customer"] : []),
    ...(c.workspace?.relative_risk || c.workspace?.relative_opportunity ? ["workspace"] : []),
  ];
}

type ListSection = keyof typeof CARD_LIMITS;
const LIST_SECTIONS = Object.keys(CARD_LIMITS) as ListSection[];

/** The person's lines of a section (a list, or one paragraph). */
export function teamLines(team: Obj | undefined, section: string): string[] {
  const v = team?.[section];
  if (typeof v === "string") return v.trim() ? [v] : [];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string" && x.trim() !== "") : [];
}

export function composeBattlecard(input: BattlecardInput): ComposedBattlecard {
  const c = input.competitor;
  const team = input.team?.sections;
  const teamAt = input.team?.at;
  const hasTeam = Boolean(team && Object.keys(team).some((k) => teamLines(team, k).length));
  const nowMs = input.now ? Date.parse(input.now) : undefined;

  const facts = newestPerTopic([...input.signals.map((s) => signalFact(s, c)), ...readFacts(c)]).sort(
    // The period's moves in the one materiality order (domain/materiality.ts), then what the dossier states.
    (a, b) =>
      a.move && b.move ? byMateriality(a.move, b.move) : a.move ? -1 : b.move ? 1 : b.weight - a.weight,
  );
  // A section people wrote gets only what happened after their version; an empty one any fact.
  const isNew = (f: Fact) => !hasTeam || (f.fromSignal && (!teamAt || (f.at ?? "") > teamAt));
  const teamAll = LIST_SECTIONS.flatMap((k) => teamLines(team, k));
  // Beside the people's lines the engine adds at least two, else up to the section's limit (two printed pages).
  const room = (section: ListSection) => {
    const theirs = teamLines(team, section).length;
    return theirs ? Math.max(2, CARD_LIMITS[section] - theirs) : CARD_LIMITS[section];
  };
  // An older fact the people's card already states (in other words) is not stated again anywhere.
  const covered = (f: Fact) => !isNew(f) && teamAll.some((t) => sameThing(t, f.point, 0.45));
  const fits = (section: ListSection, f: Fact) =>
    isNew(f) || (teamLines(team, section).length === 0 && !covered(f));

  // A person's line that a newer fact contradicts.
  const outdated: OutdatedLine[] = [];
  const outdatedBy = new Map<Fact, OutdatedLine[]>();
  if (hasTeam)
    for (const f of facts.filter(isNew))
      for (const section of LIST_SECTIONS)
        for (const text of teamLines(team, section))
          if (f.outdates?.some((re) => re.test(text)) && !outdated.some((o) => o.text === text)) {
            const o: OutdatedLine = {
              section,
              text,
              because: f.point,
              ...(f.trace.signal_id ? { signal_id: f.trace.signal_id } : {}),
            };
            outdated.push(o);
            outdatedBy.set(f, [...(outdatedBy.get(f) ?? []), o]);
          }
  // A person's line naming a plan, a price or a plan's feature the dossier no longer states.
  if (hasTeam)
    for (const o of staleAgainstDossier(
      c,
      Object.fromEntries(LIST_SECTIONS.map((k) => [k, teamLines(team, k)])),
    ))
      if (!outdated.some((x) => x.text === o.text)) outdated.push(o);

  const lines: CardLine[] = [];
  const kinds = new Map<CardLine, string>();
  const taken: string[] = [];
  for (const section of LIST_SECTIONS) for (const t of teamLines(team, section)) taken.push(t);
  const sections: Record<ListSection, string[]> = {
    strengths: [],
    weaknesses: [],
    talk_tracks: [],
    landmines: [],
    recent_moves: [],
  };
  const add = (section: ListSection, said: string | undefined, f: Fact, own?: string) => {
    if (!said || sections[section].length >= room(section) || !fits(section, f)) return;
    const text = undoubled(fixArticles(said));
    if (taken.some((t) => sameThing(t, text))) return;
    taken.push(text);
    sections[section].push(text);
    const replaces = outdatedBy.get(f);
    lines.push({
      section,
      text,
      by: "rivals",
      ...f.trace,
      ...(own ? { profile_field: own } : {}),
      ...(replaces ? { replaces: replaces.map((o) => o.text) } : {}),
    });
  };
  const recent = (f: Fact) =>
    f.fromSignal &&
    f.weight >= 20 && // a new page or a changed policy is not a move a rep needs
    (nowMs === undefined || !f.at || nowMs - Date.parse(f.at) <= PERIOD_DAYS * 86_400_000);
  for (const f of facts) {
    if (f.stance === "strength") add("strengths", f.point, f);
    else if (f.stance === "weakness") add("weaknesses", f.point, f);
  }
  // The workspace's own differentiators, each answered against the competitor's fact it speaks to.
  for (const d of input.own?.differentiators ?? []) {
    const keys = significant(d, c.name);
    const f = facts.find(
      (x) => x.fromSignal && keys.some((k) => new RegExp(`\\b${k}\\b`, "i").test(x.point)),
    );
    const key = f && keys.find((k) => new RegExp(`\\b${k}\\b`, "i").test(f.point));
    if (f && key)
      add(
        "talk_tracks",
        `${f.said}; we offer ${d.replace(/[.!?]$/, "")}: ask whether the buyer needs ${key} and compare both vendors on it.`,
        f,
        "profile.differentiators",
      );
  }
  // One talk track and one landmine per kind of move, the most material: a second launch or a second tier move
  // stays a strength or weakness line instead of repeating the same advice.
  const once = (section: ListSection, text: string | undefined, f: Fact) => {
    const dup = f.kind && lines.some((l) => l.section === section && kinds.get(l) === f.kind);
    if (dup) return;
    const before = lines.length;
    add(section, text, f);
    if (lines.length > before && f.kind) kinds.set(lines[lines.length - 1], f.kind);
  };
  for (const f of facts) if (f.talk) once("talk_tracks", f.talk, f);
  for (const f of facts) if (f.landmine) once("landmines", f.landmine, f);
  for (const f of facts)
    if (
      f.stance === "neutral" &&
      recent(f) &&
      !lines.some((l) => l.signal_id !== undefined && l.signal_id === f.trace.signal_id)
    )
      add("recent_moves", f.point, f);

  const teamFraming = input.notes.map((n) => `Team note (${dayText(n.created_at)}, not verified): ${n.body}`);
  const used = new Set(lines.map((l) => l.signal_id).filter((x): x is number => x !== undefined));
  const sources: Obj[] = [];
  const seen = new Set<string>();
  for (const s of input.signals) {
    if (!used.has(s.id)) continue;
    for (const e of s.evidence) {
      if (!e.source_url || seen.has(e.source_url)) continue;
      seen.add(e.source_url);
      sources.push({
        url: e.source_url,
        ...(e.source_title ? { title: e.source_title } : {}),
        ...(e.observed_at ? { observed_at: e.observed_at } : {}),
        signal_id: s.id,
      });
    }
  }
  const fields = [...new Set(lines.map((l) => l.dossier_field).filter((x): x is string => x !== undefined))];
  const own = !hasTeam || !teamLines(team, "overview").length;
  return {
    sections: {
      ...(own ? { overview: overview(c) } : {}),
      ...sections,
      team_framing: teamFraming,
    },
    lines,
    outdated,
    evidence: {
      method: `${RULES_VERSION}: composed from the stored dossier and open signals; no outside lookups`,
      signal_ids: input.signals.filter((s) => used.has(s.id)).map((s) => s.id),
      sources,
      dossier: {
        competitor_id: input.competitorId,
        fields: [...new Set([...(own ? overviewFields(c) : []), ...fields])],
        ...(c.freshness?.state_updated_at ? { state_updated_at: c.freshness.state_updated_at } : {}),
      },
      team_notes: {
        note_ids: input.notes.map((n) => n.id),
        total: input.notesTotal ?? input.notes.length,
        treated_as: "framing from the team, not verified fact; shown only under team_framing",
      },
    },
  };
}
