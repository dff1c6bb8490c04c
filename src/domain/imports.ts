// `rivals import`: NDJSON records (docs/import.md) and exported event lines, each line one command
// (`importLine`): the line is parsed, its loader reads what it names (its org, the record stored under its key,
// the records it refers to) and takes its id, and a pure decider records it or not.
import {
  type EventMetadata,
  type EventType,
  isEventType,
  type NewEvent,
  type StreamType,
} from "../../events/catalog.ts";
import { type Actor, type Command, type Loading, runCommand, type Writing } from "../../events/command.ts";
import { eventAtVersion, raiseIdCounter } from "../../events/lines.ts";
import type { EventStore } from "../../events/store.ts";
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
import { findKeyed, findOrg, type OrgState, orgNamed } from "./state.ts";
import { InvalidInput, isObject, parseTimestamp, str } from "./validate.ts";
import { loadSettings } from "./workspace.ts";
import type { IcpProfile } from "./workspaceTypes.ts";

type Obj = Record<string, unknown>;
export interface ImportReport {
  lines: number;
  applied: number;
  unchanged: number;
  errors: { line: number; error: string }[];
}

/** How one kind of line is imported: parsed (pure), the state it is decided on loaded in the writer (ids
 * taken there), decided (pure); `write`, when given, runs in the same transaction once the line is recorded. */
export interface ImportKind<P, S> {
  parse(rec: Obj): P;
  load(w: Loading, line: P): Promise<S>;
  decide(state: S, line: P, now: Date): NewEvent[];
  write?(w: Writing, line: P): Promise<void>;
}

/** Kinds that other modules (public briefs, guides, …) register for their own lines. */
type AnyKind = ImportKind<any, any>;
const extraKinds = new Map<string, AnyKind>();
export function registerImportKind<P, S>(kind: string, handler: ImportKind<P, S>): void {
  extraKinds.set(kind, handler);
}

/** An actively tracked competitor whose line brings no `workspace.icp_overlap` of its own gets the overlap
 * the workspace's ideal customer profile gives it now, exactly as update_icp would write it: re-importing a
 * competitor keeps its overlap current instead of wiping it, a new one gets it at once, and importing the
 * same line again still changes nothing. */
function needsOverlap(r: CompetitorRecord): boolean {
  return r.tracking === "active" && r.workspace?.icp_overlap === undefined;
}

