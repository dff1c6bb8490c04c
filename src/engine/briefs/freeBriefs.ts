// Answers free-brief requests in the background (docs/web.md "Free briefs"): each queued company domain is
// researched once (the research engine, through the one fetcher, within a time budget and a lower Crawl-delay
// ceiling; several domains at once), written into a public brief (compose.ts) and recorded in the public library
// (held for review when RIVALS_FREE_BRIEF_REVIEW says so); every request queued for that domain is answered with
// it in the same command (or with one of our own reasons why no brief could be written). Mail goes its own way:
// a confirmation to each address given, and the answer only to an address that confirmed. Work is claimed per
// domain and per email (free_brief_claims), so instances sharing a database never do it twice.
import { runCommand } from "../../../events/command.ts";
import {
  answersDue,
  claimFreeBriefWork,
  confirmationsDue,
  firstQueuedWebsite,
  queuedDomains,
  releaseFreeBriefWork,
} from "../../db/freeBriefWork.ts";
import { publicLinks } from "../../db/queries/publicLibrary.ts";
import {
  answerFreeBriefs,
  type FreeBriefAnswer,
  recordFreeBriefConfirmationEmailed,
  recordFreeBriefEmailed,
} from "../../domain/freeBriefAnswers.ts";
import { briefOfPeriod, FAILURE_REASONS, failureReason, newSecret } from "../../domain/freeBriefs.ts";
import { FREE_BRIEF } from "../../domain/limits.ts";
import { mailConfigured, sendMail } from "../../mail/mailer.ts";
import type { Services } from "../../services.ts";
import { type Fetcher, type FetchResult, tenantFetcher } from "../fetch/index.ts";
import { heartbeat, instanceOf } from "../instance.ts";
import { researchSite } from "../research/index.ts";
import { extractPool } from "../workers/extract.ts";
import { composeBrief } from "./compose.ts";
import { freeBriefConfirmationMail, freeBriefMail } from "./mail.ts";

/** How long a claim holds: longer than one site's research may take. */
const CLAIM_MS = 15 * 60_000;
/** Tries per email before it is given up; between them, the delivery outbox's backoff. */
export const EMAIL_ATTEMPTS = 5;
/** How often `rivals serve` looks for work left by a stop or a failed email. */
const SWEEP_MS = 60_000;
const META = { actor: "engine", source: "free_brief" };
const ENGINE = { actor: "engine" };

async function claim(s: Services, key: string): Promise<boolean> {
  const now = s.clock();
  const until = new Date(now.getTime() + CLAIM_MS).toISOString();
  return claimFreeBriefWork(s.database, key, instanceOf(s), until, now.toISOString());
}

async function release(s: Services, key: string): Promise<void> {
  await releaseFreeBriefWork(s.database, key, instanceOf(s));
}

/** Records the answer of every request still queued for `domain`, publishing the brief first when there is one. */
async function recordAnswer(s: Services, domain: string, answer: FreeBriefAnswer): Promise<void> {
  await runCommand(
    s.store,
    answerFreeBriefs,
    { domain, answer, held: s.config.freeBriefReview },
    { caller: ENGINE, metadata: META },
  );
}

/** The fetcher of one free brief's research: the tenant fetcher (its address guard, robots.txt and pacing)
 * with the lower Crawl-delay ceiling, every request ending by the deadline; `spent` once it has passed. */
