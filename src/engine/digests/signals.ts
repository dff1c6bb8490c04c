// Signals as the digests and deliveries read them: the stored record in the one vocabulary, what the engine
// recorded of the change (its subject, its values before and after), the competitor's watch and a price move's
// percent — what the materiality order (domain/materiality.ts) and "what to watch" need.
import type { Tx } from "../../../events/store.ts";
import { type DigestSignalSelection, digestSignalRows } from "../../db/queries/digestSignals.ts";
import { appLinks } from "../../db/queries/links.ts";
import type { SignalRecord } from "../../domain/records.ts";
import { inVocabulary } from "../../domain/vocabulary.ts";
import type { DigestSignal } from "./types.ts";

type Exec = Pick<Tx, "execute">;

/** The first amount a recorded price states ("$3,166.67/month, billed yearly" → 3166.67). */
function amountOf(v: unknown): number | undefined {
  const m = typeof v === "string" ? /\d[\d,]*(?:\.\d+)?/.exec(v) : null;
  return m ? Number(m[0].replace(/,/g, "")) : undefined;
}

/** A price move's percent: from the prices the engine recorded, else as the title or summary states it. */
function percentOf(type: string | undefined, before: unknown, after: unknown, words: string) {
  if (type !== "price_increase" && type !== "price_decrease") return undefined;
  const b = amountOf(before);
  const a = amountOf(after);
  if (b !== undefined && a !== undefined && b > 0) return ((a - b) / b) * 100;
  const stated = /\(([+-−]?\d+(?:\.\d+)?)\s?%\)/.exec(words);
  return stated ? Number(stated[1].replace("−", "-")) : undefined;
}

const text = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : undefined);

/** The signals `which` selects, newest first, at most `limit`. */
export async function readDigestSignals(
  tx: Exec,
  which: DigestSignalSelection,
  limit: number,
): Promise<DigestSignal[]> {
  return (await digestSignalRows(tx, which, limit)).map((row): DigestSignal => {
    const rec = JSON.parse(String(row.state)) as SignalRecord;
    const id = Number(row.id);
    const words = `${rec.title} ${rec.summary ?? ""}`;
    const { category, type } = inVocabulary(rec.category, rec.type, [rec.title, rec.summary]);
    const percent = percentOf(type, row.value_before, row.value_after, words);
    const subject = text(row.subject);
    const before = text(row.value_before);
    const after = text(row.value_after);
    return {
      id,
      competitor_id: row.competitor_id === null ? null : Number(row.competitor_id),
      competitor: row.competitor_name ? String(row.competitor_name) : "Other companies",
      // A removed competitor's moves count as those of a company not on the watchlist.
      watch: row.watch && row.tracking !== "removed" ? String(row.watch) : null,
      title: rec.title,
      ...(rec.summary ? { summary: rec.summary } : {}),
      ...(rec.severity ? { severity: rec.severity } : {}),
      ...(category ? { category } : {}),
      ...(type ? { type } : {}),
      ...(rec.confidence !== undefined ? { confidence: rec.confidence } : {}),
      ...(percent !== undefined && Number.isFinite(percent) ? { percent } : {}),
      ...(subject ? { subject } : {}),
      ...(before ? { before } : {}),
      ...(after ? { after } : {}),
      first_seen_at: String(row.first_seen_at),
      url: appLinks.signal("", id),
      ...(rec.evidence?.[0]?.source_url ? { source_url: rec.evidence[0].source_url } : {}),
    };
  });
}

/** The signals of `ids` (at most 500) in one workspace. */
export function digestSignalsOf(tx: Exec, orgId: number, ids: number[]): Promise<DigestSignal[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return readDigestSignals(tx, { orgId, ids: ids.slice(0, 500) }, 500);
}
