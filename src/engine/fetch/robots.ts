// robots.txt rules per origin: fetched before any other page of the origin, kept up to a day (an origin
// whose robots.txt could not be read is asked again after a few minutes), bounded in number.
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

  set(origin: string, verdict: RobotsVerdict, now: number): void {
    const ttl = verdict.kind === "unreachable" ? ROBOTS_RETRY_MS : ROBOTS_TTL_MS;
    this.entries.delete(origin);
    if (this.entries.size >= MAX_ORIGINS) {
      for (const [k, v] of this.entries) if (v.expiresAt <= now) this.entries.delete(k);
      while (this.entries.size >= MAX_ORIGINS)
        this.entries.delete(this.entries.keys().next().value as string);
    }
    this.entries.set(origin, { verdict, expiresAt: now + ttl });
  }
}
