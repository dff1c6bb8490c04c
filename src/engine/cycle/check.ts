// Checking one source now, by its kind (its module in sources/kinds/): a conditional GET (a job board through its
// provider's API), a page as a visitor sees it (rendered when it is an application shell), the same bytes as
// last time skipped, a page extracted in the Worker pool and any other kind parsed, then the comparison with the
// source's last snapshot and history and the classification of what changed (snapshots/observe.ts): a page's in
// the Worker beside its extraction, another kind's here.
import type { Services } from "../../services.ts";
import type { SignalDraft } from "../classify/types.ts";
import { type Originals, serialise, snapshotHash, withOriginals } from "../compare/normalise.ts";
import { keepOriginals, originalsOf, quoted } from "../compare/originals.ts";
import type { Snapshot, SnapshotKind } from "../compare/types.ts";
import type { Fetcher, FetchResult } from "../fetch/index.ts";
import { tenantRenderer, visibleHtml } from "../render/index.ts";
import type { PageRead } from "../research/pageRead.ts";
import { snapshotStoreFor } from "../snapshots/index.ts";
import { compareWithHistory } from "../snapshots/observe.ts";
import { type PreparedSnapshot, prepareSnapshot, type SourceState } from "../snapshots/store.ts";
import type { Job } from "../sources/jobBoards.ts";
import { classifyAsOf, sourceKind } from "../sources/kinds/index.ts";
import { snapshotPool } from "../workers/extract.ts";
import type { CompetitorRow, Source } from "./types.ts";

const HTML = /html|xhtml/i;

export type Outcome =
  | {
      status: "not_modified" | "unchanged";
      source: Source;
      key: string;
      etag?: string;
      lastModified?: string;
      bodyHash?: string;
      /** Whether this check read the page in the browser (absent: a 304, as last time). */
      rendered?: boolean;
    }
  | {
      status: "changed";
      source: Source;
      key: string;
      snapshotKind: SnapshotKind;
      /** The new snapshot as the store keeps it. */
      prepared: PreparedSnapshot;
      /** What it changed, classified (none when nothing the rules read did). */
      drafts: SignalDraft[];
      /** A job board's roles in its own words, a feed's items' dates: read off the new snapshot. */
      listed?: { jobs?: Job[]; itemDates?: string[] };
      /** What the kind's parse read beside the snapshot, for the dossier. */
      read?: Record<string, unknown>;
      /** What the store keeps of the answer (not its body: a competitor's outcomes wait for each other). */
      fetched: Pick<Extract<FetchResult, { ok: true }>, "etag" | "lastModified" | "status" | "finalUrl"> & {
        /** A page's response headers (what its technologies are read from, beside its HTML). */
        headers?: Record<string, string>;
      };
      bodyHash: string;
      rendered: boolean;
    }
  | {
      /** A first snapshot, written to the store when it was read: nothing compares it, so the competitor's
       * other checks need not hold it until they are recorded (a first cycle holds ten pages' worth per
       * competitor otherwise). */
      status: "baseline";
      source: Source;
      key: string;
      snapshotKind: SnapshotKind;
      bodyHash: string;
      rendered: boolean;
    }
  | {
      status: "failed";
      source: Source;
      key: string;
      snapshotKind: SnapshotKind;
      error: string;
      http?: number;
    };

/** Whether an answer's bytes are the UTF-8 of a text whose hash (base 36) is `hash`, without decoding them: a
 * text's hash is its UTF-8's, and a UTF-8 body without a byte-order mark decodes to exactly the text whose UTF-8
 * it is. */
function sameUtf8(raw: { bytes: Uint8Array; encoding: string } | undefined, hash: string): boolean {
  if (raw?.encoding !== "utf-8") return false;
  const b = raw.bytes;
  if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return false;
  return Bun.hash(b).toString(36) === hash;
}

/** The snapshot store's key of a source. */
export const keyOf = (kind: SnapshotKind, url: string) => `${kind}:${url}`;

function errorText(r: { error: string; status?: number }): string {
  return r.error === "http_error" && r.status ? `http_error ${r.status}` : r.error;
}

export interface CheckOptions {
  /** The source whose history a job board the careers page moved to continues. */
  follows?: Source;
  /** Sees a body that was read (not one found the same bytes as last time, which names nothing new, as a 304
   * does not): `text()` gives it. */
  onBody?: (text: () => string) => void;
  /** A changed page is also read for the dossier (with its technologies when `tech`), from the parse its
   * snapshot was made from: `onRead` gets the read when the check's outcome is `changed`. */
  read?: { tech: boolean; onRead: (read: PageRead) => void };
}

