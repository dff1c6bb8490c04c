// The free-brief service's work: claims on a piece of work (free_brief_claims, an operational table shared by
// every instance), and what its lanes read of the requests and the public library. The rules (who answers, when
// to email) are src/engine/briefs/freeBriefs.ts.
import type { Row } from "@libsql/client";
import { claim, release } from "./claims.ts";
import { type Exec, found } from "./client.ts";

/** Claims `key` for `holder` until `until`, unless another holder's claim holds at `now`. */
export function claimFreeBriefWork(
  db: Exec,
  key: string,
  holder: string,
  until: string,
  now: string,
): Promise<boolean> {
  return claim(db, "free_brief_claims", key, holder, until, now);
}

export function releaseFreeBriefWork(db: Exec, key: string, holder: string): Promise<void> {
  return release(db, "free_brief_claims", key, holder);
}

/** The queued requests of a domain (ids, at most 1,000, oldest first). */
export async function queuedRequestIds(tx: Exec, domain: string): Promise<number[]> {
  const r = await tx.execute({
    sql: "SELECT id FROM free_brief_requests WHERE state = 'queued' AND domain = ? ORDER BY id LIMIT 1000",
    args: [domain],
  });
  return r.rows.map((row) => Number(row.id));
}

/** The site the oldest queued request of a domain named. */
export async function firstQueuedWebsite(db: Exec, domain: string): Promise<string | undefined> {
  const r = await db.execute({
    sql: "SELECT website_url FROM free_brief_requests WHERE state = 'queued' AND domain = ? ORDER BY id LIMIT 1",
    args: [domain],
  });
  return r.rows[0] ? String(r.rows[0].website_url) : undefined;
}

/** The queued domains, oldest request first (at most 20). */
export async function queuedDomains(db: Exec): Promise<string[]> {
  const r = await db.execute({
    sql: `SELECT domain, MIN(id) AS first FROM free_brief_requests WHERE state = 'queued'
          GROUP BY domain ORDER BY first LIMIT 20`,
    args: [],
  });
  return r.rows.map((row) => String(row.domain));
}

/** The company slug of the newest public brief on a domain. */
export async function companySlugOfDomain(tx: Exec, domain: string): Promise<string | undefined> {
  const r = await tx.execute({
    sql: "SELECT company_slug FROM public_briefs WHERE domain = ? ORDER BY published_at DESC, id DESC LIMIT 1",
    args: [domain],
  });
  return r.rows[0] ? String(r.rows[0].company_slug) : undefined;
}

/** Whether a company slug of the public library is taken. */
export async function companySlugTaken(tx: Exec, companySlug: string): Promise<boolean> {
  return found(tx, {
    sql: "SELECT 1 FROM public_briefs WHERE company_slug = ? LIMIT 1",
    args: [companySlug],
  });
}

/** Whether a company's brief slug is taken. */
export async function briefSlugTaken(tx: Exec, companySlug: string, slug: string): Promise<boolean> {
  return found(tx, {
    sql: "SELECT 1 FROM public_briefs WHERE company_slug = ? AND slug = ?",
    args: [companySlug, slug],
  });
}

/** Requests whose confirmation email is due at `now` (at most 50, oldest first). */
export async function confirmationsDue(db: Exec, now: string): Promise<Row[]> {
  const r = await db.execute({
    sql: `SELECT id, email, domain, confirm_attempts FROM free_brief_requests
          WHERE confirm_state = 'pending' AND (confirm_next_at IS NULL OR confirm_next_at <= ?)
          ORDER BY id LIMIT 50`,
    args: [now],
  });
  return r.rows;
}

/** Answered requests whose email is due at `now`, with their brief unless it is held for review (at most 50). */
export async function answersDue(db: Exec, now: string): Promise<Row[]> {
  const r = await db.execute({
    sql: `SELECT r.id, r.email, r.domain, r.state, r.reason, r.email_attempts, b.company_slug, b.slug,
            b.published_at, b.state AS brief, b.review
          FROM free_brief_requests r LEFT JOIN public_briefs b ON b.id = r.brief_id
          WHERE r.state <> 'queued' AND r.email_state = 'pending' AND (r.email_next_at IS NULL OR r.email_next_at <= ?)
            AND (b.review IS NULL OR b.review <> 'pending')
          ORDER BY r.id LIMIT 50`,
    args: [now],
  });
  return r.rows;
}
