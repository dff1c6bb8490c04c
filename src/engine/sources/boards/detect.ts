// The job board a careers page uses, from its raw HTML: board URLs wherever they stand (links, iframes, embed
// scripts, JSON and inline script configuration, `\/`-escaped or protocol-relative), and the tokens that embed
// scripts take as settings (Lever's `accountName`, SmartRecruiters' `company_code`). HTML comments do not count.
import { boardKey, detectJobBoard, type JobBoard } from "../jobBoards.ts";
import { decodeEntities } from "../util.ts";
import { OTHER_BOARDS } from "./index.ts";

const BOARD_URL =
  /(?:https?:)?(?:\/|\\\/){2}((?:[a-z0-9-]+\.)*(?:greenhouse\.io|lever\.co|ashbyhq\.com|workable\.com|smartrecruiters\.com|recruitee\.com|jobs\.personio\.(?:de|com)))((?:\/|\\\/)[^\s"'<>`)\\]*(?:\\\/[^\s"'<>`)\\]*)*)?/gi;
const LEVER_ACCOUNT =
  /leverJobsOptions\s*=\s*\{[^}]{0,500}?accountName\s*:\s*["']([A-Za-z0-9][\w.-]{0,99})["']/g;
const MAX_HTML = 3_000_000;

/** Every board the page names, the most named first (the first named on a tie). */
export function boardsInHtml(html: string): JobBoard[] {
  const page = String(html ?? "")
    .slice(0, MAX_HTML)
    .replace(/<!--[\s\S]*?-->/g, " ");
  const found: JobBoard[] = [];
  for (const m of page.matchAll(BOARD_URL)) {
    const url = `https://${m[1]}${decodeEntities((m[2] ?? "/").replace(/\\\//g, "/"))}`;
    const b = detectJobBoard(url);
    if (b) found.push(b);
  }
  for (const m of page.matchAll(LEVER_ACCOUNT)) found.push({ provider: "lever", token: m[1]! });
  for (const spec of Object.values(OTHER_BOARDS))
    for (const token of spec.fromInlineConfig?.(page) ?? []) found.push({ provider: spec.provider, token });
  const counts = new Map<string, { board: JobBoard; n: number; first: number }>();
  found.forEach((b, i) => {
    const k = boardKey(b);
    const e = counts.get(k);
    if (e) e.n++;
    else counts.set(k, { board: b, n: 1, first: i });
  });
  return [...counts.values()].sort((a, b) => b.n - a.n || a.first - b.first).map((e) => e.board);
}