/** Reads one source now: its snapshot, compared with what the store holds in `state` (or, for a job board the
 * careers page moved to, with the last snapshot of the board it `follows`). Never throws: a source's fault, or
 * an internal one, is a failed outcome. */
export function checkSource(...args: Parameters<typeof readSource>): Promise<Outcome> {
  const src = args[4];
  return readSource(...args).catch(
    (e): Outcome => ({
      status: "failed",
      source: src,
      key: keyOf(sourceKind(src.kind).snapshot, src.url),
      snapshotKind: sourceKind(src.kind).snapshot,
      error: `internal: ${String((e as Error)?.message ?? e).slice(0, 200)}`,
    }),
  );
}

async function readSource(
  s: Services,
  orgId: number,
  comp: Pick<CompetitorRow, "id" | "name">,
  /** When the competitor's check began: its signals say they were observed then. */
  at: string,
  src: Source,
  state: SourceState | undefined,
  fetcher: Fetcher,
  more: CheckOptions = {},
): Promise<Outcome> {
  const kind = sourceKind(src.kind);
  const snapshotKind = kind.snapshot;
  const key = keyOf(snapshotKind, src.url);
  const fail = (error: string, http?: number): Outcome => ({
    status: "failed",
    source: src,
    key,
    snapshotKind,
    error,
    http,
  });
  // A page read in the browser is fetched whole: its served shell can stay the same while the data its
  // scripts load changes.
  const conditional = state?.latestHash && !src.render && !state.rendered;
  const validators = {
    ...(conditional && state.etag ? { etag: state.etag } : {}),
    ...(conditional && state.lastModified ? { lastModified: state.lastModified } : {}),
  };
  const r = await kind.fetch(fetcher, src.url, validators);
  if (!r.ok) return fail(errorText(r), r.status);
  if (r.notModified)
    return { status: "not_modified", source: src, key, etag: r.etag, lastModified: r.lastModified };
  // The same bytes as last time: unchanged, nothing to extract. body_hash holds "<bytes hash>.<page signature>"
  // once the page's bytes have changed without its snapshot (compare/signature.ts): a page whose bytes changed
  // only where extraction reads nothing has the same signature, and the Worker stops after its tokenizer pass.
  // A rendered page's hash is of the HTML the browser built.
  const [lastBytes, lastSignature] = (state?.bodyHash ?? "").split(".");
  let rendered = false;
  const unchanged = (hashes: string) =>
    ({
      status: "unchanged",
      source: src,
      key,
      etag: r.etag,
      lastModified: r.lastModified,
      bodyHash: hashes,
      rendered,
    }) as const;
  // A source read as served last time that serves the same bytes: not even looked at for a shell again, and,
  // like a 304, seen by no reader (a careers page whose bytes did not change names no board it did not name).
  if (
    conditional &&
    (sameUtf8("raw" in r ? r.raw : undefined, lastBytes) || lastBytes === Bun.hash(r.text).toString(36))
  )
    return unchanged(state.bodyHash ?? lastBytes);
  // What a visitor sees: an application shell (or a page marked render) as the browser builds it; without a
  // browser it is a failed check, never an empty page.
  let text = r.text;
  if (kind.name === "page" && HTML.test(r.contentType)) {
    const v = await visibleHtml(tenantRenderer(s, orgId), r, src.render);
    if (!v.ok) return fail(v.error);
    text = v.html;
    rendered = v.rendered;
  }
  const seen = text;
  more.onBody?.(() => seen);
  let bodyHash = Bun.hash(text).toString(36);
  if (state?.latestHash && lastBytes === bodyHash && state.rendered === rendered)
    return unchanged(state.bodyHash ?? bodyHash);
  let snapshot: Snapshot;
  let hash: string;
  let originals: Originals = [];
  let read: Record<string, unknown> | undefined;
  let serialised: string;
  const fetched = {
    etag: r.etag,
    lastModified: r.lastModified,
    status: r.status,
    finalUrl: r.finalUrl,
  };
  // A first snapshot is stored as soon as it is read: nothing compares it, so the competitor's other checks need
  // not hold it.
  const baseline = async (content: PreparedSnapshot): Promise<Outcome> => {
    await snapshotStoreFor(s).put({
      orgId,
      competitorId: comp.id,
      url: src.url,
      kind: snapshotKind,
      prepared: content,
      observedAt: s.clock(),
      ...fetched,
    });
    return { status: "baseline", source: src, key, snapshotKind, bodyHash, rendered };
  };
  const changed = (
    content: PreparedSnapshot,
    drafts: SignalDraft[],
    listed?: { jobs?: Job[]; itemDates?: string[] },
    parsedRead?: Record<string, unknown>,
  ): Outcome => ({
    status: "changed",
    source: src,
    key,
    snapshotKind,
    prepared: content,
    drafts,
    ...(listed ? { listed } : {}),
    ...(parsedRead ? { read: parsedRead } : {}),
    fetched: { ...fetched, ...("headers" in r && r.headers ? { headers: r.headers } : {}) },
    bodyHash,
    rendered,
  });
  // No stored snapshot, and no history it continues: this one is the source's first.
  const first = !state?.latestHash && !more.follows;
  // A board that moved is compared with the history of the board it follows (its first check is no baseline).
  const historyUrl = state?.latestHash ? src.url : more.follows?.url;
  const history = historyUrl
    ? { orgId, competitorId: comp.id, url: historyUrl, kind: snapshotKind }
    : undefined;
  /** Why the history the Worker asked for could not be read. */
  let historyFailed: unknown;
  const judge = {
    competitor: { id: comp.id, name: comp.name },
    observedAt: at,
    ...classifyAsOf(src.kind, src.url),
  };
  try {
    if (!kind.parse) {
      if (!HTML.test(r.contentType)) return fail("unsupported_content");
      // A page is compared and classified in the Worker that made its snapshot: it asks for the history, as
      // stored, once it finds the page changed.
      const compared = first ? undefined : history;
      const x = await snapshotPool(s.config).run(
        {
          snapshot: true,
          html: text,
          url: r.finalUrl,
          sourceUrl: src.url,
          ...(state?.latestHash && lastSignature ? { signature: lastSignature } : {}),
          ...(state?.latestHash ? { latestHash: state.latestHash } : {}),
          ...(compared ? { compare: judge } : {}),
          ...(more.read && !first
            ? {
                read: {
                  kind: src.kind,
                  tech: more.read.tech,
                  headers: ("headers" in r && r.headers) || {},
                },
              }
            : {}),
          ...(first ? { first } : {}),
        },
        compared &&
          (() =>
            snapshotStoreFor(s)
              .storedHistory(compared)
              .catch((e) => {
                historyFailed = e;
                throw e;
              })),
      );
      if ("whole" in x) throw new Error("the snapshot task gave no comparison");
      if (x.signature) bodyHash = `${bodyHash}.${x.signature}`;
      if ("same" in x) return unchanged(bodyHash);
      if ("first" in x) return await baseline(x.prepared);
      if (x.read) more.read?.onRead(x.read);
      return changed(x.prepared, x.drafts);
    }
    const parse = kind.parse;
    const { result: parsed, originals: o } = withOriginals(() => parse(r, src.url));
    if ("error" in parsed) return fail(parsed.error);
    snapshot = parsed.snapshot;
    read = parsed.read;
    originals = o;
    serialised = serialise(snapshot);
    hash = snapshotHash(serialised);
  } catch (e) {
    // The store's fault, not the page's: an internal failure (checkSource).
    if (historyFailed) throw historyFailed;
    return fail(`unreadable: ${String((e as Error)?.message ?? e).slice(0, 200)}`);
  }
  // What a signal quotes where the snapshot masked the source's words (compare/originals.ts).
  keepOriginals(snapshot, originals);
  const cmp = await compareWithHistory(
    snapshotStoreFor(s),
    history,
    snapshot,
    hash,
    state?.latestHash,
    judge,
  );
  if (cmp.status === "unchanged") return unchanged(bodyHash);
  const prepared = prepareSnapshot(snapshot, serialised, hash);
  if (cmp.status === "baseline") return baseline(prepared);
  return changed(prepared, cmp.drafts, listedOn(snapshotKind, snapshot), read);
}

/** What the dossier reads off a job board's or a feed's new snapshot. */
function listedOn(
  kind: SnapshotKind,
  snapshot: Snapshot,
): { jobs?: Job[]; itemDates?: string[] } | undefined {
  if (kind === "jobs") return { jobs: jobsAsListed(snapshot) };
  if (kind === "feed")
    return { itemDates: (snapshot.items ?? []).flatMap((i) => (i.published ? [i.published] : [])) };
  return undefined;
}

/** A job board's roles in the board's own words (its snapshot masks dates and numbers in them). */
function jobsAsListed(snapshot: Snapshot): Job[] {
  const originals = originalsOf(snapshot);
  const own = (t: string | undefined) => (t === undefined ? undefined : quoted(t, originals));
  return (snapshot.jobs ?? []).map((j) => ({
    title: own(j.title)!,
    ...(j.department ? { department: own(j.department) } : {}),
    ...(j.location ? { location: own(j.location) } : {}),
  }));
}
