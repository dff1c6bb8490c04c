// Answers free-brief requests in the background (docs/web.md "Free briefs"): each queued company domain is
// researched once (the research engine, through the one fetcher), written into a public brief (compose.ts) and
// published in the public library; every request queued for that domain is answered with it in the same command
// (or with why no brief could be written), and each requester is emailed the link over SMTP. Work is claimed per
// domain and per email (free_brief_claims), so instances sharing a database never do it twice.
import type { NewEvent } from "../../../events/catalog.ts";
import { publicLinks } from "../../db/queries/publicLibrary.ts";
import {
  briefOfPeriod,
  decideFreeBriefAnswered,
  decideFreeBriefEmailed,
  FREE_BRIEF_PERIOD_DAYS,
} from "../../domain/freeBriefs.ts";
import { recordPublicBrief, SLUG } from "../../domain/publicLibrary.ts";
import { mailConfigured, sendMail } from "../../mail/mailer.ts";
import type { Services } from "../../services.ts";
import { fetcherFor } from "../fetch/index.ts";
import { heartbeat, instanceOf } from "../instance.ts";
import { researchSite } from "../research/index.ts";
import { extractPool } from "../workers/extract.ts";
import { composeBrief } from "./compose.ts";
import { freeBriefMail } from "./mail.ts";

/** How long a claim holds: longer than one site's research takes at the fetcher's pace. */
const CLAIM_MS = 15 * 60_000;
/** Tries per email before it is given up; between them, the delivery outbox's backoff. */
export const EMAIL_ATTEMPTS = 5;
/** How often `rivals serve` looks for work left by a stop or a failed email. */
const SWEEP_MS = 60_000;
const META = { actor: "engine", source: "free_brief" };

async function claim(s: Services, key: string): Promise<boolean> {
  const now = s.clock();
  const r = await s.database.client.execute({
    sql: `INSERT INTO free_brief_claims (key, holder, expires_at) VALUES (?, ?, ?)
          ON CONFLICT (key) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
          WHERE free_brief_claims.expires_at < ?`,
    args: [key, instanceOf(s), new Date(now.getTime() + CLAIM_MS).toISOString(), now.toISOString()],
  });
  return r.rowsAffected > 0;
}

async function release(s: Services, key: string): Promise<void> {
  await s.database.client.execute({
    sql: "DELETE FROM free_brief_claims WHERE key = ? AND holder = ?",
    args: [key, instanceOf(s)],
  });
}

/** `acme.example` → `acme-example`, cut to the library's slug rule. */
function domainSlug(domain: string): string {
  return (
    domain
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 100)
      .replace(/-+$/, "") || "company"
  );
}

type Answer =
  | { outcome: "published"; brief: Record<string, unknown> }
  | { outcome: "existing"; briefId: number }
  | { outcome: "failed"; reason: string };

/** Records the answer of every request still queued for `domain`, publishing the brief first when there is one. */
async function recordAnswer(s: Services, domain: string, answer: Answer): Promise<void> {
  await s.store.execute(async (w) => {
    const queued = await w.tx.execute({
      sql: "SELECT id FROM free_brief_requests WHERE state = 'queued' AND domain = ? ORDER BY id LIMIT 1000",
      args: [domain],
    });
    // Answered meanwhile (another instance, or a request answered at once): nothing to publish for.
    if (queued.rows.length === 0) return { events: [], result: null };
    const events: NewEvent[] = [];
    let briefId: number | undefined;
    if (answer.outcome === "published") {
      // The company's slug of an earlier brief on this domain, else one from the domain; the brief's slug is its
      // date, made unique within the company.
      const prior = await w.tx.execute({
        sql: "SELECT company_slug FROM public_briefs WHERE domain = ? ORDER BY published_at DESC, id DESC LIMIT 1",
        args: [domain],
      });
      let companySlug = prior.rows[0] ? String(prior.rows[0].company_slug) : domainSlug(domain);
      if (!prior.rows[0]) {
        const taken = await w.tx.execute({
          sql: "SELECT 1 FROM public_briefs WHERE company_slug = ? LIMIT 1",
          args: [companySlug],
        });
        if (taken.rows[0]) companySlug = `${companySlug.slice(0, 90)}-${await w.nextId()}`;
      }
      const base = `brief-${w.now.toISOString().slice(0, 10)}`;
      let slug = base;
      for (let n = 2; ; n++) {
        const r = await w.tx.execute({
          sql: "SELECT 1 FROM public_briefs WHERE company_slug = ? AND slug = ?",
          args: [companySlug, slug],
        });
        if (!r.rows[0]) break;
        slug = `${base}-${n}`;
      }
      if (!SLUG.test(companySlug)) throw new Error(`bad company slug ${companySlug}`);
      const recorded = await recordPublicBrief(w, {
        kind: "public_brief",
        company_slug: companySlug,
        slug,
        ...answer.brief,
        published_at: w.now.toISOString(),
      });
      events.push(...recorded);
      const e = recorded[0];
      if (e?.type === "PublicBriefRecorded") briefId = e.data.id;
    } else if (answer.outcome === "existing") briefId = answer.briefId;
    for (const row of queued.rows) {
      const id = Number(row.id);
      events.push(decideFreeBriefAnswered(id, answer, briefId, w.now));
    }
    return { events, result: null };
  }, META);
}

