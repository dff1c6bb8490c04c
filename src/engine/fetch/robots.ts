// robots.txt rules per origin: fetched before any other page of the origin, kept for the answer's lifetime (up
// to a day; an origin whose robots.txt could not be read is asked again after a few minutes), in memory (bounded
// in number) and, given a store, in the database every process and instance shares.
import robotsParser from "robots-parser";

export const ROBOTS_TTL_MS = 24 * 60 * 60 * 1000;
export const ROBOTS_RETRY_MS = 5 * 60 * 1000;
export const ROBOTS_MAX_BYTES = 500 * 1024;
export const MAX_CRAWL_DELAY_MS = 10_000;
const MAX_ORIGINS = 2000;

/** What robots.txt says for one origin. `unreachable` = it could not be read (5xx, 429, network): the
 * origin is treated as fully disallowed for a while (RFC 9309, 2.3.1.4). */
export type RobotsVerdict =
  | { kind: "rules"; robots: ReturnType<typeof robotsParser>; crawlDelayMs: number }
  | { kind: "allow_all" }
  | { kind: "unreachable"; reason: string };

export interface RobotsEntry {
  verdict: RobotsVerdict;
  expiresAt: number;
}

/** The robots-parser token for our User-Agent ("RivalsBot/1.0 (+…)" → "RivalsBot"). */
export function robotsToken(userAgent: string): string {
  return userAgent.split("/")[0].trim() || userAgent;
}

export function parseRobots(origin: string, text: string, userAgent: string): RobotsVerdict {
  const robots = robotsParser(`${origin}/robots.txt`, text);
  const delay = robots.getCrawlDelay(robotsToken(userAgent));
  const crawlDelayMs =
    typeof delay === "number" && Number.isFinite(delay) && delay > 0
      ? Math.min(delay * 1000, MAX_CRAWL_DELAY_MS)
      : 0;
  return { kind: "rules", robots, crawlDelayMs };
}

/** robots-parser compares percent-encoded paths with rules encoded by encodeURI, so `/%7Eadmin` would
 * slip past `Disallow: /~admin`: decode what may be decoded (never `%2F` and the other reserved
 * characters, which decodeURI keeps) before asking. */
export function robotsAllows(verdict: RobotsVerdict, url: URL, userAgent: string): boolean {
  if (verdict.kind === "allow_all") return true;
  if (verdict.kind === "unreachable") return false;
  let path = url.pathname;
  try {
    path = decodeURI(url.pathname);
  } catch {}
  const u = new URL(url.href);
  u.hash = "";
  const asked = `${u.origin}${path}${u.search}`;
  return verdict.robots.isAllowed(asked, robotsToken(userAgent)) !== false;
}

/** What one robots.txt answer leaves to remember, as a database shares it between processes and instances:
 * the file's text (rules), nothing to obey (allow), or why it could not be read (unreachable). */
export interface RobotsRecord {
  outcome: "rules" | "allow_all" | "unreachable";
  /** The file (rules) or the reason (unreachable). */
  text: string;
  /** Clock ms after which it is asked again. */
  expiresAt: number;
}

/** Where robots.txt answers outlive the process (src/engine/fetch/robotsStore.ts: the database). */
export interface RobotsStore {
  get(origin: string, now: number): Promise<RobotsRecord | undefined>;
  put(origin: string, record: RobotsRecord): Promise<void>;
}

/** How long an answer is kept: the response's own lifetime (Cache-Control max-age, else Expires) when it
 * gives one, at most a day (RFC 9309 2.4) and at least the retry pause (a `no-cache` robots.txt is not
 * asked before every page); a day otherwise. An unreachable file is asked again after the retry pause. */
export function robotsLifetimeMs(
  outcome: RobotsRecord["outcome"],
  headers: Headers | undefined,
  now: number,
): number {
  if (outcome === "unreachable") return ROBOTS_RETRY_MS;
  const cc = headers?.get("cache-control") ?? "";
  let ms: number | undefined;
  if (/\b(no-store|no-cache)\b/i.test(cc)) ms = 0;
  const maxAge = /\bmax-age\s*=\s*"?(\d+)/i.exec(cc);
  if (maxAge) ms = Number(maxAge[1]) * 1000;
  else if (ms === undefined && headers?.get("expires")) {
    const at = Date.parse(headers.get("expires") ?? "");
    ms = Number.isFinite(at) ? at - now : 0;
  }
  if (ms === undefined) return ROBOTS_TTL_MS;
  return Math.min(ROBOTS_TTL_MS, Math.max(ROBOTS_RETRY_MS, ms));
}

/** A record back to the verdict it stands for (rules parsed again for this fetcher's User-Agent). */
export function verdictOf(origin: string, record: RobotsRecord, userAgent: string): RobotsVerdict {
  if (record.outcome === "rules") return parseRobots(origin, record.text, userAgent);
  if (record.outcome === "unreachable") return { kind: "unreachable", reason: record.text };
  return { kind: "allow_all" };
}

export class RobotsCache {
  private entries = new Map<string, RobotsEntry>();

  get(origin: string, now: number): RobotsEntry | undefined {
    const e = this.entries.get(origin);
    if (!e) return undefined;
    if (e.expiresAt <= now) {
      this.entries.delete(origin);
      return undefined;
    }
    return e;
  }

  set(origin: string, verdict: RobotsVerdict, now: number, expiresAt?: number): void {
    const ttl = verdict.kind === "unreachable" ? ROBOTS_RETRY_MS : ROBOTS_TTL_MS;
    this.entries.delete(origin);
    if (this.entries.size >= MAX_ORIGINS) {
      for (const [k, v] of this.entries) if (v.expiresAt <= now) this.entries.delete(k);
      while (this.entries.size >= MAX_ORIGINS)
        this.entries.delete(this.entries.keys().next().value as string);
    }
    this.entries.set(origin, { verdict, expiresAt: expiresAt ?? now + ttl });
  }
}
