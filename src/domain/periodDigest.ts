// Writing one period's digest (src/engine/digests/generate.ts runs it): the period's signals read in the
// writer's transaction, the digest written from them by the engine's writer (passed in, pure) and recorded as
// one DigestRecorded event; the same period written again replaces its digest under the same id.
import type { Command } from "../../events/command.ts";
import type { Tx } from "../../events/store.ts";
import { digestOfPeriod } from "../db/queries/digestSignals.ts";
import { appLinks } from "../db/queries/links.ts";
import { type DigestType, lastCompletePeriod, type Period, periodBefore } from "./digestPeriods.ts";
import { decideDigestRecorded } from "./digests.ts";
import type { DigestRecord } from "./records.ts";

type Exec = Pick<Tx, "execute">;

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

/** What a period's digest is written from: its signals (a bounded number), how many more there are, and the
 * monitoring cycles that finished in it. */
export interface PeriodContent<S> {
  signals: S[];
  omitted: number;
  cycles: number;
}

export interface DigestWriterInput<S> extends PeriodContent<S> {
  period: Period;
  /** A competitor's page in the app, relative to the installation. */
  competitorUrl: (id: number) => string;
  now: Date;
}

/** The engine's part: reading a period's content, and its writer (none to write: null); `tldr`, the
 * language-model writer's checked sentences (`T`), replaces the deterministic TL;DR. */
export interface DigestWriting<S, T> {
  read(tx: Exec, orgId: number, period: Period, type: DigestType): Promise<PeriodContent<S>>;
  write(input: DigestWriterInput<S>, tldr?: T): { record: DigestRecord; signal_ids: number[] } | null;
}

/** The language-model writer's TL;DR, asked for before the write from a read of the database: used only when
 * the write's own deterministic TL;DR is the one it rephrased (`from`). */
export type Rephrased<T> =
  | { ok: true; from: string; sentences: T; writer: string }
  | { ok: false; reason: string };

export interface PeriodDigestInput<T> {
  type: DigestType;
  /** The period in which the instant just before `end` falls (default: the last complete period). */
  end?: Date;
  /** Leave a period that already has its digest alone. */
  onlyIfAbsent?: boolean;
  rephrased?: Rephrased<T>;
}

export interface PeriodDigestState<S> {
  period: Period;
  existing?: { id: number; key: string };
  /** Read unless the period's digest is left alone. */
  content?: PeriodContent<S>;
  /** The digest's id: the existing one's, or one taken for a new digest there is something to write for. */
  id?: number;
}

const writerInput = <S>(period: Period, content: PeriodContent<S>, now: Date): DigestWriterInput<S> => ({
  period,
  ...content,
  competitorUrl: (id: number) => appLinks.competitor("", id),
  now,
});

/** The digest of a period, written by the engine's `writing`. */
export function periodDigest<S, T>(
  writing: DigestWriting<S, T>,
): Command<PeriodDigestInput<T>, PeriodDigestState<S>, DigestOutcome> {
  return {
    load: async (w, input, c) => {
      const period = input.end ? periodBefore(input.type, input.end) : lastCompletePeriod(input.type, w.now);
      const existing = await digestOfPeriod(w.tx, c.orgId, period.slug);
      if (existing && input.onlyIfAbsent) return { period, existing };
      const content = await writing.read(w.tx, c.orgId, period, input.type);
      const id = existing
        ? existing.id
        : writing.write(writerInput(period, content, w.now))
          ? await w.nextId()
          : undefined;
      return { period, ...(existing ? { existing } : {}), content, ...(id !== undefined ? { id } : {}) };
    },
    decide: (st, input, { caller, now }) => {
      const p = st.period;
      const head = {
        type: input.type,
        slug: p.slug,
        coverage_period_start: p.start.toISOString(),
        coverage_period_end: p.end.toISOString(),
      };
      if (!st.content)
        return { events: [], result: { ...head, written: false, signals: 0, reason: "already written" } };
      const rephrased = input.rephrased;
      const inputs = writerInput(p, st.content, now);
      let written = writing.write(inputs);
      let writer = "deterministic";
      if (written && rephrased?.ok && rephrased.from === written.record.tldr) {
        written = writing.write(inputs, rephrased.sentences);
        writer = rephrased.writer;
      }
      const fallback =
        rephrased && !rephrased.ok
          ? { llm_fallback: rephrased.reason }
          : rephrased?.ok && writer === "deterministic"
            ? { llm_fallback: "the period's signals changed while the model wrote" }
            : {};
      if (!written || st.id === undefined)
        return {
          events: [],
          result: { ...head, written: false, signals: 0, reason: "no signals in the period" },
        };
      const id = st.id;
      const key = st.existing ? st.existing.key : `engine-${p.slug}`;
      return {
        events: [
          decideDigestRecorded(caller.orgId, {
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
          replaced: Boolean(st.existing),
          signals: written.signal_ids.length,
          writer,
          ...fallback,
        },
      };
    },
  };
}
