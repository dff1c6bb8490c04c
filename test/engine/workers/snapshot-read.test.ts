// A changed page is compared, classified and read for the dossier in the Worker that made its snapshot: the
// snapshot task asked for a read gives exactly the read research makes of an extraction task of the same body
// (the page's extract and its technologies), on every HTML page of the fixture web; its drafts are those the
// comparison and classification make on the main thread from the same history; nothing comes back but `same`
// when the snapshot's hash is the latest one's. New content comes prepared for the store as the store itself
// would prepare it.
import { afterAll, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { relative, resolve } from "node:path";
import { htmlFiles } from "../../../fixtures/web/files.ts";
import { normalise, withOriginals } from "../../../src/engine/compare/normalise.ts";
import { keepOriginals } from "../../../src/engine/compare/originals.ts";
import type { Snapshot } from "../../../src/engine/compare/types.ts";
import { extractPage } from "../../../src/engine/extract/page.ts";
import { pageRead } from "../../../src/engine/research/pageRead.ts";
import { type PreparedSnapshot, prepareSnapshot } from "../../../src/engine/snapshots/blob.ts";
import { draftsOf, readHistory, type StoredHistory } from "../../../src/engine/snapshots/observe.ts";
import type {
  ExtractTask,
  ExtractTaskResult,
  SnapshotQuestion,
  SnapshotTask,
  SnapshotTaskResult,
} from "../../../src/engine/workers/extract.ts";
import { workerEntry } from "../../../src/engine/workers/extract.ts";
import { WorkerPool } from "../../../src/engine/workers/pool.ts";

const pool = new WorkerPool<
  ExtractTask | SnapshotTask,
  ExtractTaskResult | SnapshotTaskResult,
  SnapshotQuestion,
  StoredHistory
>(workerEntry(new URL("../../../src/engine/workers/extract.ts", import.meta.url).href), 1);
afterAll(() => pool.close());

const web = resolve(import.meta.dir, "../../../fixtures/web/sites");
const pages = htmlFiles(web).map((p) => {
  const rel = relative(web, p).split("/");
  return { url: `https://${rel[0]}/${rel.slice(2).join("/")}`, html: readFileSync(p, "utf8") };
});
const headers = { server: "nginx", "x-powered-by": "Next.js" };

/** The kind of source research reads a page as, by its path (the reads differ for these three). */
const kindOf = (url: string) =>
  url.includes("security") ? "security" : url.includes("changelog") ? "changelog" : "home";

/** A history of stored versions, newest first, as the store gives it (content only for the newest). */
const historyOf = (...versions: PreparedSnapshot[]): StoredHistory => ({
  versions: versions.map((v, i) => ({
    codec: "zstd",
    seen: v.seen.slice().buffer,
    data: i === 0 ? v.data.slice().buffer : null,
  })),
});
const judge = (pageKind: string) => ({
  competitor: { id: 7, name: "Globex" },
  observedAt: "2026-11-21T12:00:00.000Z",
  pageKind,
});
/** What a task asked: answered with `history`, as the main thread answers from the store. */
let asked = 0;
const answers = (history: StoredHistory) => async () => {
  asked++;
  return history;
};
/** Some other page's snapshot, as the latest stored version of a source. */
const elsewhere = prepareSnapshot({ url: "https://elsewhere.example/" } as Snapshot);

test("the snapshot task's read is research's read of the extraction task's, page by page", async () => {
  expect(pages.length).toBeGreaterThan(100);
  const kinds = new Set<string>();
  for (const p of pages) {
    const kind = kindOf(p.url);
    kinds.add(kind);
    const [snap, alone] = (await Promise.all([
      pool.run(
        {
          snapshot: true,
          html: p.html,
          url: p.url,
          sourceUrl: p.url,
          latestHash: elsewhere.hash,
          compare: judge(kind),
          read: { kind, tech: true, headers },
        },
        answers(historyOf(elsewhere)),
      ),
      pool.run({ html: p.html, url: p.url, tech: true, headers }),
    ])) as [SnapshotTaskResult, ExtractTaskResult];
    if (!("changed" in snap)) throw new Error("another page's history: the page must be compared");
    expect(snap.read).toEqual(pageRead(alone.page, kind, alone.tech));
  }
  expect([...kinds].sort()).toEqual(["changelog", "home", "security"]);
});

test("the Worker's drafts are the main thread's, from the same history, on every page of the fixture web that changed", async () => {
  const versioned = htmlFiles(web)
    .map((f) => relative(web, f).split("/"))
    .filter((r) => /^v\d+$/.test(r[1] ?? ""));
  // Each versioned page and the same page in the site's next version, where it has one.
  const pairs = versioned.flatMap((r) => {
    const after = resolve(web, r[0]!, `v${Number(r[1]!.slice(1)) + 1}`, ...r.slice(2));
    if (!existsSync(after)) return [];
    const url = `https://${r[0]}/${r.slice(2).join("/")}`;
    return [{ url, before: readFileSync(resolve(web, ...r), "utf8"), after: readFileSync(after, "utf8") }];
  });
  let drafted = 0;
  for (const { url, before, after } of pairs) {
    const previous = normalise(extractPage(before, url));
    previous.url = url;
    const stored = prepareSnapshot(previous);
    const x = (await pool.run(
      {
        snapshot: true,
        html: after,
        url,
        sourceUrl: url,
        latestHash: stored.hash,
        compare: judge("pricing"),
      },
      answers(historyOf(stored)),
    )) as SnapshotTaskResult;
    // What the main thread makes of the same page, as a cycle made it before pages were classified in the Worker.
    const { result: next, originals } = withOriginals(() => normalise(extractPage(after, url)));
    next.url = url;
    keepOriginals(next, originals);
    const { previous: parsed, seen } = readHistory(historyOf(stored));
    const expected =
      prepareSnapshot(next).hash === stored.hash ? [] : draftsOf(parsed!, seen, next, judge("pricing"));
    if ("same" in x) expect(expected).toEqual([]);
    else {
      if (!("changed" in x)) throw new Error("a stored history: the page must be compared");
      expect(x.drafts).toEqual(expected);
      expect(x.prepared).toEqual(prepareSnapshot(next));
      drafted += x.drafts.length;
    }
  }
  expect(pairs.length).toBeGreaterThan(20);
  expect(drafted).toBeGreaterThan(10);
});

test("only `same` when the snapshot is the latest one; prepared and read when it is not; no read when none is asked", async () => {
  const p = pages.find((x) => x.url.includes("pricing"))!;
  const task = { snapshot: true as const, html: p.html, url: p.url, sourceUrl: p.url };
  const whole = (await pool.run({ ...task, whole: true })) as SnapshotTaskResult;
  if (!("whole" in whole)) throw new Error("the snapshot was asked for");
  const stored = prepareSnapshot(whole.snapshot);
  expect(stored.hash).toBe(whole.hash);
  asked = 0;
  const again = (await pool.run(
    {
      ...task,
      latestHash: whole.hash,
      compare: judge("pricing"),
      read: { kind: "pricing", tech: false, headers: {} },
    },
    answers(historyOf(stored)),
  )) as SnapshotTaskResult;
  // The snapshot is the latest one though the page was sent again: from now on it has a signature.
  if (!("same" in again) || !again.signature) throw new Error("the page was not signed");
  expect(whole.signature).toBeUndefined();
  // The same signature as the last check's: not even parsed, and the history not asked for either.
  const signed = await pool.run(
    { ...task, latestHash: elsewhere.hash, signature: again.signature, compare: judge("pricing") },
    answers(historyOf(elsewhere)),
  );
  expect(signed).toEqual({ same: true, signature: again.signature });
  expect(asked).toBe(0);
  const moved = (await pool.run(
    {
      ...task,
      latestHash: elsewhere.hash,
      compare: judge("pricing"),
      read: { kind: "pricing", tech: false, headers: {} },
    },
    answers(historyOf(elsewhere)),
  )) as SnapshotTaskResult;
  if (!("changed" in moved)) throw new Error("compared");
  expect(asked).toBe(1);
  expect(moved.read?.profile?.url).toBe(p.url);
  expect(moved.read?.tech).toBeUndefined();
  expect(moved.prepared).toEqual(stored);
  const unasked = (await pool.run(
    {
      ...task,
      latestHash: elsewhere.hash,
      compare: judge("pricing"),
    },
    answers(historyOf(elsewhere)),
  )) as SnapshotTaskResult;
  if (!("changed" in unasked)) throw new Error("compared");
  expect(unasked.read).toBeUndefined();
});

test("a first snapshot, or one with no stored version to compare, comes only as the store keeps it", async () => {
  const p = pages.find((x) => x.url.includes("pricing"))!;
  const task = { snapshot: true as const, html: p.html, url: p.url, sourceUrl: p.url };
  const whole = (await pool.run({ ...task, whole: true })) as SnapshotTaskResult;
  if (!("whole" in whole)) throw new Error("the snapshot was asked for");
  const first = (await pool.run({
    ...task,
    first: true,
    read: { kind: "pricing", tech: true, headers },
  })) as SnapshotTaskResult;
  const expected = {
    first: true as const,
    hash: whole.hash,
    prepared: prepareSnapshot(whole.snapshot),
  };
  expect(first).toEqual(expected);
  const empty = await pool.run(
    {
      ...task,
      latestHash: elsewhere.hash,
      compare: judge("pricing"),
      read: { kind: "pricing", tech: true, headers },
    },
    answers({ versions: [] }),
  );
  expect(empty).toEqual(expected);
});
