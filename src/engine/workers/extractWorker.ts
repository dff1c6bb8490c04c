// Worker entry: parses one fetched page (DOM → blocks, links, structured data, plans, jobs …) and detects the
// technologies it shows, off the main thread; or, for a monitoring cycle, extracts, normalises and hashes a
// page into its snapshot. Listed in scripts/build.ts's entrypoints so the compiled binary carries it.
import { normalise, serialise, snapshotHash } from "../compare/normalise.ts";
import { extractPage } from "../extract/page.ts";
import { detectTech } from "../extract/tech.ts";
import type { ExtractTask, ExtractTaskResult, SnapshotTask, SnapshotTaskResult } from "./extract.ts";
import { serveTasks } from "./pool.ts";

serveTasks<ExtractTask | SnapshotTask, ExtractTaskResult | SnapshotTaskResult>((task) => {
  if ("snapshot" in task) {
    const snapshot = normalise(extractPage(task.html, task.url));
    snapshot.url = task.sourceUrl;
    return { snapshot, hash: snapshotHash(serialise(snapshot)) };
  }
  const { html, url, headers, tech } = task;
  const page = extractPage(html, url);
  return { page, tech: tech ? detectTech({ html, headers: headers ?? {}, scripts: page.scripts }) : [] };
});
