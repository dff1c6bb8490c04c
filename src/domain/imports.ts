// `rivals import`: NDJSON records (docs/import.md) and exported event lines, each line one command.
import {
  type EventMetadata,
  type EventType,
  isEventType,
  type NewEvent,
  type StreamType,
} from "../../events/catalog.ts";
import { eventAtVersion, raiseIdCounter } from "../../events/lines.ts";
import type { EventStore, WriteContext } from "../../events/store.ts";
import { digestKeyBySlug, otherBattlecardKey } from "../db/queries/keyed.ts";
import { DomainError } from "./errors.ts";
import { computeIcpOverlap } from "./icpOverlap.ts";
import { LIST } from "./limits.ts";
import { decideCreateOrg, decideSetPlan } from "./orgs.ts";
import { trackedCompetitorCount } from "./planUsage.ts";
import {
  type CompetitorRecord,
  parseBattlecard,
  parseCompetitor,
  parseDigest,
  parseSignal,
} from "./records.ts";
import { findKeyed, findOrg, requireOrg } from "./state.ts";
import { InvalidInput, isObject, parseTimestamp, str } from "./validate.ts";
import { loadSettings } from "./workspace.ts";

type Obj = Record<string, unknown>;
export interface ImportReport {
  lines: number;
  applied: number;
  unchanged: number;
  errors: { line: number; error: string }[];
}

/** Extra import steps (load, then decide) that other modules (public briefs, guides, …) register for their own kinds. */
export type KindHandler = (w: WriteContext, rec: Obj) => Promise<NewEvent[]>;
const extraKinds = new Map<string, KindHandler>();
export function registerImportKind(kind: string, handler: KindHandler): void {
  extraKinds.set(kind, handler);
}

/** An actively tracked competitor whose line brings no `workspace.icp_overlap` of its own gets the overlap
 * the workspace's ideal customer profile gives it now, exactly as update_icp would write it: re-importing a
 * competitor keeps its overlap current instead of wiping it, a new one gets it at once, and importing the
 * same line again still changes nothing. */
async function withCurrentOverlap(
  w: WriteContext,
  orgId: number,
  r: CompetitorRecord,
): Promise<CompetitorRecord> {
  if (r.tracking !== "active" || r.workspace?.icp_overlap !== undefined) return r;
  const overlap = computeIcpOverlap((await loadSettings(w.tx, orgId)).icp, r);
  return overlap ? { ...r, workspace: { ...(r.workspace ?? {}), icp_overlap: overlap } } : r;
}

function keyOf(rec: Obj): string {
  const key = str(rec, "key", { required: true, max: 200 })!;
  return key;
}

