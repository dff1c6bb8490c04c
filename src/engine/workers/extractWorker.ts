// Worker entry: parses one fetched page (DOM → blocks, links, structured data, plans, jobs …) and detects the
// technologies it shows, off the main thread; or, for a monitoring cycle, extracts, normalises and hashes a
// page into its snapshot, and compares and classifies a new one. Listed in scripts/build.ts's entrypoints so the
// compiled binary carries it.

import { normalise, serialise, snapshotHash, withOriginals } from "../compare/normalise.ts";
import { PageSignature } from "../compare/signature.ts";
import { observeDocument, parseDocument } from "../extract/dom.ts";
import type { PageExtract } from "../extract/page.ts";
import { extractFromDocument, extractPage, fallbackExtract } from "../extract/page.ts";
import { detectTech } from "../extract/tech.ts";
import { pageRead } from "../research/pageRead.ts";
import { prepareSnapshot } from "../snapshots/blob.ts";
import { draftsOf, readHistory, type StoredHistory } from "../snapshots/observe.ts";
import { collectAfterWork } from "./collect.ts";
import type {
  ExtractTask,
  ExtractTaskResult,
  SnapshotQuestion,
  SnapshotTask,
  SnapshotTaskResult,
} from "./extract.ts";
import { serveTasks } from "./pool.ts";

/** The worker's heap size above which it collects after a page. A page's extraction is megabytes of short-lived
 * objects; left to JSC's own pacing the worker's heap grew past 100 MB between collections in a cycle
 * (docs/engine/speed.md, "Memory"). Collecting after every fourth extraction held it but cost about a fifth of
 * a changed page's CPU; a size check (about 10 µs) collects only when the heap has grown. At 16 MB rather than
 * 32 the worker's share of the process peaked about 15 MB lower, at no CPU measurable beside the extraction. */
const COLLECT_ABOVE_BYTES = 16 * 1024 * 1024;

/** A collection is due: the last page's work is garbage, not yet collected. */
let due = false;
/** Collects what the last page left, once: on the loop's next turn, or at the next task's start if that comes
 *  first (so no two pages' work is alive at once). Not inside the task: there, the young collection left more of
 *  the page alive (the task's stack is scanned conservatively, the likely cause), to be promoted and collected
 *  fully later. Collected after the task, the Worker collected fully less often and a changed page cost
 *  2.5–3.7 ms less (docs/scale.md, "The Worker's collection after its task"). */
function collectDue(): void {
  if (!due) return;
  due = false;
  collectAfterWork(COLLECT_ABOVE_BYTES);
}

serveTasks<
  ExtractTask | SnapshotTask,
  ExtractTaskResult | SnapshotTaskResult,
  SnapshotQuestion,
  StoredHistory
>(async (task, ask) => {
  collectDue();
  const out = await handle(task, ask);
  // Below that size a young collection frees the page's working objects (its tree, its texts), garbage once the
  // result is built; a page whose signature matched made none.
  const signatureOnly =
    "snapshot" in task && "same" in out && !!out.signature && out.signature === task.signature;
  if (!signatureOnly) {
    due = true;
    setImmediate(collectDue);
  }
  return out;
});

type Ask = (question: SnapshotQuestion) => Promise<StoredHistory>;

function handle(
  task: ExtractTask | SnapshotTask,
  ask: Ask,
): ExtractTaskResult | SnapshotTaskResult | Promise<SnapshotTaskResult> {
  if ("snapshot" in task) return snapshotOf(task, ask);
  const { html, url, headers, tech } = task;
  const page = extractPage(html, url);
  return { page, tech: tech ? detectTech({ html, headers: headers ?? {}, scripts: page.scripts }) : [] };
}

/** The page's signature first (a tokenizer pass, no tree) when the page has one: an unchanged signature ends the
 *  task there. Else the page is parsed, extracted and normalised, and a snapshot with a new hash compared with
 *  the source's history and classified here, so that only what is stored of it and its signal drafts cross to
 *  the main thread.
 *
 *  A page is given a signature only once its bytes have changed without its snapshot: until then its bytes
 *  changed only with what it says (or it is new), and a signature pass before every parse would be about a tenth
 *  of a changed page's CPU spent for nothing. A page with a signature keeps one. */
async function snapshotOf(task: SnapshotTask, ask: Ask): Promise<SnapshotTaskResult> {
  const html = task.html ?? "";
  let page: PageExtract | null = null;
  let signature: string | undefined;
  try {
    if (task.signature) {
      signature = signatureOf(html, task.url);
      if (signature === task.signature) return { same: true, signature };
    }
    page = extractFromDocument(parseDocument(html), html, task.url);
  } catch {
    page = null;
  }
  // read as text only: the signature does not cover what that reading depends on
  if (!page) signature = undefined;
  const signed = signedAs(signature);
  // What extractPage gives for the page: the tree's extract, else its text.
  const extract = page ?? fallbackExtract(html, task.url);
  const { result: snapshot, originals } = withOriginals(() => normalise(extract));
  snapshot.url = task.sourceUrl;
  const serialised = serialise(snapshot);
  const hash = snapshotHash(serialised);
  if (task.whole) return { whole: true, snapshot, hash, ...signed };
  // The bytes moved and the content did not: from now on this page's checks start with its signature.
  if (hash === task.latestHash)
    return { same: true, ...signedAs(signature ?? (page ? signatureOf(html, task.url) : undefined)) };
  // New content: stored as prepared here.
  const prepared = prepareSnapshot(snapshot, serialised, hash);
  if (task.first || !task.compare) return { first: true, hash, ...signed, prepared };
  // Only now is the history read (by the main thread, from the database): a page whose signature or snapshot
  // hash was the last one's never needed it.
  const { previous, seen } = readHistory(await ask("history"));
  if (!previous) return { first: true, hash, ...signed, prepared };
  const drafts = draftsOf(previous, seen, snapshot, task.compare, originals);
  // The dossier's read of the page from this parse, not a second one (normalise leaves the extract as is).
  const read = task.read
    ? pageRead(
        extract,
        task.read.kind,
        task.read.tech
          ? detectTech({ html, headers: task.read.headers, scripts: extract.scripts })
          : undefined,
      )
    : undefined;
  return { changed: true, hash, ...signed, prepared, drafts, ...(read ? { read } : {}) };
}

/** The page's signature (compare/signature.ts): one tokenizer pass over its HTML; none when it cannot be read. */
function signatureOf(html: string, url: string): string | undefined {
  try {
    const sig = new PageSignature(url);
    observeDocument(html, sig);
    return sig.digest();
  } catch {
    return undefined;
  }
}

const signedAs = (signature: string | undefined) => (signature ? { signature } : {});
