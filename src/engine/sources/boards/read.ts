// Reads a job board through the one fetcher, whatever its provider: the answer must be the provider's own
// (an HTML maintenance page with status 200, an empty or cut-short body, or one over the size cap is a FAILED
// read, never "no open roles"); a paged list is read page by page, and a failed page fails the whole read (a
// partial list would read as roles closing). Greenhouse's list with descriptions may be larger than the cap:
// then its department list, which has every job without its description, is read instead.
import type { FetchErrorCode, Fetcher, FetchResult } from "../../fetch/index.ts";
import { type Job, type JobBoard, jobBoardApiUrl, parseJobBoard } from "../jobBoards.ts";
import { absoluteHttpUrl, isoDate, isRecord, job, str } from "../util.ts";
import { OTHER_BOARDS } from "./index.ts";
import type { BoardAnswer } from "./types.ts";
import { readJson } from "./util.ts";

/** Pages read of one board at most (5,000 jobs at 100 a page). */
const MAX_PAGES = 50;
const MAX_JOBS = 5000;
const LEVER_PAGE = 100;

export type BoardReadError =
  | FetchErrorCode
  | "not_board_response"
  | "empty_response"
  | "truncated_response"
  | "too_many_pages";

export type BoardRead =
  | {
      ok: true;
      notModified: boolean;
      /** The board's API URL (the source's identity); `finalUrl` the last URL read. */
      url: string;
      finalUrl: string;
      status: number;
      contentType: string;
      /** Every page's body, joined (what the cycle hashes to find the same bytes). */
      text: string;
      jobs: Job[];
      pages: number;
      /** Validators only for a board read in one request (a paged list has no one validator). */
      etag?: string;
      lastModified?: string;
    }
  | { ok: false; url: string; error: BoardReadError; status?: number; message: string };

export interface BoardReadOptions {
  etag?: string;
  lastModified?: string;
}

interface Provider {
  name: string;
  parse(text: string): BoardAnswer | null;
  pages?: { url(api: string, offset: number): string; size: number };
  accept: string;
}

const JSON_ACCEPT = "application/json";

function providerOf(b: JobBoard): Provider {
  switch (b.provider) {
    case "greenhouse":
      return {
        name: "Greenhouse",
        accept: JSON_ACCEPT,
        parse: (t) => jsonAnswer(t, (d) => isRecord(d) && Array.isArray(d.jobs), "greenhouse"),
      };
    case "lever":
      return {
        name: "Lever",
        accept: JSON_ACCEPT,
        parse: (t) => jsonAnswer(t, Array.isArray, "lever"),
        pages: { url: (api, offset) => `${api}&skip=${offset}&limit=${LEVER_PAGE}`, size: LEVER_PAGE },
      };
    case "ashby":
      return {
        name: "Ashby",
        accept: JSON_ACCEPT,
        parse: (t) => jsonAnswer(t, (d) => isRecord(d) && Array.isArray(d.jobs), "ashby"),
      };
    default: {
      const spec = OTHER_BOARDS[b.provider];
      return {
        name: spec.name,
        accept: b.provider === "personio" ? "application/xml, text/xml" : JSON_ACCEPT,
        parse: (t) => spec.parse(t, b),
        ...(spec.pages ? { pages: spec.pages } : {}),
      };
    }
  }
}

function jsonAnswer(
  text: string,
  isAnswer: (d: unknown) => boolean,
  provider: "greenhouse" | "lever" | "ashby",
): BoardAnswer | null {
  const data = readJson(text);
  return data !== undefined && isAnswer(data) ? { jobs: parseJobBoard(provider, text) } : null;
}

