// The job-board providers beyond Greenhouse, Lever and Ashby (those three are in ../jobBoards.ts): one file
// each, listed here. ../jobBoards.ts asks this table for the boards a URL names, their API URLs and answers.
import { personio } from "./personio.ts";
import { recruitee } from "./recruitee.ts";
import { smartrecruiters } from "./smartrecruiters.ts";
import type { BoardSpec, OtherBoardProvider } from "./types.ts";
import { workable } from "./workable.ts";

export type { BoardAnswer, BoardSpec, OtherBoardProvider } from "./types.ts";

export const OTHER_BOARDS: Record<OtherBoardProvider, BoardSpec> = {
  workable,
  smartrecruiters,
  recruitee,
  personio,
};

/** The board of one of these providers a URL names (host lower-cased, path parts decoded), or null. */
export function otherBoardFromUrl(
  host: string,
  parts: string[],
  u: URL,
): { provider: OtherBoardProvider; token: string; region?: "eu" } | null {
  for (const spec of Object.values(OTHER_BOARDS)) {
    const b = spec.fromUrl(host, parts, u);
    if (b) return { provider: spec.provider, ...b };
  }
  return null;
}
