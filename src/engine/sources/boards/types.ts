// What one job-board provider of ./index.ts's table knows: which URLs name one of its boards, its public API
// URL, how its real answer reads, and how a large board is read in pages.
import type { Job } from "../jobBoards.ts";

export type OtherBoardProvider = "workable" | "smartrecruiters" | "recruitee" | "personio";

/** The provider's answer read: its jobs, and how many it says it has in all (a paginated answer). */
export interface BoardAnswer {
  jobs: Job[];
  total?: number;
}

export interface BoardSpec {
  provider: OtherBoardProvider;
  /** The provider's name as a person writes it (in failure messages). */
  name: string;
  /** The board a URL names (a board page, a job on it, an embed, the API itself): its token and region. */
  fromUrl(host: string, parts: string[], u: URL): { token: string; region?: "eu" } | null;
  /** Board tokens stated in the inline configuration of the provider's embed script, if it has any. */
  fromInlineConfig?(html: string): string[];
  /** The provider's public endpoint (docs/engine/sources.md, "Job boards"). */
  apiUrl(token: string, region?: "eu"): string;
  /** The answer's jobs; null when the text is not the provider's answer (an HTML page, another shape, cut
   * short). An answer that lists no job is `{ jobs: [] }`. */
  parse(text: string, board: { token: string; region?: "eu" }): BoardAnswer | null;
  /** Providers that page their list: the URL of the page that starts at `offset`, and the page size. */
  pages?: { url(apiUrl: string, offset: number): string; size: number };
}