function body(rec: Obj, drop: string[]): Obj {
  return Object.fromEntries(Object.entries(rec).filter(([k]) => !drop.includes(k)));
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

async function refId(
  w: WriteContext,
  table: "competitors" | "signals",
  orgId: number,
  key: unknown,
  field: string,
) {
  if (typeof key !== "string" || !key)
    throw new InvalidInput(`${field} must name a ${table.slice(0, -1)} key`, field);
  const found = await findKeyed(w.tx, table, orgId, key);
  if (!found)
    throw new InvalidInput(`${field} ${JSON.stringify(key)} is not a known ${table.slice(0, -1)} key`, field);
  return found.id;
}

async function importRecord(w: WriteContext, rec: Obj): Promise<NewEvent[]> {
  const kind = rec.kind;
  if (kind === "org") {
    const slug = str(rec, "slug", { required: true })!;
    const existing = await findOrg(w.tx, slug);
    if (existing) return decideSetPlan(existing, str(rec, "plan") ?? existing.plan);
    return decideCreateOrg(
      {
        slug,
        name: str(rec, "name", { required: true })!,
        plan: str(rec, "plan") ?? "trial",
        website_url: str(rec, "website_url"),
      },
      undefined,
      await w.nextId(),
      w.now,
    );
  }
  const extra = typeof kind === "string" ? extraKinds.get(kind) : undefined;
  if (extra) return extra(w, rec);
  if (!["competitor", "signal", "digest", "battlecard"].includes(String(kind)))
    throw new InvalidInput(`unknown kind ${JSON.stringify(kind)}`, "kind");
  const org = await requireOrg(w.tx, str(rec, "org", { required: true })!);
  const key = keyOf(rec);
  const stream = (type: StreamType, id: number) => ({
    orgId: org.id,
    streamType: type,
    streamId: String(id),
  });
  switch (kind) {
    case "competitor": {
      const record = await withCurrentOverlap(w, org.id, parseCompetitor(body(rec, ["kind", "org", "key"])));
      const found = await findKeyed(w.tx, "competitors", org.id, key);
      if (found && same(found.state, record)) return [];
      if (!found && (await trackedCompetitorCount(w.tx, org.id)) >= LIST.trackedCompetitors)
        throw new InvalidInput(
          `a workspace tracks at most ${LIST.trackedCompetitors} competitors; remove one before adding another`,
          "key",
        );
      const id = found?.id ?? (await w.nextId());
      return [{ type: "CompetitorRecorded", ...stream("competitor", id), data: { id, key, record } }];
    }
    case "signal": {
      const record = parseSignal(body(rec, ["kind", "org", "key", "competitor"]));
      const cid =
        rec.competitor === undefined || rec.competitor === null
          ? null
          : await refId(w, "competitors", org.id, rec.competitor, "competitor");
      const found = await findKeyed(w.tx, "signals", org.id, key);
      if (found && same(found.state, { competitor_id: cid, ...record })) return [];
      const id = found?.id ?? (await w.nextId());
      return [
        { type: "SignalRecorded", ...stream("signal", id), data: { id, key, competitor_id: cid, record } },
      ];
    }
    case "digest": {
      const record = parseDigest(body(rec, ["kind", "org", "key", "signals"]));
      const refs = rec.signals ?? [];
      if (!Array.isArray(refs)) throw new InvalidInput("signals must be an array of signal keys", "signals");
      const signalIds: number[] = [];
      for (const [i, k] of refs.entries())
        signalIds.push(await refId(w, "signals", org.id, k, `signals[${i}]`));
      if (record.slug) {
        if (await digestKeyBySlug(w.tx, org.id, record.slug, key))
          throw new InvalidInput(`slug ${JSON.stringify(record.slug)} is used by another digest`, "slug");
      }
      const found = await findKeyed(w.tx, "digests", org.id, key);
      if (found && same(found.state, { ...record, signal_ids: signalIds })) return [];
      const id = found?.id ?? (await w.nextId());
      return [
        { type: "DigestRecorded", ...stream("digest", id), data: { id, key, signal_ids: signalIds, record } },
      ];
    }
    default: {
      const record = parseBattlecard(body(rec, ["kind", "org", "key", "competitor"]));
      const cid = await refId(w, "competitors", org.id, rec.competitor, "competitor");
      if (await otherBattlecardKey(w.tx, org.id, cid, key))
        throw new InvalidInput("that competitor already has a battlecard under another key", "competitor");
      const found = await findKeyed(w.tx, "battlecards", org.id, key);
      if (found && same(found.state, { competitor_id: cid, ...record })) return [];
      const id = found?.id ?? (await w.nextId());
      return [
        {
          type: "BattlecardRecorded",
          ...stream("battlecard", id),
          data: { id, key, competitor_id: cid, record },
        },
      ];
    }
  }
}

/** An exported event line is appended as it was, ids included, so an export replays to the same API. */
async function importRawEvent(w: WriteContext, rec: Obj): Promise<NewEvent[]> {
  if (!isEventType(rec.type))
    throw new InvalidInput(`unknown event type ${JSON.stringify(rec.type)}`, "type");
  if (!isObject(rec.data)) throw new InvalidInput("data must be an object", "data");
  // Replaying a line that is already in the log (the same export imported twice) changes nothing.
  if (Number.isInteger(rec.stream_version)) {
    const row = await eventAtVersion(
      w.tx,
      String(rec.stream_type),
      String(rec.stream_id),
      rec.stream_version as number,
    );
    if (row) {
      if (row.type === rec.type && same(row.data, rec.data)) return [];
      throw new InvalidInput(
        `${rec.stream_type} ${rec.stream_id} already has a different event at version ${rec.stream_version}`,
        "stream_version",
      );
    }
  }
  // Ids come from one counter: a new cycle or run after the import must not reuse one the log already names
  // (deliveries are keyed by cycle).
  const ids = [rec.data.id, rec.data.cycle_id, rec.data.run_id, rec.org_id, Number(rec.stream_id)].filter(
    (x): x is number => Number.isInteger(x),
  );
  if (ids.length) await raiseIdCounter(w.tx, Math.max(...ids));
  return [
    {
      type: rec.type as EventType,
      orgId: rec.org_id === null || rec.org_id === undefined ? null : Number(rec.org_id),
      streamType: String(rec.stream_type) as StreamType,
      streamId: String(rec.stream_id),
      data: rec.data,
      ...originOf(rec),
    } as NewEvent,
  ];
}

/** An exported line's `recorded_at` and `metadata`, kept on replay (a backup restores as it was); what a
 * line leaves out is this import's own. */
function originOf(rec: Obj): { origin?: NonNullable<NewEvent["origin"]> } {
  const origin: NonNullable<NewEvent["origin"]> = {};
  if (rec.recorded_at !== undefined) {
    const at = typeof rec.recorded_at === "string" ? parseTimestamp(rec.recorded_at) : null;
    if (at === null) throw new InvalidInput("recorded_at must be an ISO 8601 time", "recorded_at");
    origin.recordedAt = at;
  }
  if (rec.metadata !== undefined) {
    if (!isObject(rec.metadata)) throw new InvalidInput("metadata must be an object", "metadata");
    origin.metadata = rec.metadata as EventMetadata;
  }
  return Object.keys(origin).length ? { origin } : {};
}

export function parseLine(text: string): Obj {
  let rec: unknown;
  try {
    rec = JSON.parse(text);
  } catch {
    throw new InvalidInput("not valid JSON");
  }
  if (!isObject(rec)) throw new InvalidInput("a line must be a JSON object");
  if (rec.kind === undefined && rec.type === undefined)
    throw new InvalidInput("a line needs a kind (or an exported event type)");
  return rec;
}

/** Imports NDJSON text. Lines are queued together so the writer commits them in batches; each line is
 * its own savepoint, so a bad line stores nothing and the others still land. */
export async function importNdjson(
  store: EventStore,
  text: string,
  source = "import",
): Promise<ImportReport> {
  const report: ImportReport = { lines: 0, applied: 0, unchanged: 0, errors: [] };
  const pending: Promise<void>[] = [];
  const lines = text.split("\n");
  for (const [i, raw] of lines.entries()) {
    const line = raw.trim();
    if (!line) continue;
    report.lines++;
    const n = i + 1;
    let rec: Obj;
    try {
      rec = parseLine(line);
    } catch (e) {
      report.errors.push({ line: n, error: (e as Error).message });
      continue;
    }
    const handler = rec.kind === undefined ? importRawEvent : importRecord;
    pending.push(
      store
        .execute(async (w) => ({ events: await handler(w, rec), result: null }), { source })
        .then(({ events }) => {
          if (events.length) report.applied++;
          else report.unchanged++;
        })
        .catch((e) => {
          report.errors.push({
            line: n,
            error: e instanceof InvalidInput || e instanceof DomainError ? e.message : describe(e),
          });
        }),
    );
    if (pending.length >= 1000) await Promise.all(pending.splice(0));
  }
  await Promise.all(pending);
  report.errors.sort((a, b) => a.line - b.line);
  return report;
}

function describe(e: unknown): string {
  const m = e instanceof Error ? e.message : String(e);
  return m.includes("UNIQUE constraint") ? "conflicts with a record already stored" : m;
}
