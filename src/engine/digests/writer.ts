// The deterministic digest writer: from a period's signals to a digest record. The headline is the most material
// move (domain/materiality.ts); the TL;DR tells the moves competitor by competitor, then what else the digest
// lists by theme; "what to watch" says one specific thing per competitor and rule. Every sentence rests on
// named signals (`sentences`, `watch`) and, in the Markdown, links to them; nothing is said that no signal
// states. Links are relative to the installation (the reader's base URL is put in front when a digest is read).
// A daily digest of a day with no signals is not written (null); a quiet week gets a short weekly digest.
import type { Period } from "../../domain/digestPeriods.ts";
import { mdEscape, mdUrl } from "../../domain/markdown.ts";
import { byMateriality, isMaterial, kindRank, MOVE_KINDS } from "../../domain/materiality.ts";
import { listOf, undoubled, withStop } from "../../domain/prose.ts";
import type { DigestRecord } from "../../domain/records.ts";
import { label } from "../../domain/vocabulary.ts";
import type { CitedSentence } from "../llm/rephrase.ts";
import type { DigestSignal } from "./types.ts";
import { whatToWatch } from "./watch.ts";

export interface DigestInput {
  period: Period;
  signals: DigestSignal[];
  /** The period's signals beyond the ones given (the writer reads a bounded number). */
  omitted: number;
  /** Monitoring cycles finished in the period (said in a quiet weekly digest). */
  cycles: number;
  /** A competitor's page in the app, relative to the installation. */
  competitorUrl: (id: number) => string;
  now: Date;
}

export interface WrittenDigest {
  record: DigestRecord;
  signal_ids: number[];
  /** The TL;DR, sentence by sentence with the signals each rests on (joined with spaces: `record.tldr`). */
  sentences: CitedSentence[];
  /** "What to watch", item by item with the signals each rests on. */
  watch: CitedSentence[];
}

/** At most this many moves of one competitor are told in its TL;DR sentence. */
const MOVES_PER_COMPETITOR = 3;
/** Competitors told in a sentence of their own; the next ones share one sentence. */
const OWN_SENTENCES = 2;
const SHARED_SENTENCE = 4;

/** A TL;DR sentence: its plain text, its Markdown (each move linked to its signal) and its signals. */
interface Told {
  text: string;
  md: string;
  ids: number[];
}

const THEMES: Record<string, string> = {
  prices: "price changes",
  plans: "plan changes",
  packaging: "packaging changes",
  company: "company news",
  product: "product and integration changes",
  market: "partnerships and certifications",
  hiring: "hiring",
  "pages and wording": "site pages and wording",
};

function periodWords(p: Period): { title: string; when: string; footer: string } {
  if (p.type === "daily_digest")
    return {
      title: `Daily digest — ${p.label}`,
      when: `on ${p.label}`,
      footer: `Changes first seen on ${p.label} (UTC).`,
    };
  return {
    title: `Weekly TL;DR — ${p.label}`,
    when: `in the week of ${p.label}`,
    footer: `Changes first seen ${p.label} (UTC).`,
  };
}

const clean = (s: string) => undoubled(s.replace(/\s+/g, " ").trim()).replace(/[.;:]+$/, "");

/** What a title says of its competitor, without the name ("raises Team plan price …"), when it reads as a
 * predicate; undefined when it does not ("Globex leadership change: …"). */
function predicate(s: DigestSignal): string | undefined {
  const t = clean(s.title);
  // A title may name the company by its first word ("Globex moves SSO …" for Globex Insights).
  for (const name of new Set([s.competitor, s.competitor.split(" ")[0]])) {
    if (!t.startsWith(`${name} `)) continue;
    const rest = t.slice(name.length + 1);
    if (/^(?:is|has|[a-z]+s)\b/.test(rest)) return rest;
  }
  return undefined;
}

/** "A and B", "A, B and C", or with semicolons when a part holds a comma of its own (one between digits or in
 * brackets does not count). */
function joined(parts: string[]): string {
  const commas = (p: string) => /[,;]/.test(p.replace(/\([^)]*\)/g, "").replace(/(\d),(\d)/g, "$1$2"));
  if (parts.length <= 2 || !parts.some(commas)) return listOf(parts);
  return `${parts.slice(0, -1).join("; ")}; and ${parts[parts.length - 1]}`;
}

