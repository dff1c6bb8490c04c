import { availableParallelism } from "node:os";
import { FREE_BRIEF } from "./domain/limits.ts";
import { PROCESS_LANES } from "./engine/cycle/lanes.ts";
import { parseRewrite, type RewriteRule } from "./engine/fetch/rewrite.ts";

/** The demo workspace's slug: its engine work reads only the demo's fictional web (`Config.demoSites`). */
export const DEMO_ORG = "demo";

/** Largest per-minute rate limit an operator may set (the RateLimit-* headers' stated bound). */
export const MAX_RATE_LIMIT = 1_000_000_000;

export interface Config {
  dbUrl: string;
  port: number;
  baseUrl: string;
  /** RIVALS_BASE_URL is set: `baseUrl` is the operator's, not the default http://localhost:PORT. */
  baseUrlSet: boolean;
  trustProxy: boolean;
  /** One JSON line per request on stdout (RIVALS_ACCESS_LOG). */
  accessLog: boolean;
  /** Requests per minute per client address on the read API. */
  rateLimitPerMinute: number;
  /** Tool calls per minute per credential on POST /mcp, and per address for calls without one
   * (RIVALS_MCP_RATE_LIMIT). */
  mcpRateLimitPerMinute: number;
  smtpUrl?: string;
  /** From address of the mails the service sends (RIVALS_MAIL_FROM). */
  mailFrom: string;
  /** Members' single sign-on with an OpenID Connect provider, when all three variables are set. */
  oidc?: { issuer: string; clientId: string; clientSecret: string };
  /** RIVALS_SIGNUP: who may create a workspace from the web. `open` (default): anyone, at /signup;
   * `invite-only`: nobody (/signup says to ask an admin for an invitation); `off`: nobody (/signup answers 404,
   * saying there is no sign-up).
   * Invitations and the CLI's `org create` and `member add` work in every mode. */
  signup: SignupMode;
  /** How long research tools and pages wait for a run before answering `status: "running"`
   * (RIVALS_RESEARCH_WAIT_MS, default 20000). */
  researchWaitMs: number;
  /** RIVALS_FETCH_REWRITE: origins whose requests go elsewhere (mirrors, staging, tests). */
  fetchRewrite: RewriteRule[];
  /** Where the demo workspace's fetches go, host by host (`serve --demo` sets it to the listener serving the
   * demo's fictional web). Not an environment variable: empty, the demo workspace reaches nothing. */
  demoSites: RewriteRule[];
  /** RIVALS_FETCH_DELAY_MS: pause between two requests to one host. */
  fetchDelayMs: number;
  /** RIVALS_FETCH_TIMEOUT_MS: per request, headers and body. */
  fetchTimeoutMs: number;
  /** RIVALS_FETCH_MAX_BYTES: largest (decoded) body read. */
  fetchMaxBytes: number;
  /** RIVALS_BOT_CONTACT: an email address or URL the /bot page gives site owners. */
  botContact?: string;
  /** Versions of each monitored source the snapshot store keeps (RIVALS_SNAPSHOTS_KEPT). */
  snapshotsKept: number;
  /** Days after which an open engine signal that was not seen again closes (RIVALS_SIGNAL_TTL_DAYS). */
  signalTtlDays: number;
  /** Hours between two compactions run by `rivals serve`, one instance for all (RIVALS_COMPACT_HOURS; 0: off). */
  compactHours: number;
  /** Months of web-archive history read for a competitor's key pages (RIVALS_ARCHIVE_MONTHS; 0: off). */
  archiveMonths: number;
  /** RIVALS_ARCHIVE_DELAY_MS: the least pause between two requests to the web archive. */
  archiveDelayMs: number;
  /** The in-process scheduler of `serve` (RIVALS_SCHEDULER=off disables it). */
  scheduler: boolean;
  /** Largest delay after a cadence slot's start before a workspace's cycle is due (RIVALS_SCHEDULER_JITTER_MS;
   * at most a tenth of the cadence's period). */
  schedulerJitterMs: number;
  /** Competitors one instance's scheduler checks at once over all its cycles (RIVALS_SCHEDULER_LANES). */
  schedulerLanes: number;
  /** Checks an hour the cycles may spend on one host that many competitors' sources share, a job board provider
   * or a public API (RIVALS_SHARED_HOST_HOURLY; default 40% of an hour at RIVALS_FETCH_DELAY_MS). More sources
   * than that on one host are checked in rotation (src/engine/schedule/rotation.ts). */
  sharedHostHourly: number;
  /** The optional language-model writer (docs/engine/write.md): an OpenAI-compatible endpoint, when all three of
   * RIVALS_LLM_BASE_URL, RIVALS_LLM_MODEL and RIVALS_LLM_API_KEY are set. The key is never logged. */
  llm?: { baseUrl: string; model: string; apiKey: string };
  /** The public free-brief form takes requests (RIVALS_FREE_BRIEFS=off turns it off; default on). */
  freeBriefs: boolean;
  /** New free briefs are held until an operator publishes them (`rivals briefs`); RIVALS_FREE_BRIEF_REVIEW=off
   * publishes them as they are written. Default on. */
  freeBriefReview: boolean;
  /** RIVALS_FREE_BRIEF_BUDGET_MS: how long one free brief's research may take. */
  freeBriefBudgetMs: number;
  /** RIVALS_UNSAFE_WEBHOOK_ORIGINS: origins a team-chat webhook may name although they are plain http or
   * not public (a chat bridge on the operator's own network, tests). Every workspace can use them. Default
   * none: webhooks are https on public addresses. */
  unsafeWebhookOrigins: string[];
  /** RIVALS_OAUTH_CIMD_ALLOW_HOSTS: hosts whose OAuth client metadata documents may be fetched from private
   * addresses (loopback ones also over http). */
  oauthCimdAllowHosts: string[];
  /** RIVALS_CORS_ORIGINS: browser origins allowed to call the read API cross-origin. Default none. */
  corsOrigins: string[];
  /** RIVALS_ALLOWED_ORIGINS: browser origins besides the base URL's that may call POST /mcp (the endpoint
   * refuses other Origin headers, against DNS rebinding). Default none. */
  mcpAllowedOrigins: string[];
  /** HOST: the listening address of `rivals serve` (default 0.0.0.0). */
  host: string;
  /** RIVALS_WORKERS: size of the Worker pool that parses fetched pages (default: one per core beyond the
   * first, 1 to 4; at most 16). */
  workers: number;
  /** RIVALS_BROWSER: a Chromium executable for pages that only a browser can read, started by this process with
   * no network of its own (docs/engine/render.md; docs/security.md). */
  browser?: string;
}

