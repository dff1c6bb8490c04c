// generate_battlecard: the rules around writing a battlecard (plan or free first week, first-brief lock,
// core competitor with finished research, daily cap), then the engine composes it and one
// BattlecardGenerated event stores it (projections/battlecards.ts and projections/engagement.ts).

import type { NewEvent } from "../../events/catalog.ts";
import type { Tx, WriteContext } from "../../events/store.ts";
import { NOTES_PAGE, NOTES_TOTAL_SQL } from "../db/queries/engagement.ts";
import type { BattlecardSignal, ComposeBattlecard } from "./battlecardTypes.ts";
import { DomainError } from "./errors.ts";
import { cheapestPaidPlan, LOWEST_PAID, PLANS, planOf } from "./plans.ts";
import type { BattlecardRecord, CompetitorRecord, SignalRecord } from "./records.ts";
import { prune } from "./validate.ts";
import { type Caller, type CompetitorRow, loadOrg, requireCoreCompetitor } from "./watchlist.ts";
import { loadSettings, utcDay } from "./workspace.ts";

type Exec = Pick<Tx, "execute">;
const DAY = 86_400_000;
export const FREE_WEEK_DAYS = 7;
/** How many of the competitor's newest open signals a battlecard reads. */
export const SIGNALS_READ = 20;

/** Research is finished when the dossier holds at least one research read (`reads`) or research has
 * stamped it (`freshness.state_updated_at`). A name and website alone (a fresh add_competitor) is not. */
export function researchFinished(r: CompetitorRecord): boolean {
  return Boolean(r.freshness?.state_updated_at) || Object.keys(r.reads ?? {}).length > 0;
}

export async function battlecardsGeneratedToday(tx: Exec, orgId: number, now: Date): Promise<number> {
  const { start, end } = utcDay(now);
  const r = await tx.execute({
    sql: `SELECT COUNT(*) AS n FROM battlecard_generations
          WHERE org_id = ? AND generated_at >= ? AND generated_at < ?`,
    args: [orgId, start, end],
  });
  return Number(r.rows[0].n);
}

export interface GenerateResult {
  battlecard_id: number;
  competitor_id: number;
  rewritten: boolean;
  generations_today: { used: number; limit: number; plan: string };
}

export async function decideGenerateBattlecard(
  w: WriteContext,
  c: Caller,
  cmd: { competitor_id: number },
  composeBattlecard: ComposeBattlecard,
): Promise<{ events: NewEvent[]; result: GenerateResult }> {
  const org = await loadOrg(w.tx, c.orgId);
  const plan = planOf(org.plan);
  const freeWeekEnds = Date.parse(org.created_at) + FREE_WEEK_DAYS * DAY;
  if (!plan.paid && w.now.getTime() >= freeWeekEnds)
    throw new DomainError(
      "plan_required",
      `generate_battlecard needs a paid plan (${PLANS[LOWEST_PAID].label} or higher) after the workspace's free first week, which ended ${new Date(freeWeekEnds).toISOString()}; this workspace is on ${plan.label}.`,
      { plan: plan.name, plan_needed: LOWEST_PAID, free_week_ended_at: new Date(freeWeekEnds).toISOString() },
    );
  const settings = await loadSettings(w.tx, c.orgId);
  if (settings.firstBrief === "running")
    throw new DomainError(
      "locked",
      "Battlecards are locked while the workspace's first brief runs; try again when the first brief has finished.",
    );
  const comp = await requireCoreCompetitor(w.tx, c.orgId, cmd.competitor_id, "generate_battlecard");
  if (!researchFinished(comp.record))
    throw new DomainError(
      "research_required",
      `${comp.name} has no finished research yet (no research reads in its dossier); run research_competitor first, then generate the battlecard.`,
      { competitor_id: comp.id },
    );
  const used = await battlecardsGeneratedToday(w.tx, c.orgId, w.now);
  const cap = plan.dailyCaps.battlecards;
  if (used >= cap) {
    const up = cheapestPaidPlan((p) => p.dailyCaps.battlecards > cap);
    throw new DomainError(
      "limit_reached",
      `The ${plan.label} plan allows ${cap} battlecard generations per day (UTC) and ${used} ran today; try again after ${utcDay(w.now).end}${
        up ? ` or upgrade (${up.label} allows ${up.dailyCaps.battlecards})` : ""
      }.`,
      {
        limit: "daily_battlecards",
        allowed: cap,
        used,
        plan: plan.name,
        resets_at: utcDay(w.now).end,
        ...(up ? { plan_needed: up.name } : {}),
      },
    );
  }

  const card = await composeCardEvent(
    w,
    c.orgId,
    comp,
    settings.profile,
    { trigger: "tool" },
    composeBattlecard,
  );
  return {
    events: [card.event],
    result: {
      battlecard_id: card.id,
      competitor_id: comp.id,
      rewritten: card.rewritten,
      generations_today: { used: used + 1, limit: cap, plan: plan.name },
    },
  };
}

