// Checking one source now, by its kind (its module in sources/kinds/): a conditional GET (a job board through its
// provider's API), a page as a visitor sees it (rendered when it is an application shell), the same bytes as
// last time skipped, a page extracted in the Worker pool and any other kind parsed, then the comparison with the
// source's last snapshot and history (snapshots/observe.ts).
import type { Services } from "../../services.ts";
import type { SignalDraft } from "../classify/types.ts";
import { type Originals, serialise, snapshotHash, withOriginals } from "../compare/normalise.ts";
import { keepOriginals } from "../compare/originals.ts";
import type { Change, Snapshot, SnapshotKind } from "../compare/types.ts";
import type { Fetcher, FetchResult } from "../fetch/index.ts";
import { tenantRenderer, visibleHtml } from "../render/index.ts";
import type { PageRead } from "../research/pageRead.ts";
import { snapshotStoreFor } from "../snapshots/index.ts";
import { compareWithHistory } from "../snapshots/observe.ts";
import { type PreparedSnapshot, prepareSnapshot, type SourceState } from "../snapshots/store.ts";
import type { Job } from "../sources/jobBoards.ts";
import { sourceKind } from "../sources/kinds/index.ts";
import { snapshotPool } from "../workers/extract.ts";
import type { Source } from "./types.ts";

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
      /** The new snapshot, until it is classified (results.ts `classifyOutcome`); then `prepared` is what is
       * left of it to store, and `listed` what the dossier reads off it. */
      snapshot?: Snapshot;
      prepared: PreparedSnapshot;
      previous?: Snapshot;
      changes: Change[];
      /** The changes classified, once they and the previous snapshot are let go. */
      drafts?: SignalDraft[];
      /** A job board's roles in its own words, a feed's items' dates: read off the snapshot when it is classified. */
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
  const src = args[3];
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
  competitorId: number,
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
  // (compare/signature.ts): a page whose bytes changed only where extraction reads nothing has the same
  // signature, and the Worker stops after parsing it. A rendered page's hash is of the HTML the browser built.
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
  let pageRead: PageRead | undefined;
  let prepared: PreparedSnapshot | undefined;
  let serialised: string | undefined;
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
      competitorId,
      url: src.url,
      kind: snapshotKind,
      prepared: content,
      observedAt: s.clock(),
      ...fetched,
    });
    return { status: "baseline", source: src, key, snapshotKind, bodyHash, rendered };
  };
  // No stored snapshot, and no history it continues: this one is the source's first.
  const first = !state?.latestHash && !more.follows;
  try {
    if (!kind.parse) {
      if (!HTML.test(r.contentType)) return fail("unsupported_content");
      const x = await snapshotPool(s.config).run({
        snapshot: true,
        html: text,
        url: r.finalUrl,
        sourceUrl: src.url,
        ...(state?.latestHash && lastSignature ? { signature: lastSignature } : {}),
        ...(state?.latestHash ? { latestHash: state.latestHash } : {}),
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
      });
      if (x.signature) bodyHash = `${bodyHash}.${x.signature}`;
      if (x.same) return unchanged(bodyHash);
      if (x.first) return await baseline(x.prepared);
      snapshot = x.snapshot;
      hash = x.hash;
      originals = x.originals ?? [];
      prepared = x.prepared;
      pageRead = x.read;
    } else {
      const parse = kind.parse;
      const { result: parsed, originals: o } = withOriginals(() => parse(r, src.url));
      if ("error" in parsed) return fail(parsed.error);
      snapshot = parsed.snapshot;
      read = parsed.read;
      originals = o;
      serialised = serialise(snapshot);
      hash = snapshotHash(serialised);
    }
  } catch (e) {
    return fail(`unreadable: ${String((e as Error)?.message ?? e).slice(0, 200)}`);
  }
  // What a signal quotes where the snapshot masked the page's words (compare/originals.ts).
  keepOriginals(snapshot, originals);
  // A board that moved is compared with the history of the board it follows (its first check is no baseline).
  const historyUrl = state?.latestHash ? src.url : more.follows?.url;
  const cmp = await compareWithHistory(
    snapshotStoreFor(s),
    historyUrl ? { orgId, competitorId, url: historyUrl, kind: snapshotKind } : undefined,
    snapshot,
    hash,
    state?.latestHash,
  );
  if (cmp.status === "unchanged") return unchanged(bodyHash);
  // New content, prepared for the store: a page's in the Worker, another kind's here.
  prepared ??= prepareSnapshot(snapshot, serialised, hash);
  if (cmp.status === "baseline") return baseline(prepared);
  if (pageRead) more.read?.onRead(pageRead);
  return {
    status: cmp.status,
    source: src,
    key,
    snapshotKind,
    snapshot,
    prepared,
    previous: cmp.previous,
    changes: cmp.changes,
    ...(read ? { read } : {}),
    fetched: { ...fetched, ...("headers" in r && r.headers ? { headers: r.headers } : {}) },
    bodyHash,
    rendered,
  };
}
