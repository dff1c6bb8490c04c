// The optional language-model writer (docs/engine/write.md, "Optional language-model writer"): an OpenAI-compatible
// endpoint (POST {base}/chat/completions, through the one fetcher) may rephrase the deterministic sentences of a
// digest's TL;DR. It only rephrases: every sentence it returns must cite signals, only signals the deterministic
// sentences cite, and every number in it must be one the evidence states (the cited signals' titles or the
// deterministic sentences). Any failed check, HTTP error, unreadable answer or timeout keeps the deterministic
// text. The API key goes only into the Authorization header; it is never logged or returned.
import type { Config } from "../../config.ts";
import type { Fetcher } from "../fetch/index.ts";

export interface CitedSentence {
  text: string;
  signal_ids: number[];
}

export interface EvidenceSignal {
  id: number;
  title: string;
  competitor?: string;
  severity?: string;
}

export type LlmConfig = NonNullable<Config["llm"]>;

export type RephraseOutcome =
  | { ok: true; sentences: CitedSentence[]; writer: string }
  | { ok: false; reason: string };

/** How long the endpoint has to answer (headers and body). */
export const LLM_TIMEOUT_MS = 10_000;
/** Signal titles sent as evidence at most (the ones the sentences name first). */
export const LLM_EVIDENCE_SIGNALS = 40;

const MIN_SENTENCES = 2;
const MAX_SENTENCES = 4;
const MAX_SENTENCE_CHARS = 600;

/** The numbers a text states, digits only ("$1,200.50" → "1200.50"; "+20%" → "20"). */
export function numbersIn(text: string): string[] {
  return (text.match(/\d+(?:[.,]\d+)*/g) ?? []).map((n) => n.replace(/,(?=\d{3}\b)/g, ""));
}

const SYSTEM = [
  "You rephrase the TL;DR of a competitive-intelligence digest so it reads well.",
  "Only rephrase: add no fact, number, name or claim that the given sentences and evidence do not state.",
  "Return 2 to 4 sentences (1 when you are given one). Each sentence must cite, in signal_ids, the ids of the signals it rests on,",
  "chosen only among the ids the given sentences cite, and never write an id in its text.",
  "Keep every number exactly as the evidence writes it.",
  'Answer with JSON only: {"sentences":[{"text":"...","signal_ids":[1]}]}',
].join(" ");

