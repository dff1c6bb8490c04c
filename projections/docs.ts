// Renders the stored API objects (without the parts that depend on the base URL) from records, each fitted
// to the bounds its OpenAPI schema states (src/contract/fit.ts).
import { fit } from "../src/contract/fit.ts";
import { Battlecard, CompetitorDetail, CompetitorSummary, Digest, Signal } from "../src/contract/schemas.ts";
import type {
  BattlecardRecord,
  CompetitorRecord,
  DigestRecord,
  SignalRecord,
} from "../src/domain/records.ts";
import { compact, prune } from "../src/domain/validate.ts";

export function competitorSummaryDoc(id: number, r: CompetitorRecord) {
  return fit(
    CompetitorSummary,
    compact([
      ["id", id],
      ["name", r.name],
      ["website_url", r.website_url],
      ["category", r.category],
      ["watch", r.watch],
      ["tracked_since", r.tracked_since],
    ]),
  );
}

export function competitorDetailDoc(id: number, r: CompetitorRecord) {
  return fit(
    CompetitorDetail,
    compact([
      ["id", id],
      ["name", r.name],
      ["description", r.description],
      ["website_url", r.website_url],
      ["category", r.category],
      ["industry", r.industry],
      ["company_type", r.company_type],
      ["business_model", r.business_model],
      ["company_size", r.company_size],
      ["founding_year", r.founding_year],
      ["headquarters", r.headquarters],
      ["target_customer", r.target_customer],
      ["ownership", r.ownership],
      ["urls", r.urls],
      ["watch", r.watch],
      ["priority", r.priority],
      ["tracked_since", r.tracked_since],
      ["workspace", r.workspace],
      ["reads", r.reads],
      ["freshness", r.freshness],
    ]),
  );
}

/** The detail document's `freshness`, as competitorDetailDoc renders it (replaced alone by a cycle's check). */
export function competitorFreshnessDoc(f: NonNullable<CompetitorRecord["freshness"]>) {
  return fit(CompetitorDetail.properties.freshness, prune(f));
}

export function signalDoc(
  id: number,
  competitorId: number | null,
  competitorName: string | null,
  r: SignalRecord,
) {
  const doc = compact([
    ["id", id],
    ["competitor_id", competitorId],
    ["competitor_name", competitorName],
    ["title", r.title],
    ["summary", r.summary],
    ["category", r.category],
    ["type", r.type],
    ["severity", r.severity],
    ["status", r.status],
    ["first_seen_at", r.first_seen_at],
    ["last_seen_at", r.last_seen_at],
    ["confidence", r.confidence],
    ["topics", r.topics],
  ]);
  doc.evidence = r.evidence ?? [];
  return fit(Signal, doc);
}

export function digestDoc(id: number, r: DigestRecord, signalIds: number[], full: boolean) {
  return fit(
    Digest,
    compact([
      ["id", id],
      ["slug", r.slug],
      ["type", r.type],
      ["status", r.status],
      ["title", r.title],
      ["headline", r.headline],
      ["tldr", r.tldr],
      ["what_to_watch", r.what_to_watch],
      ["coverage_period_start", r.coverage_period_start],
      ["coverage_period_end", r.coverage_period_end],
      ["generated_at", r.generated_at],
      ["items", full ? r.items : undefined],
      ["signal_ids", signalIds],
      ["markdown", full ? r.markdown : undefined],
    ]),
  );
}

export function battlecardDoc(
  id: number,
  competitorId: number,
  competitorName: string | null,
  r: BattlecardRecord,
) {
  return fit(
    Battlecard,
    compact([
      ["id", id],
      ["competitor_id", competitorId],
      ["competitor_name", competitorName],
      ["status", r.status],
      ["generated_at", r.generated_at],
      ["sections", r.sections],
      ["evidence", r.evidence],
    ]),
  );
}