/** Parses a comma- or space-separated list of origins (scheme://host[:port], no path). */
function originList(env: Record<string, string | undefined>, name: string): string[] {
  const out: string[] = [];
  for (const item of (env[name] ?? "").split(/[\s,]+/)) {
    if (!item) continue;
    let u: URL | undefined;
    try {
      u = new URL(item);
    } catch {}
    if (
      !u ||
      (u.protocol !== "http:" && u.protocol !== "https:") ||
      u.username ||
      u.password ||
      (u.pathname !== "/" && u.pathname !== "") ||
      u.search ||
      u.hash
    )
      throw new Error(`${name}: ${JSON.stringify(item)} is not an origin (scheme://host[:port])`);
    out.push(u.origin);
  }
  return out;
}

function intVar(env: Record<string, string | undefined>, name: string, dflt: number, min: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === "") return dflt;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min)
    throw new Error(`${name} must be an integer of at least ${min}, got ${JSON.stringify(raw)}`);
  return n;
}

/** 40% of an hour of requests at the pause between two requests to one host (at least a quarter second a request,
 * its own time): 1,440 checks an hour at the default pause of a second. The rest of the hour is the slack that
 * slow answers, Crawl-delays and a late cycle need. */
function sharedHostDefault(env: Record<string, string | undefined>): number {
  const pause = Math.max(intVar(env, "RIVALS_FETCH_DELAY_MS", 1000, 0), 250);
  return Math.floor((0.4 * 3_600_000) / pause);
}

