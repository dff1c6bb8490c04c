// A changed page's dossier read comes from the parse its snapshot was made from: the snapshot task asked for a
// read gives exactly the read research makes of an extraction task of the same body (the page's extract and its
// technologies), on every HTML page of the fixture web, and nothing when the snapshot's hash is the latest one's. New content
// comes prepared for the store as the store itself would prepare it.
import { afterAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { relative, resolve } from "node:path";
import { htmlFiles } from "../../../fixtures/web/files.ts";
import { pageRead } from "../../../src/engine/research/pageRead.ts";
import { prepareSnapshot } from "../../../src/engine/snapshots/blob.ts";
import type {
  ExtractTask,
  ExtractTaskResult,
  SnapshotTask,
  SnapshotTaskResult,
} from "../../../src/engine/workers/extract.ts";
import { workerEntry } from "../../../src/engine/workers/extract.ts";
import { WorkerPool } from "../../../src/engine/workers/pool.ts";

const pool = new WorkerPool<ExtractTask | SnapshotTask, ExtractTaskResult | SnapshotTaskResult>(
  workerEntry(new URL("../../../src/engine/workers/extract.ts", import.meta.url).href),
  1,
);
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

test("the snapshot task's read is research's read of the extraction task's, page by page", async () => {
  expect(pages.length).toBeGreaterThan(100);
  const kinds = new Set<string>();
  for (const p of pages) {
    const kind = kindOf(p.url);
    kinds.add(kind);
    const [snap, alone] = (await Promise.all([
      pool.run({
        snapshot: true,
        html: p.html,
        url: p.url,
        sourceUrl: p.url,
        read: { kind, tech: true, headers },
      }),
      pool.run({ html: p.html, url: p.url, tech: true, headers }),
    ])) as [SnapshotTaskResult, ExtractTaskResult];
    if (snap.same || snap.first) throw new Error("no signature was given: the page must be extracted");
    expect(snap.read).toEqual(pageRead(alone.page, kind, alone.tech));
  }
  expect([...kinds].sort()).toEqual(["changelog", "home", "security"]);
});

test("no read and nothing prepared when the snapshot is the latest one; no read when none is asked", async () => {
  const p = pages.find((x) => x.url.includes("pricing"))!;
  const task = { snapshot: true as const, html: p.html, url: p.url, sourceUrl: p.url };
  const first = (await pool.run(task)) as SnapshotTaskResult;
  if (first.same || first.first) throw new Error("extracted");
  expect(first.read).toBeUndefined();
  const stored = prepareSnapshot(first.snapshot);
  expect(first.prepared).toEqual(stored);
  expect(stored.hash).toBe(first.hash);
  const again = (await pool.run({
    ...task,
    latestHash: first.hash,
    read: { kind: "pricing", tech: false, headers: {} },
  })) as SnapshotTaskResult;
  if (again.same || again.first) throw new Error("extracted");
  expect(again.hash).toBe(first.hash);
  expect(again.read).toBeUndefined();
  expect(again.prepared).toBeUndefined();
  const moved = (await pool.run({
    ...task,
    latestHash: "another",
    read: { kind: "pricing", tech: false, headers: {} },
  })) as SnapshotTaskResult;
  if (moved.same || moved.first) throw new Error("extracted");
  expect(moved.read?.profile?.url).toBe(p.url);
  expect(moved.read?.tech).toBeUndefined();
  expect(moved.prepared?.hash).toBe(first.hash);
});

test("a first snapshot comes only as the store keeps it: no snapshot, no read", async () => {
  const p = pages.find((x) => x.url.includes("pricing"))!;
  const task = { snapshot: true as const, html: p.html, url: p.url, sourceUrl: p.url };
  const full = (await pool.run(task)) as SnapshotTaskResult;
  if (full.same || full.first) throw new Error("extracted");
  const first = (await pool.run({
    ...task,
    first: true,
    read: { kind: "pricing", tech: true, headers },
  })) as SnapshotTaskResult;
  if (first.same || !first.first) throw new Error("a first snapshot was asked for");
  expect(first).toEqual({
    first: true,
    hash: full.hash,
    signature: full.signature!,
    prepared: full.prepared!,
  });
  expect(first.prepared).toEqual(prepareSnapshot(full.snapshot));
});