function withCurrentOverlap(icp: IcpProfile | undefined, r: CompetitorRecord): CompetitorRecord {
  if (!icp || !needsOverlap(r)) return r;
  const overlap = computeIcpOverlap(icp, r);
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

/** A reference to another record of the org by its key, checked for shape. */
interface Ref {
  key: string;
  field: string;
}

function refOf(table: "competitors" | "signals", key: unknown, field: string): Ref {
  if (typeof key !== "string" || !key)
    throw new InvalidInput(`${field} must name a ${table.slice(0, -1)} key`, field);
  return { key, field };
}

/** The id a reference names, as its loader found it, or a refusal. */
function refId(table: "competitors" | "signals", ref: Ref, id: number | undefined): number {
  if (id === undefined)
    throw new InvalidInput(
      `${ref.field} ${JSON.stringify(ref.key)} is not a known ${table.slice(0, -1)} key`,
      ref.field,
    );
  return id;
}

async function loadRef(w: Loading, table: "competitors" | "signals", orgId: number, ref: Ref) {
  return (await findKeyed(w.tx, table, orgId, ref.key))?.id;
}

/** A record stored under a key, and the id the line's events take (the stored one's, or a new one). */
interface Keyed {
  found: { id: number; state: unknown } | undefined;
  id: number;
}

async function loadKeyed(
  w: Loading,
  table: "competitors" | "signals" | "digests" | "battlecards",
  orgId: number,
  key: string,
): Promise<Keyed> {
  const found = await findKeyed<unknown>(w.tx, table, orgId, key);
  return { found, id: found?.id ?? (await w.nextId()) };
}

const stream = (orgId: number, type: StreamType, id: number) => ({
  orgId,
  streamType: type,
  streamId: String(id),
});

const orgKind: ImportKind<{ slug: string; rec: Obj }, { existing: OrgState | undefined; id: number }> = {
  parse: (rec) => ({ slug: str(rec, "slug", { required: true })!, rec }),
  load: async (w, line) => {
    const existing = await findOrg(w.tx, line.slug);
    return { existing, id: existing ? 0 : await w.nextId() };
  },
  decide: ({ existing, id }, { slug, rec }, now) => {
    if (existing) return decideSetPlan(existing, str(rec, "plan") ?? existing.plan);
    return decideCreateOrg(
      {
        slug,
        name: str(rec, "name", { required: true })!,
        plan: str(rec, "plan") ?? "trial",
        website_url: str(rec, "website_url"),
      },
      undefined,
      id,
      now,
    );
  },
};

/** A line of a workspace's records: its org by slug and its key. */
interface Owned {
  org: string;
  key: string;
}
const owned = (rec: Obj): Owned => ({ org: str(rec, "org", { required: true })!, key: keyOf(rec) });

/** The org a line names, and (when it is there) what the line's kind loads of it. */
type InOrg<T> = { org: OrgState | undefined; of?: T };

function inOrg<P extends Owned, T>(
  load: (w: Loading, line: P, org: OrgState) => Promise<T>,
): (w: Loading, line: P) => Promise<InOrg<T>> {
  return async (w, line) => {
    const org = await findOrg(w.tx, line.org);
    return org ? { org, of: await load(w, line, org) } : { org };
  };
}

const competitorKind: ImportKind<
  Owned & { record: CompetitorRecord },
  InOrg<Keyed & { icp?: IcpProfile; tracked: number }>
> = {
  parse: (rec) => ({ ...owned(rec), record: parseCompetitor(body(rec, ["kind", "org", "key"])) }),
  load: inOrg(async (w, line, org) => {
    const icp = needsOverlap(line.record) ? (await loadSettings(w.tx, org.id)).icp : undefined;
    const keyed = await loadKeyed(w, "competitors", org.id, line.key);
    // Only a new competitor takes a place on the list.
    const tracked = keyed.found ? 0 : await trackedCompetitorCount(w.tx, org.id);
    return { ...(icp ? { icp } : {}), ...keyed, tracked };
  }),
  decide: (st, line) => {
    const org = orgNamed(st.org, line.org);
    const { found, id, icp, tracked } = st.of!;
    const record = withCurrentOverlap(icp, line.record);
    if (found && same(found.state, record)) return [];
    if (!found && tracked >= LIST.trackedCompetitors)
      throw new InvalidInput(
        `a workspace tracks at most ${LIST.trackedCompetitors} competitors; remove one before adding another`,
        "key",
      );
    return [
      {
        type: "CompetitorRecorded",
        ...stream(org.id, "competitor", id),
        data: { id, key: line.key, record },
      },
    ];
  },
};

const signalKind: ImportKind<
  Owned & { record: ReturnType<typeof parseSignal>; competitor: Ref | null },
  InOrg<Keyed & { competitorId?: number }>
> = {
  parse: (rec) => ({
    ...owned(rec),
    record: parseSignal(body(rec, ["kind", "org", "key", "competitor"])),
    competitor:
      rec.competitor === undefined || rec.competitor === null
        ? null
        : refOf("competitors", rec.competitor, "competitor"),
  }),
  load: inOrg(async (w, line, org) => ({
    ...(line.competitor ? { competitorId: await loadRef(w, "competitors", org.id, line.competitor) } : {}),
    ...(await loadKeyed(w, "signals", org.id, line.key)),
  })),
  decide: (st, line) => {
    const org = orgNamed(st.org, line.org);
    const { found, id, competitorId } = st.of!;
    const cid = line.competitor ? refId("competitors", line.competitor, competitorId) : null;
    if (found && same(found.state, { competitor_id: cid, ...line.record })) return [];
    return [
      {
        type: "SignalRecorded",
        ...stream(org.id, "signal", id),
        data: { id, key: line.key, competitor_id: cid, record: line.record },
      },
    ];
  },
};

const digestKind: ImportKind<
  Owned & { record: ReturnType<typeof parseDigest>; signals: Ref[] },
  InOrg<Keyed & { signalIds: (number | undefined)[]; slugTaken: boolean }>
> = {
  parse: (rec) => {
    const record = parseDigest(body(rec, ["kind", "org", "key", "signals"]));
    const refs = rec.signals ?? [];
    if (!Array.isArray(refs)) throw new InvalidInput("signals must be an array of signal keys", "signals");
    return {
      ...owned(rec),
      record,
      signals: refs.map((k, i) => refOf("signals", k, `signals[${i}]`)),
    };
  },
  load: inOrg(async (w, line, org) => {
    const signalIds: (number | undefined)[] = [];
    for (const ref of line.signals) signalIds.push(await loadRef(w, "signals", org.id, ref));
    const slugTaken = line.record.slug
      ? Boolean(await digestKeyBySlug(w.tx, org.id, line.record.slug, line.key))
      : false;
    return { signalIds, slugTaken, ...(await loadKeyed(w, "digests", org.id, line.key)) };
  }),
  decide: (st, line) => {
    const org = orgNamed(st.org, line.org);
    const { found, id, signalIds: loaded, slugTaken } = st.of!;
    const signalIds = line.signals.map((ref, i) => refId("signals", ref, loaded[i]));
    if (slugTaken)
      throw new InvalidInput(`slug ${JSON.stringify(line.record.slug)} is used by another digest`, "slug");
    if (found && same(found.state, { ...line.record, signal_ids: signalIds })) return [];
    return [
      {
        type: "DigestRecorded",
        ...stream(org.id, "digest", id),
        data: { id, key: line.key, signal_ids: signalIds, record: line.record },
      },
    ];
  },
};

const battlecardKind: ImportKind<
  Owned & { record: ReturnType<typeof parseBattlecard>; competitor: Ref },
  InOrg<Keyed & { competitorId: number | undefined; otherKey: boolean }>
> = {
  parse: (rec) => ({
    ...owned(rec),
    record: parseBattlecard(body(rec, ["kind", "org", "key", "competitor"])),
    competitor: refOf("competitors", rec.competitor, "competitor"),
  }),
  load: inOrg(async (w, line, org) => {
    const competitorId = await loadRef(w, "competitors", org.id, line.competitor);
    const otherKey =
      competitorId !== undefined && Boolean(await otherBattlecardKey(w.tx, org.id, competitorId, line.key));
    return { competitorId, otherKey, ...(await loadKeyed(w, "battlecards", org.id, line.key)) };
  }),
  decide: (st, line) => {
    const org = orgNamed(st.org, line.org);
    const { found, id, competitorId, otherKey } = st.of!;
    const cid = refId("competitors", line.competitor, competitorId);
    if (otherKey)
      throw new InvalidInput("that competitor already has a battlecard under another key", "competitor");
    if (found && same(found.state, { competitor_id: cid, ...line.record })) return [];
    return [
      {
        type: "BattlecardRecorded",
        ...stream(org.id, "battlecard", id),
        data: { id, key: line.key, competitor_id: cid, record: line.record },
      },
    ];
  },
};

/** An exported event line is appended as it was, ids included, so an export replays to the same API. */
const rawEventKind: ImportKind<Obj, { type: string; data: unknown } | undefined> = {
  parse: (rec) => {
    if (!isEventType(rec.type))
      throw new InvalidInput(`unknown event type ${JSON.stringify(rec.type)}`, "type");
    if (!isObject(rec.data)) throw new InvalidInput("data must be an object", "data");
    return rec;
  },
  // Replaying a line that is already in the log (the same export imported twice) changes nothing.
  load: (w, rec) =>
    Number.isInteger(rec.stream_version)
      ? eventAtVersion(w.tx, String(rec.stream_type), String(rec.stream_id), rec.stream_version as number)
      : Promise.resolve(undefined),
  decide: (row, rec) => {
    if (row) {
      if (row.type === rec.type && same(row.data, rec.data)) return [];
      throw new InvalidInput(
        `${rec.stream_type} ${rec.stream_id} already has a different event at version ${rec.stream_version}`,
        "stream_version",
      );
    }
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
  },
  // Ids come from one counter: a new cycle or run after the import must not reuse one the log already names
  // (deliveries are keyed by cycle).
  write: async (w, rec) => {
    const data = rec.data as Obj;
    const ids = [data.id, data.cycle_id, data.run_id, rec.org_id, Number(rec.stream_id)].filter(
      (x): x is number => Number.isInteger(x),
    );
    if (ids.length) await raiseIdCounter(w.tx, Math.max(...ids));
  },
};

const KINDS: Record<string, AnyKind> = {
  org: orgKind,
  competitor: competitorKind,
  signal: signalKind,
  digest: digestKind,
  battlecard: battlecardKind,
};

/** A line parsed, with the kind that imports it. */
export interface ImportLine {
  kind: AnyKind;
  line: unknown;
}

/** Parses a line's record (no database): its kind, and its fields checked. */
export function parseImportLine(rec: Obj): ImportLine {
  if (rec.kind === undefined) return { kind: rawEventKind, line: rawEventKind.parse(rec) };
  const kind = typeof rec.kind === "string" ? (KINDS[rec.kind] ?? extraKinds.get(rec.kind)) : undefined;
  if (!kind) throw new InvalidInput(`unknown kind ${JSON.stringify(rec.kind)}`, "kind");
  return { kind, line: kind.parse(rec) };
}

/** One line of an import; its result says whether the line was recorded (false: already as stored). */
export const importLine: Command<ImportLine, unknown, boolean, Actor> = {
  load: (w, l) => l.kind.load(w, l.line),
  decide: (state, l, { now }) => {
    const events = l.kind.decide(state, l.line, now);
    return { events, result: events.length > 0 };
  },
  write: async (w, _state, l, recorded) => {
    if (recorded && l.kind.write) await l.kind.write(w, l.line);
    return recorded;
  },
};

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
  const refused = (n: number, e: unknown): void => {
    report.errors.push({
      line: n,
      error: e instanceof InvalidInput || e instanceof DomainError ? e.message : describe(e),
    });
  };
  for (const [i, raw] of lines.entries()) {
    const line = raw.trim();
    if (!line) continue;
    report.lines++;
    const n = i + 1;
    let parsed: ImportLine;
    try {
      parsed = parseImportLine(parseLine(line));
    } catch (e) {
      refused(n, e);
      continue;
    }
    pending.push(
      runCommand(store, importLine, parsed, { caller: {}, metadata: { source } })
        .then((recorded) => {
          if (recorded) report.applied++;
          else report.unchanged++;
        })
        .catch((e) => refused(n, e)),
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