export type SignupMode = "open" | "invite-only" | "off";

/** A browser reached at a DevTools address runs with a network of its own, which Rivals cannot confine. */
function browserPath(raw: string | undefined): string | undefined {
  const v = raw?.trim();
  if (v && /^[a-z][a-z0-9+.-]*:\/\//i.test(v))
    throw new Error(
      `RIVALS_BROWSER must be the path of a Chromium executable (Rivals starts it with no network of its own), got ${JSON.stringify(v)}`,
    );
  return v || undefined;
}

function signupMode(raw: string | undefined): SignupMode {
  const v = (raw ?? "").trim().toLowerCase().replace("_", "-");
  if (v === "" || v === "open") return "open";
  if (v === "invite-only" || v === "invite") return "invite-only";
  if (v === "off") return "off";
  throw new Error(`RIVALS_SIGNUP must be open, invite-only or off, got ${JSON.stringify(raw)}`);
}

function oidcConfig(env: Record<string, string | undefined>): Config["oidc"] {
  const issuer = env.RIVALS_OIDC_ISSUER;
  const clientId = env.RIVALS_OIDC_CLIENT_ID;
  const clientSecret = env.RIVALS_OIDC_CLIENT_SECRET;
  if (!issuer && !clientId && !clientSecret) return undefined;
  if (!issuer || !clientId || !clientSecret)
    throw new Error(
      "Single sign-on needs all of RIVALS_OIDC_ISSUER, RIVALS_OIDC_CLIENT_ID and RIVALS_OIDC_CLIENT_SECRET",
    );
  try {
    new URL(issuer);
  } catch {
    throw new Error(`RIVALS_OIDC_ISSUER must be an absolute URL, got ${issuer}`);
  }
  return { issuer, clientId, clientSecret };
}

const isOn = (v: string | undefined) => ["1", "true", "yes"].includes((v ?? "").toLowerCase());

function llmConfig(env: Record<string, string | undefined>): Pick<Config, "llm"> {
  const baseUrl = env.RIVALS_LLM_BASE_URL?.trim().replace(/\/+$/, "");
  const model = env.RIVALS_LLM_MODEL?.trim();
  const apiKey = env.RIVALS_LLM_API_KEY?.trim();
  if (!baseUrl || !model || !apiKey) return {};
  let u: URL;
  try {
    u = new URL(baseUrl);
  } catch {
    throw new Error(`RIVALS_LLM_BASE_URL must be an http or https URL, got ${JSON.stringify(baseUrl)}`);
  }
  if ((u.protocol !== "http:" && u.protocol !== "https:") || u.username || u.password)
    throw new Error(`RIVALS_LLM_BASE_URL must be an http or https URL without credentials`);
  return { llm: { baseUrl, model, apiKey } };
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const port = env.PORT === undefined || env.PORT === "" ? 3000 : Number(env.PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT must be a port number, got ${env.PORT}`);
  const rate = env.RIVALS_RATE_LIMIT ? Number(env.RIVALS_RATE_LIMIT) : 600;
  if (!Number.isInteger(rate) || rate < 1 || rate > MAX_RATE_LIMIT)
    throw new Error(`RIVALS_RATE_LIMIT must be an integer from 1 to ${MAX_RATE_LIMIT}`);
  const mcpRate = env.RIVALS_MCP_RATE_LIMIT ? Number(env.RIVALS_MCP_RATE_LIMIT) : 600;
  if (!Number.isInteger(mcpRate) || mcpRate < 1)
    throw new Error("RIVALS_MCP_RATE_LIMIT must be a positive integer");
  const baseUrl = (env.RIVALS_BASE_URL || `http://localhost:${port}`).replace(/\/+$/, "");
  try {
    new URL(baseUrl);
  } catch {
    throw new Error(`RIVALS_BASE_URL must be an absolute URL, got ${baseUrl}`);
  }
  return {
    dbUrl: env.RIVALS_DB || "file:./data/rivals.db",
    port,
    baseUrl,
    baseUrlSet: Boolean(env.RIVALS_BASE_URL),
    trustProxy: isOn(env.RIVALS_TRUST_PROXY),
    accessLog: isOn(env.RIVALS_ACCESS_LOG),
    rateLimitPerMinute: rate,
    mcpRateLimitPerMinute: mcpRate,
    smtpUrl: env.RIVALS_SMTP_URL || undefined,
    mailFrom: env.RIVALS_MAIL_FROM || `Rivals <no-reply@${new URL(baseUrl).hostname}>`,
    oidc: oidcConfig(env),
    signup: signupMode(env.RIVALS_SIGNUP),
    researchWaitMs: intVar(env, "RIVALS_RESEARCH_WAIT_MS", 20_000, 0),
    fetchRewrite: parseRewrite(env.RIVALS_FETCH_REWRITE),
    demoSites: [],
    fetchDelayMs: intVar(env, "RIVALS_FETCH_DELAY_MS", 1000, 0),
    fetchTimeoutMs: intVar(env, "RIVALS_FETCH_TIMEOUT_MS", 15_000, 1),
    fetchMaxBytes: intVar(env, "RIVALS_FETCH_MAX_BYTES", 5 * 1024 * 1024, 1),
    botContact: env.RIVALS_BOT_CONTACT?.trim() || undefined,
    snapshotsKept: intVar(env, "RIVALS_SNAPSHOTS_KEPT", 20, 1),
    signalTtlDays: intVar(env, "RIVALS_SIGNAL_TTL_DAYS", 90, 1),
    compactHours: intVar(env, "RIVALS_COMPACT_HOURS", 24, 0),
    archiveMonths: Math.min(intVar(env, "RIVALS_ARCHIVE_MONTHS", 24, 0), 120),
    archiveDelayMs: intVar(env, "RIVALS_ARCHIVE_DELAY_MS", 1000, 0),
    scheduler: !["off", "0", "false", "no"].includes((env.RIVALS_SCHEDULER ?? "").trim().toLowerCase()),
    schedulerJitterMs: intVar(env, "RIVALS_SCHEDULER_JITTER_MS", 600_000, 0),
    schedulerLanes: intVar(env, "RIVALS_SCHEDULER_LANES", PROCESS_LANES, 1),
    sharedHostHourly: intVar(env, "RIVALS_SHARED_HOST_HOURLY", sharedHostDefault(env), 1),
    freeBriefs: !["off", "0", "false", "no"].includes((env.RIVALS_FREE_BRIEFS ?? "").trim().toLowerCase()),
    freeBriefReview: !["off", "0", "false", "no"].includes(
      (env.RIVALS_FREE_BRIEF_REVIEW ?? "").trim().toLowerCase(),
    ),
    freeBriefBudgetMs: intVar(env, "RIVALS_FREE_BRIEF_BUDGET_MS", FREE_BRIEF.researchBudgetMs, 1),
    ...llmConfig(env),
    unsafeWebhookOrigins: originList(env, "RIVALS_UNSAFE_WEBHOOK_ORIGINS"),
    oauthCimdAllowHosts: (env.RIVALS_OAUTH_CIMD_ALLOW_HOSTS ?? "")
      .split(/[\s,]+/)
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
    corsOrigins: originList(env, "RIVALS_CORS_ORIGINS"),
    mcpAllowedOrigins: (env.RIVALS_ALLOWED_ORIGINS ?? "")
      .split(",")
      .map((o) => o.trim())
      .filter(Boolean),
    host: env.HOST || "0.0.0.0",
    workers: Math.min(
      intVar(env, "RIVALS_WORKERS", Math.max(1, Math.min(4, availableParallelism() - 1)), 1),
      16,
    ),
    browser: browserPath(env.RIVALS_BROWSER),
  };
}