/** Researches one domain and answers its queued requests. */
async function answerDomain(s: Services, domain: string): Promise<void> {
  const existing = await briefOfPeriod(s.database.client, domain, s.clock());
  if (existing) return recordAnswer(s, domain, { outcome: "existing", briefId: existing.id });
  const first = await s.database.client.execute({
    sql: "SELECT website_url FROM free_brief_requests WHERE state = 'queued' AND domain = ? ORDER BY id LIMIT 1",
    args: [domain],
  });
  if (!first.rows[0]) return;
  const website = `${new URL(String(first.rows[0].website_url)).origin}/`;
  let answer: Answer;
  try {
    const r = await researchSite(website, {
      fetcher: fetcherFor(s.config),
      extractor: extractPool(s.config),
      now: s.clock,
    });
    if (!r.ok) answer = { outcome: "failed", reason: r.reason };
    else {
      const brief = composeBrief({ name: r.name ?? domain, domain, dossier: r.dossier, now: s.clock() });
      answer = brief
        ? { outcome: "published", brief: brief as unknown as Record<string, unknown> }
        : {
            outcome: "failed",
            reason: `We read ${website} but found nothing it states that a brief could report (no pricing, product, hiring, release or company facts on the pages we could read).`,
          };
    }
  } catch (e) {
    console.error(
      JSON.stringify({ level: "error", free_brief: domain, error: String((e as Error)?.stack ?? e) }),
    );
    answer = { outcome: "failed", reason: "Research stopped on an internal error; nothing was published." };
  }
  await recordAnswer(s, domain, answer);
}

/** Emails every answered request whose email is pending (when SMTP is configured). */
async function sendAnswers(s: Services): Promise<void> {
  if (!mailConfigured(s.config)) return;
  const rows = (
    await s.database.client.execute(
      `SELECT r.id, r.email, r.domain, r.state, r.reason, r.email_attempts, b.company_slug, b.slug, b.company_name,
              b.published_at, b.state AS brief
       FROM free_brief_requests r LEFT JOIN public_briefs b ON b.id = r.brief_id
       WHERE r.state <> 'queued' AND r.email_state = 'pending' AND (r.email_next_at IS NULL OR r.email_next_at <= ?)
       ORDER BY r.id LIMIT 50`,
      [s.clock().toISOString()],
    )
  ).rows;
  for (const row of rows) {
    const id = Number(row.id);
    const key = `email:${id}`;
    if (!(await claim(s, key))) continue;
    try {
      const brief = row.company_slug
        ? {
            name: String(row.company_name),
            url: publicLinks.brief(s.config.baseUrl, String(row.company_slug), String(row.slug)),
            published_at: String(row.published_at),
            findings: (JSON.parse(String(row.brief)) as { findings: unknown[] }).findings.length,
          }
        : undefined;
      const mail = freeBriefMail({
        domain: String(row.domain),
        outcome: String(row.state) as "published" | "existing" | "failed",
        ...(brief ? { brief } : {}),
        ...(row.reason ? { reason: String(row.reason) } : {}),
        periodDays: FREE_BRIEF_PERIOD_DAYS,
        base: s.config.baseUrl,
      });
      let error: string | undefined;
      try {
        await sendMail(s.config, { to: String(row.email), ...mail });
      } catch (e) {
        error = (e instanceof Error ? e.message : String(e)).slice(0, 500) || "failed";
      }
      const attempt = Number(row.email_attempts) + 1;
      await s.store.execute(
        async (w) => ({
          events: [decideFreeBriefEmailed(id, attempt, w.now, error, EMAIL_ATTEMPTS)],
          result: null,
        }),
        META,
      );
      if (error !== undefined)
        console.warn(JSON.stringify({ level: "warn", msg: "free brief email failed", request: id, error }));
    } finally {
      await release(s, key);
    }
  }
}

/** One pass: every queued domain (oldest request first) researched and answered, then the emails. */
async function pass(s: Services): Promise<void> {
  await sendAnswers(s);
  const domains = (
    await s.database.client.execute(
      `SELECT domain, MIN(id) AS first FROM free_brief_requests WHERE state = 'queued'
       GROUP BY domain ORDER BY first LIMIT 20`,
    )
  ).rows.map((r) => String(r.domain));
  for (const domain of domains) {
    const key = `research:${domain}`;
    if (!(await claim(s, key))) continue;
    try {
      await answerDomain(s, domain);
    } finally {
      await release(s, key);
    }
    await sendAnswers(s);
  }
}

const running = new WeakMap<Services, { again: boolean; done: Promise<void> }>();

/** Starts a pass in the background (off the request path); while one runs, asks it to go round once more. */
export function kickFreeBriefs(s: Services): void {
  const cur = running.get(s);
  if (cur) {
    cur.again = true;
    return;
  }
  const state = { again: false, done: Promise.resolve() };
  state.done = (async () => {
    try {
      do {
        state.again = false;
        await pass(s);
      } while (state.again);
    } catch (e) {
      console.error(JSON.stringify({ level: "error", free_briefs: String((e as Error)?.stack ?? e) }));
    } finally {
      running.delete(s);
    }
  })();
  running.set(s, state);
}

/** Resolves when no pass is running on `s` (tests, shutdown). */
export async function freeBriefsIdle(s: Services): Promise<void> {
  for (let cur = running.get(s); cur; cur = running.get(s)) await cur.done;
}

/** `rivals serve`: a pass now (requests left by a stop), then every minute (emails to retry). */
export function startFreeBriefLoop(s: Services): { stop(): void } {
  kickFreeBriefs(s);
  return heartbeat(SWEEP_MS, "free briefs", async () => kickFreeBriefs(s));
}
