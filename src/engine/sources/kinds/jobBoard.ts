// A job board (Greenhouse, Lever, Ashby and the providers in ../boards/), read through the provider's API, in
// pages where it pages; an answer that is not the provider's list is a failed read (boards/read.ts), never an
// empty board. A source's kind names its provider: `job_board:greenhouse`.
import type { ResearchSource } from "../../../domain/researchTypes.ts";
import { normaliseJobs } from "../../compare/normalise.ts";
import { boardsInHtml } from "../boards/detect.ts";
import { readJobBoard } from "../boards/read.ts";
import { boardKey, detectJobBoard, hiringRead, type Job, type JobBoardProvider } from "../jobBoards.ts";
import { allLinks, firstPage, type SourceKind, uniq } from "./kind.ts";

export const JOB_BOARD = "job_board:";

/** The kind of a job board source of `provider`. */
export function jobBoardKind(provider: string): string {
  return `${JOB_BOARD}${provider}`;
}

/** The board research read; `failed`: it answered with something other than its list (no hiring read comes from
 * it, it stays a source to watch). */
export type BoardFound =
  | { provider: JobBoardProvider; token: string; url: string; jobs: Job[]; failed?: string }
  | undefined;

export const jobBoard: SourceKind<BoardFound, "job_board"> = {
  name: "job_board",
  fetch(fetcher, url, validators) {
    const board = detectJobBoard(url);
    if (!board)
      return Promise.resolve({
        ok: false,
        url,
        error: "unsupported_content",
        message: "not a job board's address",
      });
    return readJobBoard(fetcher, board, validators);
  },
  parse: (read, url) => ({ snapshot: normaliseJobs(url, "jobs" in read ? read.jobs : []) }),
  snapshot: "jobs",
  classifyAs: () => ({ pageKind: "jobs" }),
  label: (kind) => `job board (${kind.slice(JOB_BOARD.length)})`,
  observe: (src, now) =>
    now.jobs
      ? { hiring: { ...hiringRead(now.jobs, src.kind.slice(JOB_BOARD.length) as JobBoardProvider) } }
      : {},
  discovery: {
    /** The job board the careers page names (links, iframes, embed scripts, inline configuration), else one the
     * home page or any page read links, read through its public API (at most three boards tried). */
    async read(s, io) {
      const careers = firstPage(s, "careers");
      const boards = uniq(
        [
          ...(careers ? boardsInHtml(careers.html) : []),
          ...[
            ...(careers ? allLinks(careers.extract).map((l) => l.url) : []),
            ...(careers?.extract.scripts ?? []),
            ...allLinks(s.home.extract).map((l) => l.url),
            ...s.pages.flatMap((p) => allLinks(p.extract).map((l) => l.url)),
          ].flatMap((u) => {
            const b = detectJobBoard(u);
            return b ? [b] : [];
          }),
        ],
        boardKey,
      ).slice(0, 3);
      let unread: BoardFound;
      for (const b of boards) {
        io.count();
        const r = await readJobBoard(io.fetcher, b);
        if (r.ok) return { ...b, url: r.url, jobs: r.jobs };
        io.failed(r.url, r.error);
        unread ??= { ...b, url: r.url, jobs: [], failed: r.error };
      }
      return unread;
    },
    sources: (board): ResearchSource[] =>
      board ? [{ url: board.url, kind: jobBoardKind(board.provider) }] : [],
  },
};
