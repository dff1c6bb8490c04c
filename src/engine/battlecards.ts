// The battlecard writer: a deterministic composition of a competitor's stored dossier, its recent open
// signals (with their evidence) and the team's battlecard notes. No model, no network: every sentence is
// built from stored data by the rules below, and `evidence` names what each card was built from.
//
// Rules (rules-v1):
// - overview: who the competitor is (category, founding year, headquarters, size, ownership), the stored
//   description, positioning, target customer and business model, the workspace's risk/opportunity
//   rating, and the signal picture (count, high severity, newest move).
// - signals are classified by their type, category, title and summary: setbacks (price rises, features
//   moved to a higher tier, outages, layoffs, departures, lawsuits, deprecations…) are weaknesses, moves
//   (launches, funding, partnerships, integrations, expansion, hiring…) are strengths; setbacks win ties.
// - strengths also come from the research reads (product, AI, integrations, market, free tier, hiring
//   growth, funding, compliance, traffic up); weaknesses from reads that say so (no free tier, shrinking
//   team, traffic down, lists named weaknesses/limitations/risks/gaps/complaints).
// - talk_tracks: raise each setback with its source, answer each move with the workspace's own
//   differentiators, contrast on each differentiator, price and positioning counters.
// - landmines: questions to plant that make a setback matter to the buyer.
// - team notes are never mixed into the sections above: they appear only under `team_framing`, each
//   labelled as an unverified team note, and are counted in `evidence.team_notes`.
import type { BattlecardInput, BattlecardSignal, ComposedBattlecard } from "../domain/battlecardTypes.ts";
import type { CompetitorRecord } from "../domain/records.ts";

export type {
  BattlecardInput,
  BattlecardNote,
  BattlecardSignal,
  ComposedBattlecard,
  OwnProfile,
} from "../domain/battlecardTypes.ts";

type Obj = Record<string, unknown>;

export const RULES_VERSION = "rules-v1";

const SETBACK =
  /price[_ ]?(increase|hike|rise)|rais(e|es|ed|ing)\b(\s+\S+){0,3}\s+prices?\b|more expensive|no longer|\bremov(e|es|ed|ing)\b|drops? support|deprecat|sunset|discontinu|shut(s|ting)? down|outage|incident|downtime|degraded|breach|vulnerab|lawsuit|\bsued\b|\bfined\b|layoffs?|laid off|lays off|job cuts|restructur|resign|departs?\b|departure|steps down|\bchurn|delay|recall|enterprise[- ]only|only (on|in) (the )?enterprise|moves? .{1,40} to (the )?enterprise/i;
const MOVE =
  /launch|\breleas|introduc|\bships?\b|general availability|\bga\b|funding|\braises? \$|series [a-f]\b|acquir|partner|integrat|expan|opens? (an? )?(new )?(office|region)|\bhires?\b|hiring|appoint|award|\bwins?\b|customer win|milestone|certif/i;

export function classifySignal(s: Pick<BattlecardSignal, "title" | "summary" | "category" | "type">) {
  const text = [s.type, s.category, s.title, s.summary].filter(Boolean).join(" ").replaceAll("_", " ");
  if (SETBACK.test(text)) return "setback" as const;
  if (MOVE.test(text)) return "move" as const;
  return "neutral" as const;
}

const day = (ts?: string) => (ts ? ts.slice(0, 10) : undefined);
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : undefined);
const strList = (v: unknown) =>
  Array.isArray(v) ? v.map(str).filter((x): x is string => x !== undefined) : ([] as string[]);