const link = (text: string, s: DigestSignal) => `[${mdEscape(text)}](${mdUrl(s.url)})`;

/** A part of a competitor's sentence: one move, or several price moves of one plan told together. */
interface Part {
  moves: DigestSignal[];
  /** What the moves say of the company ("raises Team plan price …"); absent when the title does not read so. */
  said?: string;
}

const PRICE_MOVES = new Set(["price_increase", "price_decrease"]);
/** Where a price move's amount starts: "by 20%", "from $59 to $69", "to $69". */
const AMOUNT_WORD = /^(?:by|from|to)$/;

/** The words price predicates share up to their amounts ("raises Team plan price"), when they are about one
 * plan; undefined otherwise ("raises Team …" and "raises Pro …" share only the verb). */
function samePlan(said: string[]): string | undefined {
  const words = said.map((p) => p.split(" "));
  let k = 0;
  while (words.every((w) => k < w.length && w[k] === words[0][k])) k++;
  // Back to where every amount starts: "from $59 …" and "from $69 …" share "from", which is the amounts'.
  while (k > 0 && !words.every((w) => AMOUNT_WORD.test(w[k] ?? ""))) k--;
  return k >= 2 ? words[0].slice(0, k).join(" ") : undefined;
}

/** A competitor's moves as parts, most material first. Price moves of one plan in the same direction become one
 * part: told one by one, two rises of one plan in a week read as two accounts of one rise that disagree. */
function partsOf(moves: DigestSignal[]): Part[] {
  const parts: Part[] = [];
  for (const m of moves) {
    const said = predicate(m);
    const same =
      said && m.type && PRICE_MOVES.has(m.type)
        ? parts.find((p) => p.said && p.moves[0].type === m.type && samePlan([p.said, said]))
        : undefined;
    if (same) same.moves.push(m);
    else parts.push({ moves: [m], ...(said !== undefined ? { said } : {}) });
  }
  return parts;
}

/** One plan's price moves in the order they were seen: "raises Team plan price by 20%, then from $59 to $69 per
 * seat/month (+17%)", each amount linked to its signal in the Markdown. */
function oneAfterAnother(moves: DigestSignal[]): { text: string; md: string } {
  const seen = [...moves].sort((a, b) => a.first_seen_at.localeCompare(b.first_seen_at) || a.id - b.id);
  const said = seen.map((m) => predicate(m)!);
  const shared = samePlan(said)!;
  const amounts = said.map((p) => p.slice(shared.length + 1));
  const first = `${shared} ${amounts[0]}`;
  return {
    text: [first, ...amounts.slice(1)].join(", then "),
    md: [link(first, seen[0]), ...amounts.slice(1).map((a, i) => link(a, seen[i + 1]))].join(", then "),
  };
}

/** One competitor's material moves in one sentence: "Globex raises …, moves … and is hiring …", at most
 * `MOVES_PER_COMPETITOR` parts. A move whose title does not read as a predicate of the company follows in a
 * sentence of its own. */
function competitorSentence(moves: DigestSignal[]): Told {
  const name = moves[0].competitor;
  const parts = partsOf(moves).slice(0, MOVES_PER_COMPETITOR);
  const said = parts
    .filter((p) => p.said !== undefined)
    .map((p) =>
      p.moves.length > 1 ? oneAfterAnother(p.moves) : { text: p.said!, md: link(p.said!, p.moves[0]) },
    );
  const titled = parts
    .filter((p) => p.said === undefined)
    .map((p) => ({ m: p.moves[0], t: clean(p.moves[0].title) }));
  const text: string[] = [];
  const md: string[] = [];
  if (said.length) {
    text.push(withStop(`${name} ${joined(said.map((x) => x.text))}`));
    md.push(withStop(`${mdEscape(name)} ${joined(said.map((x) => x.md))}`));
  }
  if (titled.length) {
    text.push(withStop(joined(titled.map((x) => x.t))));
    md.push(withStop(joined(titled.map((x) => link(x.t, x.m)))));
  }
  const ids = [...parts.filter((p) => p.said !== undefined), ...parts.filter((p) => p.said === undefined)];
  return { text: text.join(" "), md: md.join(" "), ids: ids.flatMap((p) => p.moves.map((m) => m.id)) };
}

