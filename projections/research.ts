// Research runs (research_runs), the sources they found (research_sources), their effect on the competitor's
// dossier (profile fields, urls, reads, freshness), and positioning drafts on the workspace profile.
import type { StoredEvent } from "../events/catalog.ts";
import { EVENT_POSITION_SQL, type Tx } from "../events/store.ts";
import { applyProfileChanges } from "../src/domain/companyProfile.ts";
import { pricingRead } from "../src/domain/pricingRead.ts";
import type { CompetitorRecord } from "../src/domain/records.ts";
import { RESEARCH_READ_DOMAINS } from "../src/domain/researchTypes.ts";
import { writeCompetitor } from "./competitors.ts";

type Freshness = NonNullable<CompetitorRecord["freshness"]> & Record<string, unknown>;

async function updateCompetitor(
  tx: Tx,
  id: number,
  change: (r: CompetitorRecord) => CompetitorRecord,
): Promise<void> {
  const r = await tx.execute({ sql: "SELECT org_id, key, state FROM competitors WHERE id = ?", args: [id] });
  const row = r.rows[0];
  if (!row) return;
  const record = JSON.parse(String(row.state)) as CompetitorRecord;
  await writeCompetitor(tx, Number(row.org_id), id, String(row.key), change(record));
}

/** The research part of `freshness`: state and times of the newest run, error of a failed one. */
function withResearch(r: CompetitorRecord, fields: Record<string, string | undefined>): CompetitorRecord {
  const f: Freshness = { ...(r.freshness ?? {}) };
  for (const k of ["research_state", "research_started_at", "research_finished_at", "research_error"])
    delete f[k];
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) f[k] = v;
  return { ...r, freshness: f };
}

async function endRun(tx: Tx, runId: number, state: string, at: string, error?: string) {
  await tx.execute({
    sql: "UPDATE research_runs SET state = ?, ended_at = ?, error = ? WHERE id = ?",
    args: [state, at, error ?? null, runId],
  });
}

export async function projectResearch(e: StoredEvent, tx: Tx): Promise<void> {
  switch (e.type) {
    case "ResearchStarted": {
      const d = e.data;
      await tx.execute({
        sql: `INSERT INTO research_runs (id, org_id, competitor_id, batch, trigger, uses_allowance, first_brief, state,
                started_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'running', ?)`,
        args: [
          d.run_id,
          e.orgId,
          d.competitor_id,
          d.batch,
          d.trigger,
          d.uses_allowance ? 1 : 0,
          d.first_brief ? 1 : 0,
          d.started_at,
        ],
      });
      await updateCompetitor(tx, d.competitor_id, (r) => {
        const prev = r.freshness as Freshness | undefined;
        return withResearch(r, {
          research_state: "running",
          research_started_at: d.started_at,
          // The previous run's end stays visible while a refresh runs.
          research_finished_at: prev?.research_finished_at as string | undefined,
        });
      });
      break;
    }
    case "ResearchFinished": {
      const d = e.data;
      await endRun(tx, d.run_id, "finished", d.finished_at);
      await tx.execute({
        sql: "DELETE FROM research_sources WHERE competitor_id = ?",
        args: [d.competitor_id],
      });
      for (const s of d.dossier.sources)
        await tx.execute({
          sql: `INSERT INTO research_sources (org_id, competitor_id, url, kind, discovered_at) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (competitor_id, url) DO NOTHING`,
          args: [e.orgId, d.competitor_id, s.url, s.kind, d.finished_at],
        });
      await updateCompetitor(tx, d.competitor_id, (r) => {
        const reads: Record<string, unknown> = { ...(r.reads ?? {}) };
        for (const k of RESEARCH_READ_DOMAINS) delete reads[k];
        Object.assign(reads, d.dossier.reads);
        // Logs written before plans had named price fields hold them in the older shape.
        if (reads.pricing !== undefined) reads.pricing = pricingRead(reads.pricing);
        const started = (r.freshness as Freshness | undefined)?.research_started_at as string | undefined;
        const next: CompetitorRecord = {
          ...r,
          ...d.dossier.profile,
          urls: { ...(r.urls ?? {}), ...d.dossier.urls },
          reads,
          freshness: { ...(r.freshness ?? {}), state_updated_at: d.finished_at },
        };
        if (d.dossier.profile_evidence)
          next.internal = { ...(r.internal ?? {}), profile_evidence: d.dossier.profile_evidence };
        // What each page named is research's now; a dossier from before it was kept has none.
        const { read_sources: _old, ...internal } = next.internal ?? {};
        next.internal = d.dossier.read_sources
          ? { ...internal, read_sources: d.dossier.read_sources }
          : internal;
        if (Object.keys(next.internal).length === 0) delete next.internal;
        if (Object.keys(next.urls ?? {}).length === 0) delete next.urls;
        if (Object.keys(reads).length === 0) delete next.reads;
        return withResearch(next, {
          research_state: "finished",
          research_started_at: started,
          research_finished_at: d.finished_at,
        });
      });
      break;
    }
    case "ResearchFailed": {
      const d = e.data;
      await endRun(tx, d.run_id, "failed", d.failed_at, d.reason);
      await updateCompetitor(tx, d.competitor_id, (r) => {
        const prev = r.freshness as Freshness | undefined;
        return withResearch(r, {
          research_state: "failed",
          research_started_at: prev?.research_started_at as string | undefined,
          research_finished_at: d.failed_at,
          research_error: d.reason,
        });
      });
      break;
    }
    case "PositioningDrafted": {
      const orgId = e.orgId!;
      await tx.execute({
        sql: "INSERT INTO workspace_settings (id) VALUES (?) ON CONFLICT (id) DO NOTHING",
        args: [orgId],
      });
      const r = await tx.execute({
        sql: "SELECT profile FROM workspace_settings WHERE id = ?",
        args: [orgId],
      });
      const profile = applyProfileChanges(JSON.parse(String(r.rows[0]?.profile ?? "{}")), e.data.changes);
      await tx.execute({
        sql: "UPDATE workspace_settings SET profile = ?, profile_updated_at = ? WHERE id = ?",
        args: [JSON.stringify(profile), e.data.drafted_at, orgId],
      });
      await tx.execute({
        sql: `INSERT INTO positioning_drafts (id, org_id, drafted_at) VALUES (${EVENT_POSITION_SQL}, ?, ?)`,
        args: [e.position, orgId, e.data.drafted_at],
      });
      break;
    }
  }
}
