// Writing the engine's signals (docs/engine/classify.md): drafts from
// the classifier become SignalDetected / SignalEvidenceAdded / SignalClosed events through the single writer,
// projected into the same `signals` read table imported signals use (REST, MCP, app pages, search).
import { runCommand } from "../../../events/command.ts";
import {
  type AnnouncedRounds,
  expireSignals,
  type RecordDraftsResult,
  recordSignalDrafts,
} from "../../domain/engineSignals.ts";
import type { SourceObservation, StatedRound } from "../../domain/observation.ts";
import type { Services } from "../../services.ts";
import type { SignalDraft } from "../classify/types.ts";
import { fundingRounds } from "../research/statements.ts";

export type RecordResult = RecordDraftsResult;

const iso = (d: Date | string) => (typeof d === "string" ? new Date(d).toISOString() : d.toISOString());
const ENGINE = { actor: "engine", source: "engine" };

/** The names a sentence about the company itself uses: its name, the name's first word ("Globex" of "Globex
 * Insights") and its domain's label ("globex" of globex.example). */
function namesOf(name: string, website: unknown): string[] {
  const first = name.split(/\s+/)[0] ?? "";
  let label = "";
  try {
    label = new URL(String(website)).hostname.replace(/^www\./, "").split(".")[0] ?? "";
  } catch {}
  return [...new Set([name, first, label].filter((n) => n.length >= 4))];
}

/** The rounds the funding drafts' evidence announces, read sentence by sentence as research reads a page
 * (a sentence about the company itself that names a round and a raise). */
const announcedRounds: AnnouncedRounds = (drafts, name, website) => roundsIn(drafts, namesOf(name, website));

function roundsIn(drafts: SignalDraft[], names: string[]): StatedRound[] {
  const texts = drafts
    .filter((d) => d.type === "funding")
    .flatMap((d) =>
      d.evidence.flatMap((e) => (e.text && e.source_url ? [{ url: e.source_url, text: e.text }] : [])),
    );
  return texts.length ? fundingRounds(texts, names) : [];
}

const recordDrafts_ = recordSignalDrafts(announcedRounds);

/** Records one competitor's classified drafts of a cycle: new signals, evidence appended to open ones (same
 * dedup key or the same named launch), and signals closed by a revert or a superseding change; in the same
 * command, what its changed sources say now on its dossier (`observed`, domain/observation.ts). */
export async function recordDrafts(
  services: Services,
  orgId: number,
  competitorId: number,
  drafts: SignalDraft[],
  now: Date | string,
  observed: SourceObservation[] = [],
): Promise<RecordResult> {
  if (drafts.length === 0 && observed.length === 0) return { created: [], updated: [], closed: [] };
  return runCommand(
    services.store,
    recordDrafts_,
    { competitorId, drafts, observed, now: iso(now) },
    { caller: { orgId, actor: ENGINE.actor }, metadata: ENGINE },
  );
}

/** Closes the workspace's open engine signals that have not been seen for RIVALS_SIGNAL_TTL_DAYS. */
export async function closeExpiredSignals(
  services: Services,
  orgId: number,
  now: Date | string,
): Promise<{ closed: number[] }> {
  const at = iso(now);
  const cutoff = new Date(Date.parse(at) - services.config.signalTtlDays * 86_400_000).toISOString();
  return runCommand(
    services.store,
    expireSignals,
    { cutoff, now: at },
    { caller: { orgId, actor: ENGINE.actor }, metadata: ENGINE },
  );
}