/** The most material move of each of several competitors, in one sentence: "Elsewhere, Halcyon raises …". */
function sharedSentence(firsts: DigestSignal[]): Told {
  const titles = firsts.map((m) => clean(m.title));
  return {
    text: withStop(`Elsewhere, ${joined(titles)}`),
    md: withStop(`Elsewhere, ${joined(firsts.map((m, i) => link(titles[i], m)))}`),
    ids: firsts.map((m) => m.id),
  };
}

/** What else the digest lists, by theme and competitor: "Also in this digest: hiring at Globex and Quantive; …". */
function restSentence(rest: DigestSignal[], omitted: number, onlyMinor: boolean): Told | undefined {
  if (rest.length === 0) return undefined;
  const byTheme = new Map<number, DigestSignal[]>();
  for (const s of rest) {
    const k = kindRank(s.type, s.category);
    byTheme.set(k, [...(byTheme.get(k) ?? []), s]);
  }
  const themes = [...byTheme.entries()].sort((a, b) => b[1].length - a[1].length || a[0] - b[0]);
  const shown = themes.slice(0, 3);
  // Each competitor named links to its first signal of the theme (the Markdown's trace of the sentence).
  const parts = shown.map(([k, list]) => {
    const first = new Map<string, DigestSignal>();
    for (const s of list) if (!first.has(s.competitor)) first.set(s.competitor, s);
    const theme = THEMES[MOVE_KINDS[k].kind];
    return {
      plain: `${theme} at ${listOf([...first.keys()])}`,
      md: `${theme} at ${listOf([...first.values()].map((s) => link(s.competitor, s)))}`,
    };
  });
  const more = themes.slice(3).reduce((n, [, list]) => n + list.length, 0) + omitted;
  const tail = more > 0 ? `; and ${more} more ${more === 1 ? "change" : "changes"}` : "";
  const lead = onlyMinor ? "Only smaller changes were seen" : "Also in this digest";
  return {
    text: withStop(`${lead}: ${parts.map((p) => p.plain).join("; ")}${tail}`),
    md: withStop(`${lead}: ${parts.map((p) => p.md).join("; ")}${tail}`),
    ids: rest.map((s) => s.id),
  };
}

/** The TL;DR: competitors with material moves, most material first, then the rest by theme; at most four
 * sentences. */
function tell(signals: DigestSignal[], omitted: number): Told[] {
  const groups = new Map<string, DigestSignal[]>();
  for (const s of signals) {
    const k = s.competitor_id === null ? `name:${s.competitor}` : `id:${s.competitor_id}`;
    groups.set(k, [...(groups.get(k) ?? []), s]);
  }
  const material = [...groups.values()]
    .map((list) => list.filter((s) => isMaterial(s.severity)))
    .filter((list) => list.length > 0);
  const out: Told[] = [];
  const told = new Set<number>();
  const own = material.length <= OWN_SENTENCES + 1 ? material : material.slice(0, OWN_SENTENCES);
  for (const list of own) {
    const sentence = competitorSentence(list);
    out.push(sentence);
    for (const id of sentence.ids) told.add(id);
  }
  const shared = material.slice(own.length, own.length + SHARED_SENTENCE).map((list) => list[0]);
  if (shared.length > 0) {
    out.push(sharedSentence(shared));
    for (const m of shared) told.add(m.id);
  }
  const rest = restSentence(
    signals.filter((s) => !told.has(s.id)),
    omitted,
    material.length === 0,
  );
  if (rest) out.push(rest);
  return out;
}

/**
 * The digest of a period. `tldr`, when given, replaces the deterministic TL;DR (the language-model writer's
 * checked sentences): the record's `tldr` and its Markdown then say those sentences.
 */
