// Following a company's job board from cycle to cycle: the careers page is read again each cycle, and the board
// it names now is the one checked. A company that moved to another provider (or opened a board) is followed in
// the same cycle; the new board is compared with the last list of the one it replaces (until its own first list,
// whenever that comes: a new board that fails at first still continues the old one's history), so the move itself
// is no change and only roles that opened or closed are. The move is recorded on the competitor's
// CompetitorChecked event (`job_board`), whose projection makes it the source research named.
import type { SourceState } from "../snapshots/store.ts";
import { boardsInHtml } from "../sources/boards/detect.ts";
import { boardKey, detectJobBoard, type JobBoard, jobBoardApiUrl } from "../sources/jobBoards.ts";
import { jobBoardKind } from "../sources/kinds/index.ts";
import type { Source } from "./types.ts";

export interface BoardFollow {
  /** The board sources to check this cycle. */
  check: Source[];
  /** The board source the new one replaces (its history is the new one's). */
  follows?: Source;
  /** What CompetitorChecked records when the board moved: the source now, and the one it replaces. */
  moved?: { url: string; kind: string; replaces?: string };
}

/** The boards a careers page names, most named first. */
export function boardsOnCareersPage(html: string): JobBoard[] {
  return boardsInHtml(html);
}

/** The board sources to check, given the boards the careers pages name now (none read: no change). */
export function followBoard(current: Source[], named: JobBoard[]): BoardFollow {
  if (named.length === 0) return { check: current };
  const keys = new Set(named.map(boardKey));
  const still = current.filter((src) => {
    const b = detectJobBoard(src.url);
    return b && keys.has(boardKey(b));
  });
  if (still.length > 0 || current.some((src) => !detectJobBoard(src.url))) return { check: current };
  const board = named[0]!;
  const next: Source = { url: jobBoardApiUrl(board), kind: jobBoardKind(board.provider), monitored: false };
  const follows = current[0];
  return {
    check: [next],
    ...(follows ? { follows } : {}),
    moved: { url: next.url, kind: next.kind, ...(follows ? { replaces: follows.url } : {}) },
  };
}

/** The board list a board with no list of its own yet continues: the competitor's other board that held a list
 * most recently (the board it replaced, in this cycle or an earlier one, or before a new research). */
export function boardBefore(states: SourceState[], src: Source): Source | undefined {
  if (states.some((st) => st.kind === "jobs" && st.url === src.url && st.latestHash)) return undefined;
  let best: SourceState | undefined;
  for (const st of states)
    if (
      st.kind === "jobs" &&
      st.latestHash &&
      st.url !== src.url &&
      (!best || st.lastCheckedAt > best.lastCheckedAt)
    )
      best = st;
  return best ? { url: best.url, kind: src.kind, monitored: false } : undefined;
}
