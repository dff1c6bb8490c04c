/**
 * Job boards read through their public JSON instead of scraping: Greenhouse, Lever and Ashby here, the
 * other providers in ./boards/ (one file each). Detection from a careers-page link, the API URL (exactly
 * the shapes docs/engine/sources.md lists), parsing of each provider's real response shape, and the `hiring` read. Pure; bad
 * input gives null / [].
 */
import { OTHER_BOARDS, type OtherBoardProvider, otherBoardFromUrl } from "./boards/index.ts";
import { absoluteHttpUrl, isoDate, isRecord, job, str } from "./util.ts";

export type JobBoardProvider = "greenhouse" | "lever" | "ashby" | OtherBoardProvider;
export interface JobBoard {
  provider: JobBoardProvider;
  token: string;
  /** A board hosted in the EU, read from the provider's EU endpoint. */
  region?: "eu";
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

  const eu = /\.eu\.(?:greenhouse\.io|lever\.co)$/.test(host) ? "eu" : undefined;
  if (/^(?:boards|job-boards)(?:\.eu)?\.greenhouse\.io$/.test(host)) {
    // Embeds: /embed/job_board?for=x, /embed/job_board/js?for=x, /embed/job_app?for=x&token=…
    const forToken = u.searchParams.get("for");
    if (parts[0] === "embed" || (forToken && parts.length === 0))
      return board("greenhouse", forToken, undefined, eu);
    return board("greenhouse", parts[0], GREENHOUSE_NOT_TOKENS, eu);
  }
  if (/^boards-api(?:\.eu)?\.greenhouse\.io$/.test(host)) {
    // /v1/boards/{token}/…
    if (parts[0] === "v1" && parts[1] === "boards") return board("greenhouse", parts[2], undefined, eu);
    return null;
  }
  if (/^jobs(?:\.eu)?\.lever\.co$/.test(host)) return board("lever", parts[0], undefined, eu);
  if (/^api(?:\.eu)?\.lever\.co$/.test(host)) {
    // /v0/postings/{site}
    if (parts[0] === "v0" && parts[1] === "postings") return board("lever", parts[2], undefined, eu);
    return null;
  }
  if (host === "jobs.ashbyhq.com") return board("ashby", parts[0], new Set(["api", "embed"]));
  if (host === "api.ashbyhq.com") {
    // /posting-api/job-board/{board}
    if (parts[0] === "posting-api" && parts[1] === "job-board") return board("ashby", parts[2]);
    return null;
  }
  const other = otherBoardFromUrl(host, parts, u);
  return other ? board(other.provider, other.token, undefined, other.region) : null;
}

function board(
  provider: JobBoardProvider,
  token: string | null | undefined,
  deny?: Set<string>,
  region?: "eu",
): JobBoard | null {
  if (!token || !TOKEN.test(token)) return null;
  if (deny?.has(token.toLowerCase())) return null;
  return region ? { provider, token, region } : { provider, token };
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
    const key = boardKey(b);
    const entry = counts.get(key);
    if (entry) entry.n++;
    else counts.set(key, { board: b, n: 1 });
  }
  let best: { board: JobBoard; n: number } | null = null;
  for (const e of counts.values()) if (!best || e.n > best.n) best = e;
  return best?.board ?? null;
}

/** One board, whatever URL named it: provider, region and token (board names are case-insensitive). */
export function boardKey(b: JobBoard): string {
  return `${b.provider}${b.region ? `.${b.region}` : ""}:${b.token.toLowerCase()}`;
}

/** The public API of a board, exactly as docs/engine/sources.md ("Job boards") gives it (an EU board at the provider's EU host). */
export function jobBoardApiUrl(b: JobBoard): string {
  const token = encodeURIComponent(b.token);
  const eu = b.region === "eu" ? ".eu" : "";
  switch (b.provider) {
    case "greenhouse":
      return `https://boards-api${eu}.greenhouse.io/v1/boards/${token}/jobs?content=true`;
    case "lever":
      return `https://api${eu}.lever.co/v0/postings/${token}?mode=json`;
    case "ashby":
      return `https://api.ashbyhq.com/posting-api/job-board/${token}?includeCompensation=true`;
    default:
      return OTHER_BOARDS[b.provider].apiUrl(b.token, b.region);
  }
}

/** The board's page for people (what a reader opens), not its API. */
export function jobBoardPageUrl(b: JobBoard): string {
  const token = encodeURIComponent(b.token);
  const eu = b.region === "eu" ? ".eu" : "";
  switch (b.provider) {
    case "greenhouse":
      return `https://boards${eu}.greenhouse.io/${token}`;
    case "lever":
      return `https://jobs${eu}.lever.co/${token}`;
    case "ashby":
      return `https://jobs.ashbyhq.com/${token}`;
    case "personio":
      return `https://${b.token.toLowerCase()}.jobs.personio.${b.region === "eu" ? "de" : "com"}/`;
    case "recruitee":
      return `https://${b.token.toLowerCase()}.recruitee.com/`;
    case "smartrecruiters":
      return `https://careers.smartrecruiters.com/${token}`;
    case "workable":
      return `https://apply.workable.com/${token}/`;
  }
}

/** A hiring read's source as a reader opens it: a job board's page instead of its API; any other address as
 * it is. */
export function hiringPageUrl(source: string): string {
  const b = detectJobBoard(source);
  return b ? jobBoardPageUrl(b) : source;
}

/** The open jobs of a provider's API response; [] for anything that is not such a response. `board` names the
 * board where the answer does not carry its jobs' links (Personio's). */
export function parseJobBoard(provider: JobBoardProvider, jsonText: string, board?: JobBoard): Job[] {
  if (provider !== "greenhouse" && provider !== "lever" && provider !== "ashby")
    return (OTHER_BOARDS[provider].parse(String(jsonText), board ?? { token: "" })?.jobs ?? []).slice(
      0,
      MAX_JOBS,
    );
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