export function budgetedFetcher(
  base: Fetcher,
  budgetMs: number,
  now: () => Date,
): Fetcher & { spent(): boolean } {
  const deadline = performance.now() + budgetMs;
  const left = () => deadline - performance.now();
  const outOfTime = (url: string): FetchResult => ({
    ok: false,
    url,
    error: "timeout",
    message: "the research time budget was spent",
    fetchedAt: now().toISOString(),
  });
  return {
    spent: () => left() <= 0,
    fetch: async (req) => {
      const ms = left();
      if (ms <= 0) return outOfTime(req.url);
      let timer: ReturnType<typeof setTimeout> | undefined;
      // A request still waiting for its host's turn is given up at the deadline too.
      const late = new Promise<FetchResult>((resolve) => {
        timer = setTimeout(() => resolve(outOfTime(req.url)), ms);
      });
      try {
        return await Promise.race([
          base.fetch({
            ...req,
            timeoutMs: Math.max(1, Math.min(req.timeoutMs ?? Number.POSITIVE_INFINITY, Math.ceil(ms))),
            crawlDelayCapMs: Math.min(
              req.crawlDelayCapMs ?? Number.POSITIVE_INFINITY,
              FREE_BRIEF.crawlDelayCeilingMs,
            ),
          }),
          late,
        ]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/** Researches one domain and answers its queued requests. */
async function answerDomain(s: Services, domain: string): Promise<void> {
  const existing = await briefOfPeriod(s.database, domain, s.clock());
  if (existing) return recordAnswer(s, domain, { outcome: "existing", briefId: existing.id });
  const first = await firstQueuedWebsite(s.database, domain);
  if (first === undefined) return;
  const website = `${new URL(first).origin}/`;
  const budget = s.config.freeBriefBudgetMs;
  const fetcher = budgetedFetcher(tenantFetcher(s), budget, s.clock);
  let answer: FreeBriefAnswer;
  try {
    let stop: ReturnType<typeof setTimeout> | undefined;
    // Extraction after the last fetch is bounded too: past the budget and a grace, the research is let go.
    const overdue = new Promise<undefined>((resolve) => {
      stop = setTimeout(() => resolve(undefined), budget + 10_000);
    });
    const r = await Promise.race([
      researchSite(website, { fetcher, extractor: extractPool(s.config), now: s.clock }),
      overdue,
    ]).finally(() => clearTimeout(stop));
    if (!r) answer = { outcome: "failed", reason: "out_of_time" };
    else if (!r.ok)
      answer = { outcome: "failed", reason: fetcher.spent() ? "out_of_time" : failureReason(r.code) };
    else {
      const brief = composeBrief({ name: r.name ?? domain, domain, dossier: r.dossier, now: s.clock() });
      answer = brief
        ? { outcome: "published", brief: brief as unknown as Record<string, unknown> }
        : { outcome: "failed", reason: fetcher.spent() ? "out_of_time" : "nothing_stated" };
    }
  } catch (e) {
    console.error(
      JSON.stringify({ level: "error", free_brief: domain, error: String((e as Error)?.stack ?? e) }),
    );
    answer = { outcome: "failed", reason: "internal" };
  }
  await recordAnswer(s, domain, answer);
}

/** Sends the confirmation email of every request that asked for one (when SMTP is configured). Each try has
 * a fresh token: only its digest is recorded, so a link is known to its recipient alone. */
async function sendConfirmations(s: Services): Promise<void> {
  if (!mailConfigured(s.config)) return;
  const rows = await confirmationsDue(s.database, s.clock().toISOString());
  for (const row of rows) {
    const id = Number(row.id);
    const key = `confirm:${id}`;
    if (!(await claim(s, key))) continue;
    try {
      const token = newSecret();
      const link = `${s.config.baseUrl}/free-brief/confirm?token=${token.secret}`;
      const mail = freeBriefConfirmationMail({
        domain: String(row.domain),
        link,
        hours: FREE_BRIEF.confirmHours,
        base: s.config.baseUrl,
      });
      const error = await send(s, String(row.email), mail);
      const attempt = Number(row.confirm_attempts) + 1;
      await runCommand(
        s.store,
        recordFreeBriefConfirmationEmailed,
        { id, attempt, error, maxAttempts: EMAIL_ATTEMPTS, tokenDigest: token.digest },
        { caller: ENGINE, metadata: META },
      );
      if (error !== undefined)
        console.warn(
          JSON.stringify({ level: "warn", msg: "free brief confirmation failed", request: id, error }),
        );
    } finally {
      await release(s, key);
    }
  }
}

async function send(
  s: Services,
  to: string,
  mail: { subject: string; text: string; html: string },
): Promise<string | undefined> {
  try {
    await sendMail(s.config, { to, ...mail });
    return undefined;
  } catch (e) {
    return (e instanceof Error ? e.message : String(e)).slice(0, 500) || "failed";
  }
}

/** Emails every answered request whose address confirmed (when SMTP is configured). A brief held for review
 * is emailed once it is published, or with why it was not. */
async function sendAnswers(s: Services): Promise<void> {
  if (!mailConfigured(s.config)) return;
  const rows = await answersDue(s.database, s.clock().toISOString());
  for (const row of rows) {
    const id = Number(row.id);
    const key = `email:${id}`;
    if (!(await claim(s, key))) continue;
    try {
      const rejected = row.review === "rejected";
      const brief =
        row.company_slug && !rejected
          ? {
              url: publicLinks.brief(s.config.baseUrl, String(row.company_slug), String(row.slug)),
              published_at: String(row.published_at),
              findings: (JSON.parse(String(row.brief)) as { findings: unknown[] }).findings.length,
            }
          : undefined;
      const mail = freeBriefMail({
        domain: String(row.domain),
        outcome: rejected ? "rejected" : (String(row.state) as "published" | "existing" | "failed"),
        ...(brief ? { brief } : {}),
        reason: rejected ? FAILURE_REASONS.rejected : row.reason ? String(row.reason) : undefined,
        periodDays: FREE_BRIEF.periodDays,
        base: s.config.baseUrl,
      });
      const error = await send(s, String(row.email), mail);
      const attempt = Number(row.email_attempts) + 1;
      await runCommand(
        s.store,
        recordFreeBriefEmailed,
        { id, attempt, error, maxAttempts: EMAIL_ATTEMPTS },
        { caller: ENGINE, metadata: META },
      );
      if (error !== undefined)
        console.warn(JSON.stringify({ level: "warn", msg: "free brief email failed", request: id, error }));
    } finally {
      await release(s, key);
    }
  }
}

/** The mail lane's pass: confirmations first (a visitor waits for one), then answers. */
async function mailPass(s: Services): Promise<void> {
  await sendConfirmations(s);
  await sendAnswers(s);
}

/** The research lane's pass: the queued domains (oldest request first), FREE_BRIEF.concurrency at a time;
 * each answered domain starts the mail lane. */
async function researchPass(s: Services): Promise<void> {
  const domains = await queuedDomains(s.database);
  const next = () => domains.shift();
  const worker = async () => {
    for (let domain = next(); domain !== undefined; domain = next()) {
      const key = `research:${domain}`;
      if (!(await claim(s, key))) continue;
      try {
        await answerDomain(s, domain);
      } finally {
        await release(s, key);
      }
      kick(s, "mail", mailPass);
    }
  };
  await Promise.all(Array.from({ length: FREE_BRIEF.concurrency }, worker));
}

type Lane = { again: boolean; done: Promise<void> };
const running = new WeakMap<Services, Map<string, Lane>>();

/** Starts a lane's pass in the background (off the request path); while one runs, asks it to go round once
 * more. Mail and research are separate lanes, so a confirmation never waits for a slow site. */
function kick(s: Services, name: string, work: (s: Services) => Promise<void>): void {
  let lanes = running.get(s);
  if (!lanes) {
    lanes = new Map();
    running.set(s, lanes);
  }
  const cur = lanes.get(name);
  if (cur) {
    cur.again = true;
    return;
  }
  const state: Lane = { again: false, done: Promise.resolve() };
  const mine = lanes;
  state.done = (async () => {
    try {
      do {
        state.again = false;
        await work(s);
      } while (state.again);
    } catch (e) {
      console.error(JSON.stringify({ level: "error", free_briefs: String((e as Error)?.stack ?? e) }));
    } finally {
      mine.delete(name);
    }
  })();
  lanes.set(name, state);
}

/** Starts both lanes: the mail (confirmations, answers) and the research of queued domains. */
export function kickFreeBriefs(s: Services): void {
  kick(s, "mail", mailPass);
  kick(s, "research", researchPass);
}

/** Resolves when no pass is running on `s` (tests, shutdown). */
export async function freeBriefsIdle(s: Services): Promise<void> {
  for (;;) {
    const lanes = [...(running.get(s)?.values() ?? [])];
    if (lanes.length === 0) return;
    await Promise.all(lanes.map((l) => l.done));
  }
}

/** `rivals serve`: a pass now (requests left by a stop), then every minute (emails to retry, briefs an
 * operator has reviewed). */
export function startFreeBriefLoop(s: Services): { stop(): void } {
  kickFreeBriefs(s);
  return heartbeat(SWEEP_MS, "free briefs", async () => kickFreeBriefs(s));
}
