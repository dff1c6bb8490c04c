/**
 * Job boards read through their public JSON instead of scraping: Greenhouse, Lever and Ashby.
 * Detection from a careers-page link, the API URL (exactly ENGINE.md's shapes), parsing of each
 * provider's real response shape, and the `hiring` read. Pure; bad input gives null / [].
 */
import { absoluteHttpUrl, isoDate, plainText } from "./util.ts";

export type JobBoardProvider = "greenhouse" | "lever" | "ashby";
export interface JobBoard {
  provider: JobBoardProvider;
  token: string;
}
export interface Job {
  title: string;
  department?: string;
  location?: string;
  url?: string;
  /** ISO 8601. */
  posted_at?: string;
}
export interface HiringRead {
  open_roles: number;
  by_department: Record<string, number>;
  locations: string[];
  board?: JobBoardProvider;
}

const TOKEN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;
const GREENHOUSE_NOT_TOKENS = new Set(["embed", "v1", "api", "jobs", "job_app", "include", "static"]);
const MAX_JOBS = 5000;

/** The job board a URL points at (a board page, a job on it, an embed, or the API itself), or null. */
export function detectJobBoard(url: string): JobBoard | null {
  let u: URL;
  try {
    u = new URL(String(url).trim());
  } catch {
    return null;
  }
  if (u.protocol !== "https:" && u.protocol !== "http:") return null;
  const host = u.hostname.toLowerCase().replace(/\.$/, "");
  const parts = u.pathname.split("/").filter(Boolean).map(safeDecode);

  if (/^(?:boards|job-boards)(?:\.eu)?\.greenhouse\.io$/.test(host)) {
    // Embeds: /embed/job_board?for=x, /embed/job_board/js?for=x, /embed/job_app?for=x&token=…
    const forToken = u.searchParams.get("for");
    if (parts[0] === "embed" || (forToken && parts.length === 0)) return board("greenhouse", forToken);
    return board("greenhouse", parts[0], GREENHOUSE_NOT_TOKENS);
  }
  if (/^boards-api(?:\.eu)?\.greenhouse\.io$/.test(host)) {
    // /v1/boards/{token}/…
    if (parts[0] === "v1" && parts[1] === "boards") return board("greenhouse", parts[2]);
    return null;
  }
  if (/^jobs(?:\.eu)?\.lever\.co$/.test(host)) return board("lever", parts[0]);
  if (/^api(?:\.eu)?\.lever\.co$/.test(host)) {
    // /v0/postings/{site}
    if (parts[0] === "v0" && parts[1] === "postings") return board("lever", parts[2]);
    return null;
  }
  if (host === "jobs.ashbyhq.com") return board("ashby", parts[0], new Set(["api", "embed"]));
  if (host === "api.ashbyhq.com") {
    // /posting-api/job-board/{board}
    if (parts[0] === "posting-api" && parts[1] === "job-board") return board("ashby", parts[2]);
    return null;
  }
  return null;
}