/** Checks the model's answer against the deterministic sentences and the evidence; the reason when it fails. */
export function checkSentences(
  answer: unknown,
  original: CitedSentence[],
  evidence: EvidenceSignal[],
): { ok: true; sentences: CitedSentence[] } | { ok: false; reason: string } {
  const list = (answer as { sentences?: unknown } | null)?.sentences;
  if (!Array.isArray(list)) return { ok: false, reason: "the answer has no sentences array" };
  // A TL;DR of one move may stay one sentence; a longer one is not squeezed into one.
  const min = Math.min(MIN_SENTENCES, Math.max(1, original.length));
  if (list.length < min || list.length > MAX_SENTENCES)
    return { ok: false, reason: `the answer has ${list.length} sentences, not ${min} to ${MAX_SENTENCES}` };
  const allowedIds = new Set(original.flatMap((s) => s.signal_ids));
  const titles = new Map(evidence.map((e) => [e.id, e.title]));
  const stated = new Set(original.flatMap((s) => numbersIn(s.text)));
  const out: CitedSentence[] = [];
  for (const [i, raw] of list.entries()) {
    const item = raw as { text?: unknown; signal_ids?: unknown };
    const text = typeof item?.text === "string" ? item.text.replace(/\s+/g, " ").trim() : "";
    if (!text || text.length > MAX_SENTENCE_CHARS)
      return { ok: false, reason: `sentence ${i + 1} has no text or is too long` };
    if (/\bsignals?\s+#?\d/i.test(text))
      return { ok: false, reason: `sentence ${i + 1} names a signal by its id` };
    const ids = item.signal_ids;
    if (!Array.isArray(ids) || ids.length === 0 || !ids.every((id) => Number.isInteger(id)))
      return { ok: false, reason: `sentence ${i + 1} cites no signal` };
    const unknown = ids.find((id) => !allowedIds.has(id));
    if (unknown !== undefined)
      return {
        ok: false,
        reason: `sentence ${i + 1} cites signal ${unknown}, which the digest's sentences do not`,
      };
    const allowed = new Set(stated);
    for (const id of ids) for (const n of numbersIn(titles.get(id) ?? "")) allowed.add(n);
    const extra = numbersIn(text).find((n) => !allowed.has(n));
    if (extra !== undefined)
      return { ok: false, reason: `sentence ${i + 1} states ${extra}, which its evidence does not` };
    out.push({ text, signal_ids: [...new Set(ids as number[])] });
  }
  return { ok: true, sentences: out };
}

/** The JSON object in a chat completion's content (a ```json fence around it is tolerated). */
function parseContent(body: string): unknown {
  const content = (JSON.parse(body) as { choices?: { message?: { content?: unknown } }[] }).choices?.[0]
    ?.message?.content;
  if (typeof content !== "string") throw new Error("no message content");
  const fenced = content.trim().match(/^```(?:json)?\s*([\s\S]*?)\s*```$/);
  return JSON.parse(fenced ? fenced[1] : content);
}

/**
 * Asks the model to rephrase `sentences` (each with the signals it cites), given the evidence; the checked
 * sentences, or the reason the deterministic ones stay. Never throws.
 */
export async function rephraseSentences(
  fetcher: Fetcher,
  llm: LlmConfig,
  sentences: CitedSentence[],
  signals: EvidenceSignal[],
  opts: { timeoutMs?: number } = {},
): Promise<RephraseOutcome> {
  const ids = new Set(sentences.flatMap((s) => s.signal_ids));
  if (ids.size === 0) return { ok: false, reason: "the sentences cite no signal" };
  const named = new Set(sentences.filter((s) => s.signal_ids.length === 1).flatMap((s) => s.signal_ids));
  const evidence = [
    ...signals.filter((s) => named.has(s.id)),
    ...signals.filter((s) => ids.has(s.id) && !named.has(s.id)),
  ].slice(0, LLM_EVIDENCE_SIGNALS);
  const timeoutMs = opts.timeoutMs ?? LLM_TIMEOUT_MS;
  const user = JSON.stringify({
    sentences,
    evidence: evidence.map((e) => ({
      signal_id: e.id,
      title: e.title,
      ...(e.competitor ? { competitor: e.competitor } : {}),
      ...(e.severity ? { severity: e.severity } : {}),
    })),
  });
  const request = fetcher.fetch({
    url: `${llm.baseUrl}/chat/completions`,
    method: "POST",
    headers: {
      accept: "application/json",
      "content-type": "application/json",
      authorization: `Bearer ${llm.apiKey}`,
    },
    body: JSON.stringify({
      model: llm.model,
      temperature: 0,
      response_format: { type: "json_object" },
      messages: [
        { role: "system", content: SYSTEM },
        { role: "user", content: user },
      ],
    }),
    robots: false,
    timeoutMs,
    maxBytes: 1024 * 1024,
  });
  // The fetcher bounds each hop; this bounds the whole call (a host gate's pause included).
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), timeoutMs + 1000);
  });
  const res = await Promise.race([request, late]).finally(() => clearTimeout(timer));
  if (res === "late") return { ok: false, reason: `no answer within ${timeoutMs / 1000} seconds` };
  if (!res.ok)
    return {
      ok: false,
      reason: `the endpoint failed: ${res.error}${res.status ? ` (HTTP ${res.status})` : ""}`,
    };
  let answer: unknown;
  try {
    answer = parseContent(res.text);
  } catch {
    return { ok: false, reason: "the answer is not the JSON asked for" };
  }
  const checked = checkSentences(answer, sentences, evidence);
  if (!checked.ok) return checked;
  return { ok: true, sentences: checked.sentences, writer: `llm:${llm.model}` };
}