/** Why an answer is not the provider's: empty, an HTML (or other) page, or JSON / XML cut short. */
function notAnswer(
  text: string,
  contentType: string,
  name: string,
): { error: BoardReadError; message: string } {
  const t = text.replace(/^\uFEFF/, "").trim();
  if (!t) return { error: "empty_response", message: `the ${name} board answered with an empty body` };
  if (/html/i.test(contentType) || /^<(?:!doctype\s+html|html|head|body)\b/i.test(t))
    return {
      error: "not_board_response",
      message: `the ${name} board answered with an HTML page (${clipTitle(t)}), not its list of jobs`,
    };
  if (/^[[{]/.test(t) || /^<\?xml|^<workzag-jobs\b/.test(t))
    return { error: "truncated_response", message: `the ${name} board's answer is cut short or malformed` };
  return { error: "not_board_response", message: `the ${name} board's answer is not its list of jobs` };
}

function clipTitle(html: string): string {
  const title = /<title[^>]*>([^<]{1,120})/i.exec(html)?.[1]?.trim();
  return title ? `"${title}"` : "no title";
}

const failed = (url: string, error: BoardReadError, message: string, status?: number): BoardRead => ({
  ok: false,
  url,
  error,
  message,
  ...(status ? { status } : {}),
});

/** A read of the board at `url` whose last response was `r`; the validators go with a board read in one
 * request of that URL only. */
function read(
  url: string,
  r: Extract<FetchResult, { ok: true }>,
  got: { notModified: boolean; text: string; jobs: Job[]; pages: number },
  validators: boolean,
): BoardRead {
  return {
    ok: true,
    notModified: got.notModified,
    url,
    finalUrl: r.finalUrl,
    status: r.status,
    contentType: r.contentType,
    text: got.text,
    jobs: got.jobs.slice(0, MAX_JOBS),
    pages: got.pages,
    ...(validators && r.etag ? { etag: r.etag } : {}),
    ...(validators && r.lastModified ? { lastModified: r.lastModified } : {}),
  };
}

/** Reads one board now. Never throws; a failure says which check failed. */
export async function readJobBoard(
  fetcher: Fetcher,
  b: JobBoard,
  o: BoardReadOptions = {},
): Promise<BoardRead> {
  const api = jobBoardApiUrl(b);
  const p = providerOf(b);
  const fail = (error: BoardReadError, message: string, status?: number) =>
    failed(api, error, message, status);
  const jobs: Job[] = [];
  const texts: string[] = [];
  let offset = 0;
  for (let page = 0; ; page++) {
    if (page >= MAX_PAGES)
      return fail("too_many_pages", `the ${p.name} board has more than ${MAX_JOBS} jobs`);
    const url = p.pages ? p.pages.url(api, offset) : api;
    const conditional = !p.pages && page === 0;
    const r = await fetcher.fetch({
      url,
      headers: { accept: p.accept },
      ...(conditional && o.etag ? { etag: o.etag } : {}),
      ...(conditional && o.lastModified ? { lastModified: o.lastModified } : {}),
    });
    if (!r.ok) {
      if (r.error === "too_large" && b.provider === "greenhouse" && page === 0)
        return greenhouseByDepartment(fetcher, b, api);
      return fail(r.error, r.message, r.status);
    }
    if (r.notModified) return read(api, r, { notModified: true, text: "", jobs: [], pages: 1 }, true);
    const answer = p.parse(r.text);
    if (!answer) {
      const why = notAnswer(r.text, r.contentType, p.name);
      return fail(why.error, why.message, r.status);
    }
    texts.push(r.text);
    jobs.push(...answer.jobs);
    const more =
      p.pages &&
      answer.jobs.length > 0 &&
      (answer.total !== undefined
        ? offset + p.pages.size < answer.total
        : answer.jobs.length >= p.pages.size);
    if (!more || !p.pages)
      return read(api, r, { notModified: false, text: texts.join("\n"), jobs, pages: page + 1 }, !p.pages);
    offset += p.pages.size;
  }
}

/** Greenhouse's departments with their jobs, without descriptions: `{ departments: [{ name, jobs: [{ id, title,
 * location: { name }, absolute_url, updated_at }] }] }` (a job under two departments is counted once). */
async function greenhouseByDepartment(fetcher: Fetcher, b: JobBoard, api: string): Promise<BoardRead> {
  const url = `${new URL(api).origin}/v1/boards/${encodeURIComponent(b.token)}/departments`;
  const r = await fetcher.fetch({ url, headers: { accept: JSON_ACCEPT } });
  if (!r.ok) return failed(api, r.error, r.message, r.status);
  const data = readJson(r.text);
  if (!isRecord(data) || !Array.isArray(data.departments)) {
    const why = notAnswer(r.text, r.contentType, "Greenhouse");
    return failed(api, why.error, why.message, r.status);
  }
  const seen = new Set<string>();
  const jobs: Job[] = [];
  for (const d of data.departments) {
    if (!isRecord(d) || !Array.isArray(d.jobs)) continue;
    const dep = str(d.name);
    for (const j of d.jobs) {
      if (!isRecord(j)) continue;
      const title = str(j.title);
      const id = String(j.id ?? j.absolute_url ?? title);
      if (!title || seen.has(id)) continue;
      seen.add(id);
      jobs.push(
        job(
          title,
          dep && !/^no department$/i.test(dep) ? dep : undefined,
          isRecord(j.location) ? str(j.location.name) : undefined,
          absoluteHttpUrl(j.absolute_url),
          isoDate(j.first_published) ?? isoDate(j.updated_at),
        ),
      );
    }
  }
  // The validators are the department list's, not the board's.
  return read(api, r, { notModified: false, text: r.text, jobs, pages: 1 }, false);
}