function board(
  provider: JobBoardProvider,
  token: string | null | undefined,
  deny?: Set<string>,
): JobBoard | null {
  if (!token || !TOKEN.test(token)) return null;
  if (deny?.has(token.toLowerCase())) return null;
  return { provider, token };
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * The job board a careers page uses, from its links and script/iframe URLs (an embed's
 * `…/embed/job_board/js?for=acme` counts): the board most URLs point at, first seen on a tie; null if none.
 */
export function jobBoardFrom(urls: readonly (string | { url: string })[]): JobBoard | null {
  const counts = new Map<string, { board: JobBoard; n: number }>();
  for (const u of Array.isArray(urls) ? urls : []) {
    const url = typeof u === "string" ? u : u?.url;
    if (typeof url !== "string") continue;
    const b = detectJobBoard(url);
    if (!b) continue;
    const key = `${b.provider}:${b.token.toLowerCase()}`;
    const entry = counts.get(key);
    if (entry) entry.n++;
    else counts.set(key, { board: b, n: 1 });
  }
  let best: { board: JobBoard; n: number } | null = null;
  for (const e of counts.values()) if (!best || e.n > best.n) best = e;
  return best?.board ?? null;
}

/** The public JSON API of a board, exactly as ENGINE.md gives it. */
export function jobBoardApiUrl(b: JobBoard): string {
  const token = encodeURIComponent(b.token);
  switch (b.provider) {
    case "greenhouse":
      return `https://boards-api.greenhouse.io/v1/boards/${token}/jobs?content=true`;
    case "lever":
      return `https://api.lever.co/v0/postings/${token}?mode=json`;
    case "ashby":
      return `https://api.ashbyhq.com/posting-api/job-board/${token}?includeCompensation=true`;
  }
}

/** The open jobs of a provider's API response; [] for anything that is not such a response. */
export function parseJobBoard(provider: JobBoardProvider, jsonText: string): Job[] {
  let data: unknown;
  try {
    data = JSON.parse(String(jsonText).replace(/^\uFEFF/, ""));
  } catch {
    return [];
  }
  try {
    const jobs =
      provider === "greenhouse" ? greenhouse(data) : provider === "lever" ? lever(data) : ashby(data);
    return jobs.slice(0, MAX_JOBS);
  } catch {
    return [];
  }
}

/** `{ jobs: [{ title, location: { name }, departments: [{ name }], absolute_url, updated_at, first_published? }] }` */
function greenhouse(data: unknown): Job[] {
  if (!isRecord(data) || !Array.isArray(data.jobs)) return [];
  const out: Job[] = [];
  for (const j of data.jobs) {
    if (!isRecord(j)) continue;
    const title = str(j.title);
    if (!title) continue;
    const departments = Array.isArray(j.departments)
      ? j.departments.map((d) => (isRecord(d) ? str(d.name) : undefined)).filter((d): d is string => !!d)
      : [];
    const location = isRecord(j.location) ? str(j.location.name) : undefined;
    out.push(
      job(
        title,
        departments[0],
        location,
        absoluteHttpUrl(j.absolute_url),
        isoDate(j.first_published) ?? isoDate(j.updated_at),
      ),
    );
  }
  return out;
}

/** `[{ text, categories: { team, department, location, allLocations }, hostedUrl, createdAt (ms) }]` */
function lever(data: unknown): Job[] {
  if (!Array.isArray(data)) return [];
  const out: Job[] = [];
  for (const p of data) {
    if (!isRecord(p)) continue;
    const title = str(p.text);
    if (!title) continue;
    const cat = isRecord(p.categories) ? p.categories : {};
    const location =
      str(cat.location) ??
      (Array.isArray(cat.allLocations) ? cat.allLocations.map(str).find((l) => !!l) : undefined);
    out.push(
      job(
        title,
        str(cat.department) ?? str(cat.team),
        location,
        absoluteHttpUrl(p.hostedUrl),
        isoDate(p.createdAt),
      ),
    );
  }
  return out;
}

/** `{ jobs: [{ title, department, team, location, jobUrl, publishedAt, isListed }] }` */
function ashby(data: unknown): Job[] {
  if (!isRecord(data) || !Array.isArray(data.jobs)) return [];
  const out: Job[] = [];
  for (const j of data.jobs) {
    if (!isRecord(j)) continue;
    if (j.isListed === false) continue;
    const title = str(j.title);
    if (!title) continue;
    const location =
      str(j.location) ??
      str(j.locationName) ??
      (isRecord(j.location) ? (str(j.location.name) ?? str(j.location.location)) : undefined);
    out.push(
      job(
        title,
        str(j.department) ?? str(j.team),
        location,
        absoluteHttpUrl(j.jobUrl) ?? absoluteHttpUrl(j.applyUrl),
        isoDate(j.publishedAt) ?? isoDate(j.publishedDate),
      ),
    );
  }
  return out;
}

function job(title: string, department?: string, location?: string, url?: string, posted_at?: string): Job {
  const j: Job = { title };
  if (department) j.department = department;
  if (location) j.location = location;
  if (url) j.url = url;
  if (posted_at) j.posted_at = posted_at;
  return j;
}

function str(v: unknown): string | undefined {
  if (typeof v !== "string") return undefined;
  const s = plainText(v).slice(0, 300);
  return s || undefined;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The `hiring` read: open roles, count per department (jobs that name one), distinct locations, board. */
export function hiringRead(jobs: readonly Job[], provider?: JobBoardProvider): HiringRead {
  const by_department: Record<string, number> = {};
  const locations = new Map<string, string>();
  let open = 0;
  for (const j of Array.isArray(jobs) ? jobs : []) {
    if (!j || typeof j.title !== "string" || !j.title.trim()) continue;
    open++;
    const dep = j.department?.trim();
    if (dep) by_department[dep] = (by_department[dep] ?? 0) + 1;
    const loc = j.location?.trim();
    if (loc && !locations.has(loc.toLowerCase())) locations.set(loc.toLowerCase(), loc);
  }
  const read: HiringRead = {
    open_roles: open,
    by_department: Object.fromEntries(Object.entries(by_department).sort(([a], [b]) => a.localeCompare(b))),
    locations: [...locations.values()].sort((a, b) => a.localeCompare(b)),
  };
  if (provider) read.board = provider;
  return read;
}
