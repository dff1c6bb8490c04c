// Writes the digest of one period from the signals first seen in it, as one DigestRecorded event. The same
// period written again replaces its digest (same id, found by slug); it is never duplicated.
import { runCommand } from "../../../events/command.ts";
import type { Tx } from "../../../events/store.ts";
import { cyclesFinishedIn, digestOfPeriod, listedSignalsIn } from "../../db/queries/digestSignals.ts";
import { appLinks } from "../../db/queries/links.ts";
import {
  type DigestType,
  lastCompletePeriod,
  type Period,
  periodBefore,
} from "../../domain/digestPeriods.ts";
import {
  type DigestOutcome,
  type Rephrased as DigestRephrased,
  periodDigest,
} from "../../domain/periodDigest.ts";
import type { Services } from "../../services.ts";
import { fetcherFor } from "../fetch/index.ts";
import { type CitedSentence, rephraseSentences } from "../llm/rephrase.ts";
import { readDigestSignals } from "./signals.ts";
import type { DigestSignal } from "./types.ts";
import { writeDigest } from "./writer.ts";

/** A digest lists at most this many signals (the most material; the rest are counted). */
export const DIGEST_SIGNALS = 200;

export type { DigestOutcome };

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

/** What the write reads of a period (the quiet week's cycles only when it has no signals), and the writer. */
const command = periodDigest<DigestSignal, CitedSentence[]>({
  read: async (tx, orgId, p, type) => {
    const { signals, omitted } = await periodSignals(tx, orgId, p);
    const cycles = type === "weekly_tldr" && signals.length === 0 ? await cyclesIn(tx, orgId, p) : 0;
    return { signals, omitted, cycles };
  },
  write: writeDigest,
});

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
  const { end, onlyIfAbsent } = opts;
  return runCommand(
    s.store,
    command,
    {
      type,
      ...(end ? { end } : {}),
      ...(onlyIfAbsent ? { onlyIfAbsent } : {}),
      ...(rephrased ? { rephrased } : {}),
    },
    { caller: { orgId, actor: "engine" }, metadata: { source: "engine" } },
  );
}

type Rephrased = DigestRephrased<CitedSentence[]>;

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
