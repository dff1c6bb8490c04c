// Writes the digest of one period from the signals first seen in it, as one DigestRecorded event. The same
// period written again replaces its digest (same id, found by slug); it is never duplicated.
import type { Tx } from "../../../events/store.ts";
import { cyclesFinishedIn, digestOfPeriod, listedSignalsIn } from "../../db/queries/digestSignals.ts";
import { appLinks } from "../../db/queries/links.ts";
import {
  type DigestType,
  lastCompletePeriod,
  type Period,
  periodBefore,
} from "../../domain/digestPeriods.ts";
import { decideDigestRecorded } from "../../domain/digests.ts";
import type { Services } from "../../services.ts";
import { fetcherFor } from "../fetch/index.ts";
import { type CitedSentence, rephraseSentences } from "../llm/rephrase.ts";
import { readDigestSignals } from "./signals.ts";
import { writeDigest } from "./writer.ts";

/** A digest lists at most this many signals (the most material; the rest are counted). */
export const DIGEST_SIGNALS = 200;

export interface DigestOutcome {
  type: DigestType;
  slug: string;
  coverage_period_start: string;
  coverage_period_end: string;
  written: boolean;
  id?: number;
  replaced?: boolean;
  signals: number;
  reason?: string;
  /** "deterministic", or "llm:<model>" when the language-model writer's TL;DR passed its checks. */
  writer?: string;
  /** Why the language-model writer's TL;DR was not used (when one is configured). */
  llm_fallback?: string;
}

type Exec = Pick<Tx, "execute">;

async function periodSignals(tx: Exec, orgId: number, p: Period) {
  const [from, to] = [p.start.toISOString(), p.end.toISOString()];
  const signals = await readDigestSignals(tx, { orgId, from, to }, DIGEST_SIGNALS + 1);
  let omitted = 0;
  if (signals.length > DIGEST_SIGNALS) {
    omitted = (await listedSignalsIn(tx, orgId, from, to)) - DIGEST_SIGNALS;
  }
  return { signals: signals.slice(0, DIGEST_SIGNALS), omitted };
}

async function cyclesIn(tx: Exec, orgId: number, p: Period): Promise<number> {
  return cyclesFinishedIn(tx, orgId, p.start.toISOString(), p.end.toISOString());
}

/**
 * The digest of `type` for the period in which the instant just before `end` falls (default: the last complete
 * period). `onlyIfAbsent` (the cycle's step) leaves a period that already has its digest alone.
 */
export async function generateDigest(
  s: Services,
  orgId: number,
  type: DigestType,
  opts: { end?: Date; onlyIfAbsent?: boolean } = {},
): Promise<DigestOutcome> {
  const rephrased = s.config.llm ? await rephraseFirst(s, orgId, type, opts) : undefined;
  const { result } = await s.store.execute<DigestOutcome>(async (w) => {
    const p = opts.end ? periodBefore(type, opts.end) : lastCompletePeriod(type, w.now);
    const head = {
      type,
      slug: p.slug,
      coverage_period_start: p.start.toISOString(),
      coverage_period_end: p.end.toISOString(),
    };
    const existing = await digestOfPeriod(w.tx, orgId, p.slug);
    if (existing && opts.onlyIfAbsent)
      return { events: [], result: { ...head, written: false, signals: 0, reason: "already written" } };
    const { signals, omitted } = await periodSignals(w.tx, orgId, p);
    const input = {
      period: p,
      signals,
      omitted,
      cycles: type === "weekly_tldr" && signals.length === 0 ? await cyclesIn(w.tx, orgId, p) : 0,
      competitorUrl: (id: number) => appLinks.competitor("", id),
      now: w.now,
    };
    let written = writeDigest(input);
    let writer = "deterministic";
    if (written && rephrased?.ok && rephrased.from === written.record.tldr) {
      written = writeDigest(input, rephrased.sentences);
      writer = rephrased.writer;
    }
    const fallback =
      rephrased && !rephrased.ok
        ? { llm_fallback: rephrased.reason }
        : rephrased?.ok && writer === "deterministic"
          ? { llm_fallback: "the period's signals changed while the model wrote" }
          : {};
    if (!written)
      return {
        events: [],
        result: { ...head, written: false, signals: 0, reason: "no signals in the period" },
      };
    const id = existing ? existing.id : await w.nextId();
    const key = existing ? existing.key : `engine-${p.slug}`;
    return {
      events: [
        decideDigestRecorded(orgId, {
          id,
          key,
          signal_ids: written.signal_ids,
          record: written.record,
          writer,
        }),
      ],
      result: {
        ...head,
        written: true,
        id,
        replaced: Boolean(existing),
        signals: written.signal_ids.length,
        writer,
        ...fallback,
      },
    };
  });
  return result;
}

type Rephrased =
  | { ok: true; from: string; sentences: CitedSentence[]; writer: string }
  | { ok: false; reason: string };

/**
 * The language-model writer's TL;DR, asked for before the write (a model's answer may take seconds; the store's
 * writes do not wait for it): the period's deterministic digest is written from a read of the database, its
 * sentences rephrased and checked. The write uses the answer only if its own deterministic TL;DR is the same.
 */
async function rephraseFirst(
  s: Services,
  orgId: number,
  type: DigestType,
  opts: { end?: Date; onlyIfAbsent?: boolean },
): Promise<Rephrased | undefined> {
  const llm = s.config.llm;
  if (!llm) return undefined;
  const db = s.database;
  const now = s.clock();
  const p = opts.end ? periodBefore(type, opts.end) : lastCompletePeriod(type, now);
  if (opts.onlyIfAbsent) {
    if (await digestOfPeriod(db, orgId, p.slug)) return undefined;
  }
  const { signals, omitted } = await periodSignals(db, orgId, p);
  if (signals.length === 0) return undefined;
  const draft = writeDigest({
    period: p,
    signals,
    omitted,
    cycles: 0,
    competitorUrl: (id) => appLinks.competitor("", id),
    now,
  });
  if (!draft?.record.tldr) return undefined;
  const out = await rephraseSentences(fetcherFor(s.config, "llm"), llm, draft.sentences, signals);
  if (!out.ok) return out;
  return { ok: true, from: draft.record.tldr, sentences: out.sentences, writer: out.writer };
}
