// Worker entry: parses one fetched page (DOM → blocks, links, structured data, plans, jobs …) and detects the
// technologies it shows, off the main thread. Listed in scripts/build.ts's entrypoints so the compiled binary
// carries it.
import { extractPage } from "../extract/page.ts";
import { detectTech } from "../extract/tech.ts";
import type { ExtractTask, ExtractTaskResult } from "./extract.ts";
import { serveTasks } from "./pool.ts";

serveTasks<ExtractTask, ExtractTaskResult>(({ html, url, headers, tech }) => {
  const page = extractPage(html, url);
  return { page, tech: tech ? detectTech({ html, headers: headers ?? {}, scripts: page.scripts }) : [] };
});