const sentence = (s: string) => (/[.!?…"”]$/.test(s) ? s : `${s}.`);

function firstSentences(text: string, max = 320): string {
  const parts = text.match(/[^.!?]+[.!?]+(\s|$)|[^.!?]+$/g) ?? [text];
  let out = "";
  for (const p of parts) {
    if ((out + p).length > max && out) break;
    out += p;
  }
  return out.trim();
}

function signalLabel(s: BattlecardSignal): string {
  const d = day(s.first_seen_at);
  return d ? `${s.title} (${d})` : s.title;
}

function firstSource(s: BattlecardSignal): string | undefined {
  return s.evidence.find((e) => e.source_url)?.source_url;
}

function overview(c: CompetitorRecord, signals: BattlecardSignal[], notes: number): string {
  const kind = c.category ?? c.industry;
  const facts: string[] = [];
  if (c.founding_year) facts.push(`founded in ${c.founding_year}`);
  const hq = [c.headquarters?.city, c.headquarters?.country].filter(Boolean).join(", ");
  if (hq) facts.push(`headquartered in ${hq}`);
  const headcount =
    c.company_size ?? (isObj(c.reads?.hiring) ? c.reads.hiring.estimated_headcount : undefined);
  if (typeof headcount === "number") facts.push(`about ${headcount} people`);
  const lead = `${c.name} is ${kind ? `a ${kind} company` : "a tracked competitor"}${facts.length ? ` (${facts.join("; ")})` : ""}.`;
  const out = [lead];
  if (c.description) out.push(sentence(firstSentences(c.description)));
  const positioning = str(c.reads?.positioning);
  if (positioning) out.push(`It positions itself as: "${positioning}"`);
  if (c.target_customer) out.push(sentence(`It sells to ${c.target_customer}`));
  if (c.business_model) out.push(sentence(`Business model: ${c.business_model}`));
  const ws = c.workspace;
  if (ws?.relative_risk || ws?.relative_opportunity)
    out.push(
      sentence(
        `For this workspace: ${[
          ws.relative_risk ? `${ws.relative_risk} risk` : undefined,
          ws.relative_opportunity ? `${ws.relative_opportunity} opportunity` : undefined,
        ]
          .filter(Boolean)
          .join(", ")}`,
      ),
    );
  const own = c.ownership;
  if (own?.parent_company_name)
    out.push(sentence(`Owned by ${own.parent_company_name}${own.ticker ? ` (${own.ticker})` : ""}`));
  else if (own?.public && own.ticker) out.push(`Publicly traded (${own.ticker}).`);
  if (signals.length) {
    const high = signals.filter((s) => s.severity === "high").length;
    out.push(
      `${signals.length} open signal${signals.length === 1 ? "" : "s"} on record${high ? `, ${high} of high severity` : ""}; the newest: ${signalLabel(signals[0])}.`,
    );
  } else out.push("No open signals on record yet.");
  if (notes)
    out.push(
      `The team added ${notes} note${notes === 1 ? "" : "s"}; the newest are listed under team framing as the team's view, not as verified fact.`,
    );
  return out.join(" ");
}

/** Strengths and weaknesses the research reads state, each tagged with the read it came from. */
function fromReads(reads: Obj | undefined): {
  strengths: [string, string][];
  weaknesses: [string, string][];
} {
  const strengths: [string, string][] = [];
  const weaknesses: [string, string][] = [];
  if (!reads) return { strengths, weaknesses };
  const d = (k: string) => (isObj(reads[k]) ? (reads[k] as Obj) : undefined);
  const product = d("product");
  if (product) {
    const summary = str(product.summary);
    if (summary) strengths.push([sentence(`Product: ${summary}`), "reads.product"]);
    const launches = strList(product.recent_launches);
    if (launches.length)
      strengths.push([`Recent launches: ${launches.slice(0, 4).join(", ")}.`, "reads.product"]);
  }
  const ai = d("ai");
  if (ai && str(ai.summary))
    strengths.push([
      sentence(
        `AI: ${str(ai.summary)?.replace(/[.!?]+$/, "")}${str(ai.maturity) ? ` (${str(ai.maturity)})` : ""}`,
      ),
      "reads.ai",
    ]);
  const integ = d("integrations");
  if (integ) {
    const hl = strList(integ.highlights);
    const count = str(integ.count_text);
    if (count || hl.length)
      strengths.push([
        sentence(
          `Integrations: ${[count, hl.length ? hl.slice(0, 5).join(", ") : undefined].filter(Boolean).join(" — ")}`,
        ),
        "reads.integrations",
      ]);
  }
  const market = d("market");
  if (market) {
    const seg = str(market.segment);
    const geo = strList(market.geographies);
    if (seg || geo.length)
      strengths.push([
        sentence(`Market presence: ${[seg, geo.join(", ")].filter(Boolean).join("; ")}`),
        "reads.market",
      ]);
  }
  const pricing = d("pricing");
  if (pricing?.free_tier === true)
    strengths.push(["A free tier lowers the barrier to adoption.", "reads.pricing"]);
  if (pricing?.free_tier === false)
    weaknesses.push(["No free tier: buyers must commit before trying.", "reads.pricing"]);
  const hiring = d("hiring");
  if (hiring) {
    const trend = str(hiring.trend)?.toLowerCase();
    const roles = typeof hiring.open_roles === "number" ? hiring.open_roles : undefined;
    const focus = strList(hiring.focus);
    if (trend && /grow|up|expand/.test(trend))
      strengths.push([
        sentence(
          `Growing team${roles ? ` with ${roles} open roles` : ""}${focus.length ? ` (focus: ${focus.join(", ")})` : ""}`,
        ),
        "reads.hiring",
      ]);
    if (trend && /shrink|down|declin|cut/.test(trend))
      weaknesses.push([
        "The team is shrinking: ask about support coverage and roadmap capacity.",
        "reads.hiring",
      ]);
  }
  const funding = d("funding");
  if (funding) {
    const parts = [str(funding.last_round_text), str(funding.estimated_revenue_text)].filter(Boolean);
    if (parts.length) strengths.push([sentence(`Funding and scale: ${parts.join("; ")}`), "reads.funding"]);
  }
  const reg = d("regulation");
  if (reg && str(reg.summary))
    strengths.push([sentence(`Compliance: ${str(reg.summary)}`), "reads.regulation"]);
  const traffic = d("traffic");
  const trend = str(traffic?.trend)?.toLowerCase();
  if (trend === "up")
    strengths.push([
      sentence(`Web traffic is trending up${str(traffic?.note) ? `: ${str(traffic?.note)}` : ""}`),
      "reads.traffic",
    ]);
  if (trend === "down")
    weaknesses.push([
      sentence(`Web traffic is trending down${str(traffic?.note) ? `: ${str(traffic?.note)}` : ""}`),
      "reads.traffic",
    ]);
  for (const [k, v] of Object.entries(reads)) {
    if (!isObj(v)) continue;
    for (const field of ["weaknesses", "limitations", "risks", "gaps", "complaints"])
      for (const item of strList(v[field]).slice(0, 3)) weaknesses.push([sentence(item), `reads.${k}`]);
    for (const item of strList(v.strengths).slice(0, 3)) strengths.push([sentence(item), `reads.${k}`]);
  }
  return { strengths, weaknesses };
}

export function composeBattlecard(input: BattlecardInput): ComposedBattlecard {
  const c = input.competitor;
  const signals = input.signals;
  const setbacks = signals.filter((s) => classifySignal(s) === "setback");
  const moves = signals.filter((s) => classifySignal(s) === "move");
  const reads = fromReads(c.reads);
  const differentiators = strList(input.own?.differentiators);
  const valueProps = strList(input.own?.value_propositions);
  const used = new Map<number, Set<string>>();
  const use = (s: BattlecardSignal, section: string) => {
    const set = used.get(s.id) ?? new Set<string>();
    set.add(section);
    used.set(s.id, set);
  };

  const strengths = [
    ...moves.slice(0, 4).map((s) => {
      use(s, "strengths");
      return `${signalLabel(s)}${s.summary ? ` — ${firstSentences(s.summary, 200)}` : ""}`;
    }),
    ...reads.strengths.map(([t]) => t),
  ].slice(0, 8);
  const weaknesses = [
    ...setbacks.slice(0, 5).map((s) => {
      use(s, "weaknesses");
      return `${signalLabel(s)}${s.summary ? ` — ${firstSentences(s.summary, 200)}` : ""}`;
    }),
    ...reads.weaknesses.map(([t]) => t),
  ].slice(0, 8);
  if (weaknesses.length === 0)
    weaknesses.push(
      `No evidence-backed weakness of ${c.name} is on record yet; new signals and research will add them.`,
    );
  if (strengths.length === 0)
    strengths.push(`No evidence-backed strength of ${c.name} is on record yet; research will add them.`);

  const talk: string[] = [];
  for (const s of setbacks.slice(0, 3)) {
    use(s, "talk_tracks");
    const src = firstSource(s);
    talk.push(
      `Raise "${s.title}"${day(s.first_seen_at) ? ` (seen ${day(s.first_seen_at)})` : ""}: ask how it changes the buyer's plans with ${c.name}.${src ? ` Source: ${src}` : ""}`,
    );
  }
  moves.slice(0, 2).forEach((s, i) => {
    use(s, "talk_tracks");
    const answer = differentiators[i] ?? valueProps[i];
    talk.push(
      `If the buyer brings up "${s.title}", acknowledge it, then move to ${answer ? `our strength: ${answer}` : "the outcomes the buyer needs and how we prove them"}.`,
    );
  });
  for (const d of differentiators.slice(0, 3))
    talk.push(`Contrast on "${d}": ask the buyer to have ${c.name} show it in a trial.`);
  const pricing = isObj(c.reads?.pricing) ? (c.reads.pricing as Obj) : undefined;
  const price = str(pricing?.entry_price_text);
  if (price)
    talk.push(
      `On price: ${c.name} lists "${price}"${str(pricing?.model) ? ` (${str(pricing?.model)})` : ""}; compare the total cost for the buyer's team size and needs, not the entry price.`,
    );
  const positioning = str(c.reads?.positioning);
  if (positioning)
    talk.push(
      `Their pitch is "${positioning}" — answer it with a concrete proof point from a customer like the buyer.`,
    );
  if (talk.length === 0)
    talk.push(
      `Ask what the buyer likes about ${c.name} and what they would change; steer to outcomes we can prove.`,
    );

  const landmines = setbacks.slice(0, 3).map((s) => {
    use(s, "landmines");
    return `Ask the buyer how "${s.title.replace(/[.!?]$/, "")}" affects their evaluation of ${c.name}.`;
  });

  const recent = signals.slice(0, 5).map((s) => {
    use(s, "recent_moves");
    return `${signalLabel(s)}${s.severity ? ` [${s.severity}]` : ""}`;
  });

  const teamFraming = input.notes.map((n) => `Team note (${day(n.created_at)}, not verified): ${n.body}`);

  const sources: Obj[] = [];
  const seen = new Set<string>();
  for (const s of signals) {
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
  const dossierFields = [
    ...new Set([
      ...(c.description ? ["description"] : []),
      ...(c.workspace?.relative_risk || c.workspace?.relative_opportunity ? ["workspace"] : []),
      ...(positioning ? ["reads.positioning"] : []),
      ...reads.strengths.map(([, f]) => f),
      ...reads.weaknesses.map(([, f]) => f),
      ...(price ? ["reads.pricing"] : []),
    ]),
  ];

  return {
    sections: {
      overview: overview(c, signals, input.notesTotal ?? input.notes.length),
      strengths,
      weaknesses,
      talk_tracks: talk.slice(0, 8),
      landmines,
      recent_moves: recent,
      team_framing: teamFraming,
    },
    evidence: {
      method: `${RULES_VERSION}: composed from the stored dossier, open signals and team notes; no outside lookups`,
      signal_ids: signals.filter((s) => used.has(s.id)).map((s) => s.id),
      signals: signals
        .filter((s) => used.has(s.id))
        .map((s) => ({
          id: s.id,
          title: s.title,
          ...(s.first_seen_at ? { first_seen_at: s.first_seen_at } : {}),
          ...(s.severity ? { severity: s.severity } : {}),
          classified_as: classifySignal(s),
          used_in: [...(used.get(s.id) ?? [])],
          source_urls: [...new Set(s.evidence.map((e) => e.source_url).filter(Boolean))],
        })),
      sources,
      dossier: {
        competitor_id: input.competitorId,
        fields: dossierFields,
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