/** Who wrote a card: `generate_battlecard` (counts toward the daily cap) or a monitoring cycle that recorded a
 * new medium or high signal about the competitor (does not). */
export type CardTrigger = { trigger: "tool" } | { trigger: "cycle"; cycle_id: number };

/** Composes the competitor's card from its dossier, newest signals and the team's newest notes, as the one
 * BattlecardGenerated event that stores it (same id when it replaces an earlier card). */
export async function composeCardEvent(
  w: WriteContext,
  orgId: number,
  comp: CompetitorRow,
  own: Awaited<ReturnType<typeof loadSettings>>["profile"],
  by: CardTrigger,
  composeBattlecard: ComposeBattlecard,
): Promise<{ event: NewEvent; id: number; rewritten: boolean }> {
  const c = { orgId };
  const sig = await w.tx.execute({
    sql: `SELECT id, severity, first_seen_at, state FROM signals
          WHERE org_id = ? AND competitor_id = ? AND listed = 1
          ORDER BY first_seen_at DESC, id DESC LIMIT ?`,
    args: [c.orgId, comp.id, SIGNALS_READ],
  });
  const signals: BattlecardSignal[] = sig.rows.map((row) => {
    const r = JSON.parse(String(row.state)) as SignalRecord;
    return {
      id: Number(row.id),
      title: r.title,
      summary: r.summary,
      category: r.category,
      type: r.type,
      severity: r.severity,
      first_seen_at: r.first_seen_at,
      evidence: r.evidence ?? [],
    };
  });
  // The newest notes only (the card, and every result that carries it, stays bounded however many the team
  // wrote), shown oldest first; the total is one primary-key read of note_counts.
  const [notes, notesTotal] = await Promise.all([
    w.tx.execute({
      sql: `SELECT id, body, created_at FROM notes
            WHERE subject_type = 'battlecard' AND subject_id = ? AND org_id = ? ORDER BY id DESC LIMIT ?`,
      args: [comp.id, c.orgId, NOTES_PAGE],
    }),
    w.tx.execute({ sql: NOTES_TOTAL_SQL, args: ["battlecard", comp.id, c.orgId] }),
  ]);
  const composed = composeBattlecard({
    competitorId: comp.id,
    competitor: comp.record,
    signals,
    notes: notes.rows
      .map((n) => ({
        id: Number(n.id),
        body: String(n.body),
        created_at: String(n.created_at),
      }))
      .reverse(),
    notesTotal: notesTotal.rows[0] ? Number(notesTotal.rows[0].n) : 0,
    own: own,
  });

  const existing = (
    await w.tx.execute({
      sql: "SELECT id, key FROM battlecards WHERE org_id = ? AND competitor_id = ?",
      args: [c.orgId, comp.id],
    })
  ).rows[0];
  const id = existing ? Number(existing.id) : await w.nextId();
  const key = existing ? String(existing.key) : `generated-${comp.id}`;
  const record: BattlecardRecord = {
    status: "generated",
    generated_at: w.now.toISOString(),
    sections: prune(composed.sections) as BattlecardRecord["sections"],
    evidence: prune(composed.evidence) as BattlecardRecord["evidence"],
  };
  return {
    event: {
      type: "BattlecardGenerated",
      orgId,
      streamType: "battlecard",
      streamId: String(id),
      data: { id, key, competitor_id: comp.id, record, ...(by.trigger === "cycle" ? by : {}) },
    },
    id,
    rewritten: Boolean(existing),
  };
}
