// The deterministic digest writer: from a period's signals to a digest record. Every sentence names the
// signals it rests on (by title and id); nothing is said that no signal states. A daily digest of a day with
// no signals is not written (null); a quiet week gets a short weekly digest that says so.
import { type DigestRecord, SEVERITY_HIGH_FIRST, severityRank } from "../../domain/records.ts";
import type { CitedSentence } from "../llm/rephrase.ts";
import type { Period } from "./period.ts";
import type { DigestSignal } from "./types.ts";
import { whatToWatch } from "./watch.ts";

export interface DigestInput {
  period: Period;
  signals: DigestSignal[];
  /** The period's signals beyond the ones given (the writer reads a bounded number). */
  omitted: number;
  /** Monitoring cycles finished in the period (said in a quiet weekly digest). */
  cycles: number;
  competitorUrl: (id: number) => string;
  now: Date;
}

export interface WrittenDigest {
  record: DigestRecord;
  signal_ids: number[];
  /** The TL;DR, sentence by sentence with the signals each rests on (joined with spaces: `record.tldr`). */
  sentences: CitedSentence[];
}

const rank = (s: Pick<DigestSignal, "severity">) => severityRank(s.severity);

/** Most material first: severity, then confidence, then the newest, then the id. */
export function byMateriality(a: DigestSignal, b: DigestSignal): number {
  return (
    rank(b) - rank(a) ||
    (b.confidence ?? 0) - (a.confidence ?? 0) ||
    b.first_seen_at.localeCompare(a.first_seen_at) ||
    b.id - a.id
  );
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const endStop = (s: string) => (/[.!?]$/.test(s) ? s : `${s}.`);
const day = (d: Date) => d.toISOString().slice(0, 10);

function periodWords(p: Period): { title: string; span: string; when: string } {
  if (p.type === "daily_digest")
    return { title: `Daily digest — ${p.label}`, span: p.label, when: `on ${p.label}` };
  const last = new Date(p.end.getTime() - 86_400_000);
  return {
    title: `Weekly TL;DR — ${p.label}`,
    span: `${day(p.start)} to ${day(last)}`,
    when: `in ${p.label} (${day(p.start)} to ${day(last)})`,
  };
}

function severityCounts(signals: DigestSignal[]): string {
  const parts: string[] = [];
  for (const sev of SEVERITY_HIGH_FIRST) {
    const n = signals.filter((s) => s.severity === sev).length;
    if (n > 0) parts.push(`${n} ${sev}`);
  }
  const unrated = signals.filter((s) => rank(s) === 0).length;
  if (unrated > 0) parts.push(`${unrated} unrated`);
  return parts.join(", ");
}

export function writeDigest(input: DigestInput): WrittenDigest | null {
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
      `No signals were recorded ${words.when}.`,
      input.cycles > 0
        ? `${plural(input.cycles, "monitoring cycle")} ran in the week and found no material change on the tracked competitors' sources.`
        : "No monitoring cycle finished in the week, so nothing was checked.",
    ];
    const tldr = quiet.join(" ");
    return {
      record: {
        ...base,
        headline,
        tldr,
        items: [],
        markdown: `# ${words.title}\n\n**${headline}**\n\n${tldr}\n\n_Coverage: ${words.span} (UTC)._\n`,
      },
      signal_ids: [],
      sentences: quiet.map((text) => ({ text, signal_ids: [] })),
    };
  }

  const total = signals.length + input.omitted;
  const competitors = new Map<string, DigestSignal[]>();
  for (const s of signals) {
    const k = s.competitor_id === null ? `name:${s.competitor}` : `id:${s.competitor_id}`;
    const list = competitors.get(k) ?? [];
    list.push(s);
    competitors.set(k, list);
  }
  const top = signals[0];
  const cited: CitedSentence[] = [];
  const tldr: string[] = [
    `Rivals recorded ${plural(total, "signal")} about ${plural(competitors.size, "competitor")} ${words.when}: ${severityCounts(signals)}${input.omitted > 0 ? ` (${input.omitted} more not listed)` : ""}.`,
    `The most material: ${endStop(top.title).slice(0, -1)} (signal ${top.id}).`,
  ];
  // The counts sentence rests on every signal listed; each other sentence on the one it names.
  cited.push(
    { text: tldr[0], signal_ids: signals.map((s) => s.id) },
    { text: tldr[1], signal_ids: [top.id] },
  );
  // Up to two more material moves, from other competitors than the headline's where possible.
  const seen = new Set([top.competitor]);
  for (const s of signals.slice(1)) {
    if (tldr.length >= 4 || rank(s) < 2) break;
    if (seen.has(s.competitor)) continue;
    seen.add(s.competitor);
    tldr.push(`Also: ${endStop(s.title).slice(0, -1)} (signal ${s.id}).`);
    cited.push({ text: tldr[tldr.length - 1], signal_ids: [s.id] });
  }

  const items = [...competitors.values()]
    .sort((a, b) => byMateriality(a[0], b[0]) || b.length - a.length)
    .map((list) => ({
      ...(list[0].competitor_id !== null ? { competitor_id: list[0].competitor_id } : {}),
      competitor: list[0].competitor,
      ...(list[0].competitor_id !== null ? { url: input.competitorUrl(list[0].competitor_id) } : {}),
      signals: list.map((s) => ({
        id: s.id,
        ...(s.severity ? { severity: s.severity } : {}),
        ...(s.category ? { category: s.category } : {}),
        ...(s.type ? { type: s.type } : {}),
        title: s.title,
        line: `${s.severity ? `[${s.severity}] ` : ""}${endStop(s.title)}`,
        url: s.url,
        ...(s.source_url ? { source_url: s.source_url } : {}),
      })),
    }));
  const watch = whatToWatch(signals);

  const md: string[] = [`# ${words.title}`, "", `**${top.title}**`, "", tldr.join(" "), ""];
  for (const item of items) {
    md.push(`## ${item.competitor}`, "");
    for (const s of item.signals)
      md.push(
        `- ${s.severity ? `**${s.severity}** ` : ""}[${s.title}](${s.url})${s.source_url ? ` — [source](${s.source_url})` : ""}`,
      );
    md.push("");
  }
  if (watch.length > 0) {
    md.push("## What to watch", "");
    for (const w of watch) md.push(`- ${w}`);
    md.push("");
  }
  md.push(`_Coverage: ${words.span} (UTC). Signals: ${signals.map((s) => s.id).join(", ")}._`, "");

  return {
    record: {
      ...base,
      headline: top.title,
      tldr: tldr.join(" "),
      ...(watch.length > 0 ? { what_to_watch: watch.join(" ") } : {}),
      items,
      markdown: md.join("\n"),
    },
    signal_ids: signals.map((s) => s.id),
    sentences: cited,
  };
}