export function writeDigest(input: DigestInput, tldr?: CitedSentence[]): WrittenDigest | null {
  const { period, now } = input;
  const words = periodWords(period);
  const signals = [...input.signals].sort(byMateriality);
  const base: DigestRecord = {
    slug: period.slug,
    type: period.type,
    status: "generated",
    title: words.title,
    coverage_period_start: period.start.toISOString(),
    coverage_period_end: period.end.toISOString(),
    generated_at: now.toISOString(),
  };
  if (signals.length === 0) {
    if (period.type === "daily_digest") return null;
    const headline = "A quiet week: no competitor moves were recorded";
    const quiet = [
      `No competitor moves were recorded ${words.when}.`,
      input.cycles > 0
        ? `${input.cycles} monitoring ${input.cycles === 1 ? "cycle" : "cycles"} ran in the week and found no material change on the tracked competitors' sources.`
        : "No monitoring cycle finished in the week, so nothing was checked.",
    ];
    const text = quiet.join(" ");
    return {
      record: {
        ...base,
        headline,
        tldr: text,
        items: [],
        markdown: `# ${mdEscape(words.title)}\n\n**${headline}**\n\n${mdEscape(text)}\n\n*${words.footer}*\n`,
      },
      signal_ids: [],
      sentences: quiet.map((t) => ({ text: t, signal_ids: [] })),
      watch: [],
    };
  }

  const told: Told[] = tldr
    ? tldr.map((s) => ({ text: s.text, md: mdEscape(s.text), ids: s.signal_ids }))
    : tell(signals, input.omitted);
  const watch = whatToWatch(signals);
  const byId = new Map(signals.map((s) => [s.id, s]));

  const competitors = new Map<string, DigestSignal[]>();
  for (const s of signals) {
    const k = s.competitor_id === null ? `name:${s.competitor}` : `id:${s.competitor_id}`;
    competitors.set(k, [...(competitors.get(k) ?? []), s]);
  }
  const items = [...competitors.values()].map((list) => ({
    ...(list[0].competitor_id !== null ? { competitor_id: list[0].competitor_id } : {}),
    competitor: list[0].competitor,
    ...(list[0].competitor_id !== null ? { url: input.competitorUrl(list[0].competitor_id) } : {}),
    signals: list.map((s) => ({
      id: s.id,
      ...(s.severity ? { severity: s.severity } : {}),
      ...(s.category ? { category: s.category } : {}),
      ...(s.type ? { type: s.type } : {}),
      title: s.title,
      line: `${s.severity ? `${label(s.severity)}: ` : ""}${withStop(clean(s.title))}`,
      url: s.url,
      ...(s.source_url ? { source_url: s.source_url } : {}),
    })),
  }));

  const top = signals[0];
  // The headline in bold, unless the TL;DR opens with that very move (it would be read twice in a row).
  const opens =
    told[0]?.text.startsWith(clean(top.title)) ||
    told[0]?.text.startsWith(`${top.competitor} ${predicate(top)}`);
  const md: string[] = [
    `# ${mdEscape(words.title)}`,
    "",
    ...(opens ? [] : [`**${mdEscape(clean(top.title))}**`, ""]),
    told.map((t) => t.md).join(" "),
    "",
  ];
  if (watch.length > 0) {
    md.push("## What to watch", "");
    for (const w of watch) {
      const first = byId.get(w.signal_ids[0]);
      md.push(
        first
          ? `- ${mdEscape(w.text.replace(/\.$/, ""))} ([signal](${mdUrl(first.url)})).`
          : `- ${mdEscape(w.text)}`,
      );
    }
    md.push("");
  }
  for (const item of items) {
    md.push(`## ${mdEscape(item.competitor)}`, "");
    for (const s of item.signals)
      md.push(
        `- ${s.severity ? `${label(s.severity)}: ` : ""}[${mdEscape(clean(s.title))}](${mdUrl(s.url)})${s.source_url ? ` ([source](${mdUrl(s.source_url)}))` : ""}`,
      );
    md.push("");
  }
  const listed = input.omitted > 0 ? ` The ${input.omitted} least material changes are not listed.` : "";
  md.push(`*${words.footer}${listed}*`, "");

  return {
    record: {
      ...base,
      headline: clean(top.title),
      tldr: told.map((t) => t.text).join(" "),
      ...(watch.length > 0 ? { what_to_watch: watch.map((w) => w.text).join(" ") } : {}),
      items,
      markdown: md.join("\n"),
    },
    signal_ids: signals.map((s) => s.id),
    sentences: told.map((t) => ({ text: t.text, signal_ids: t.ids })),
    watch,
  };
}
