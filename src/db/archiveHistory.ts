// The bookkeeping of a competitor's web-archive history (operational tables): its run and lease, the key pages
// whose captures were listed, the captures to read and what became of them, and the signals it opened. Outside
// the log (like a cycle's record); written through the single writer. Every statement is scoped by the workspace.
// The reader that keeps it is src/engine/archive/.
import type { Services } from "../services.ts";
import type { Exec } from "./client.ts";

/** How long a run's lease lasts without renewal; renewed every third of it. */
export const HISTORY_LEASE_MS = 60_000;

export interface HistoryProgress {
  state: "running" | "finished";
  started_at: string;
  finished_at?: string;
  pages: number;
  captures_listed: number;
  captures_read: number;
  captures_failed: number;
  /** "reading history: 34 of 96 captures" while it runs. */
  text: string;
}

const until = (now: Date) => new Date(now.getTime() + HISTORY_LEASE_MS).toISOString();

/** Takes the competitor's run for the instance `me` (a new one, an unfinished one whose lease expired, or a
 * finished one to bring up to date). False when another live instance holds it. */
export function claimRun(
  s: Services,
  me: string,
  orgId: number,
  competitorId: number,
  months: number,
): Promise<boolean> {
  return s.store.writeTables(async ({ tx, now }) => {
    const row = (
      await tx.execute({
        sql: "SELECT state, holder, expires_at FROM archive_runs WHERE org_id = ? AND competitor_id = ?",
        args: [orgId, competitorId],
      })
    ).rows[0];
    const at = now.toISOString();
    if (
      row &&
      row.state === "running" &&
      row.holder !== null &&
      String(row.holder) !== me &&
      String(row.expires_at ?? "") > at
    )
      return false;
    await tx.execute({
      sql: `INSERT INTO archive_runs (org_id, competitor_id, state, months, started_at, holder, expires_at)
            VALUES (?, ?, 'running', ?, ?, ?, ?)
            ON CONFLICT (org_id, competitor_id) DO UPDATE SET state = 'running', holder = excluded.holder,
              expires_at = excluded.expires_at, finished_at = NULL,
              started_at = CASE WHEN archive_runs.state = 'finished' THEN excluded.started_at ELSE archive_runs.started_at END`,
      args: [orgId, competitorId, months, at, me, until(now)],
    });
    return true;
  });
}

/** A run for `rivals serve` to take up (no holder), unless the competitor has one already. */
export function queueRun(s: Services, orgId: number, competitorId: number, months: number): Promise<unknown> {
  return s.store.writeTables(({ tx, now }) =>
    tx.execute({
      sql: `INSERT INTO archive_runs (org_id, competitor_id, state, months, started_at) VALUES (?, ?, 'running', ?, ?)
            ON CONFLICT (org_id, competitor_id) DO UPDATE SET state = 'running'
            WHERE archive_runs.state = 'finished'`,
      args: [orgId, competitorId, months, now.toISOString()],
    }),
  );
}

export function renewRun(s: Services, me: string, orgId: number, competitorId: number): Promise<unknown> {
  return s.store.writeTables(({ tx, now }) =>
    tx.execute({
      sql: `UPDATE archive_runs SET expires_at = ? WHERE org_id = ? AND competitor_id = ? AND holder = ?
              AND state = 'running'`,
      args: [until(now), orgId, competitorId, me],
    }),
  );
}

export function finishRun(s: Services, orgId: number, competitorId: number): Promise<unknown> {
  return s.store.writeTables(({ tx, now }) =>
    tx.execute({
      sql: `UPDATE archive_runs SET state = 'finished', finished_at = ?, holder = NULL, expires_at = NULL
            WHERE org_id = ? AND competitor_id = ?`,
      args: [now.toISOString(), orgId, competitorId],
    }),
  );
}

/** Lets go of a run the instance `me` holds without finishing it (a stop): another start takes it up at once. */
export function releaseRun(s: Services, me: string, orgId: number, competitorId: number): Promise<unknown> {
  return s.store.writeTables(({ tx }) =>
    tx.execute({
      sql: `UPDATE archive_runs SET holder = NULL, expires_at = NULL WHERE org_id = ? AND competitor_id = ?
              AND holder = ?`,
      args: [orgId, competitorId, me],
    }),
  );
}

/** Runs left unfinished whose lease is gone (their instance stopped or died). */
export async function orphanedRuns(s: Services): Promise<{ orgId: number; competitorId: number }[]> {
  const r = await s.database.client.execute({
    sql: `SELECT org_id, competitor_id FROM archive_runs WHERE state = 'running'
            AND (expires_at IS NULL OR expires_at <= ?) ORDER BY started_at LIMIT 100`,
    args: [s.clock().toISOString()],
  });
  return r.rows.map((row) => ({ orgId: Number(row.org_id), competitorId: Number(row.competitor_id) }));
}

/** Adds the pages not yet known (their captures still to list). */
export function addPages(
  s: Services,
  orgId: number,
  competitorId: number,
  pages: { url: string; kind: string }[],
): Promise<unknown> {
  return s.store.writeTables(async ({ tx }) => {
    for (const p of pages)
      await tx.execute({
        sql: `INSERT INTO archive_pages (org_id, competitor_id, url, kind) VALUES (?, ?, ?, ?)
              ON CONFLICT (org_id, competitor_id, url) DO NOTHING`,
        args: [orgId, competitorId, p.url, p.kind],
      });
  });
}

export interface ArchivePage {
  url: string;
  kind: string;
  listed: boolean;
  ended: boolean;
}

export async function pagesOf(s: Services, orgId: number, competitorId: number): Promise<ArchivePage[]> {
  const r = await s.database.client.execute({
    sql: `SELECT url, kind, listed_at, ended_at FROM archive_pages WHERE org_id = ? AND competitor_id = ?
          ORDER BY url`,
    args: [orgId, competitorId],
  });
  return r.rows.map((row) => ({
    url: String(row.url),
    kind: String(row.kind),
    listed: row.listed_at !== null,
    ended: row.ended_at !== null,
  }));
}

/** Records a page's listing: its captures (pending), or why the index could not be read. */
export function recordListing(
  s: Services,
  orgId: number,
  competitorId: number,
  url: string,
  listing: { timestamps: string[] } | { error: string },
): Promise<unknown> {
  return s.store.writeTables(async ({ tx, now }) => {
    if ("timestamps" in listing)
      for (const ts of listing.timestamps)
        await tx.execute({
          sql: `INSERT INTO archive_captures (org_id, competitor_id, url, timestamp) VALUES (?, ?, ?, ?)
                ON CONFLICT DO NOTHING`,
          args: [orgId, competitorId, url, ts],
        });
    await tx.execute({
      sql: `UPDATE archive_pages SET listed_at = ?, list_error = ? WHERE org_id = ? AND competitor_id = ? AND url = ?`,
      args: [now.toISOString(), "error" in listing ? listing.error : null, orgId, competitorId, url],
    });
  });
}

export function markPageEnded(
  s: Services,
  orgId: number,
  competitorId: number,
  url: string,
): Promise<unknown> {
  return s.store.writeTables(({ tx, now }) =>
    tx.execute({
      sql: "UPDATE archive_pages SET ended_at = ? WHERE org_id = ? AND competitor_id = ? AND url = ?",
      args: [now.toISOString(), orgId, competitorId, url],
    }),
  );
}

export async function capturesListed(s: Services, orgId: number, competitorId: number): Promise<number> {
  const r = await s.database.client.execute({
    sql: "SELECT COUNT(*) AS n FROM archive_captures WHERE org_id = ? AND competitor_id = ?",
    args: [orgId, competitorId],
  });
  return Number(r.rows[0].n);
}

/** The oldest capture still to read. */
export async function nextCapture(
  s: Services,
  orgId: number,
  competitorId: number,
): Promise<{ url: string; timestamp: string; kind: string } | null> {
  const r = await s.database.client.execute({
    sql: `SELECT c.url, c.timestamp, p.kind FROM archive_captures c
          JOIN archive_pages p ON p.org_id = c.org_id AND p.competitor_id = c.competitor_id AND p.url = c.url
          WHERE c.org_id = ? AND c.competitor_id = ? AND c.state = 'pending'
          ORDER BY c.timestamp, c.url LIMIT 1`,
    args: [orgId, competitorId],
  });
  const row = r.rows[0];
  return row ? { url: String(row.url), timestamp: String(row.timestamp), kind: String(row.kind) } : null;
}

export function markCapture(
  s: Services,
  orgId: number,
  competitorId: number,
  c: { url: string; timestamp: string },
  outcome: { error?: string },
): Promise<unknown> {
  return s.store.writeTables(({ tx }) =>
    tx.execute({
      sql: `UPDATE archive_captures SET state = ?, error = ? WHERE org_id = ? AND competitor_id = ? AND url = ?
              AND timestamp = ?`,
      args: [
        outcome.error ? "failed" : "read",
        outcome.error ?? null,
        orgId,
        competitorId,
        c.url,
        c.timestamp,
      ],
    }),
  );
}

/** The newest capture of a page that was read, if any. */
export async function lastReadCapture(
  s: Services,
  orgId: number,
  competitorId: number,
  url: string,
): Promise<string | null> {
  const r = await s.database.client.execute({
    sql: `SELECT MAX(timestamp) AS ts FROM archive_captures WHERE org_id = ? AND competitor_id = ? AND url = ?
            AND state = 'read'`,
    args: [orgId, competitorId, url],
  });
  return r.rows[0]?.ts == null ? null : String(r.rows[0].ts);
}

export function recordFound(
  s: Services,
  orgId: number,
  competitorId: number,
  signalIds: number[],
): Promise<unknown> {
  if (signalIds.length === 0) return Promise.resolve();
  return s.store.writeTables(async ({ tx, now }) => {
    for (const id of signalIds)
      await tx.execute({
        sql: `INSERT INTO archive_signals (org_id, competitor_id, signal_id, found_at) VALUES (?, ?, ?, ?)
              ON CONFLICT DO NOTHING`,
        args: [orgId, competitorId, id, now.toISOString()],
      });
  });
}

/** The run's progress and the counts of what it read and found, or null before any run. */
export async function historyProgress(
  s: Services,
  orgId: number,
  competitorId: number,
): Promise<
  (HistoryProgress & { signals_created: number; signals_open: number; signals_closed: number }) | null
> {
  const c = s.database.client;
  const [run, caps, pages, sig] = await Promise.all([
    c.execute({
      sql: "SELECT state, started_at, finished_at FROM archive_runs WHERE org_id = ? AND competitor_id = ?",
      args: [orgId, competitorId],
    }),
    c.execute({
      sql: `SELECT COUNT(*) AS n, COALESCE(SUM(state = 'read'), 0) AS r, COALESCE(SUM(state = 'failed'), 0) AS f
            FROM archive_captures WHERE org_id = ? AND competitor_id = ?`,
      args: [orgId, competitorId],
    }),
    c.execute({
      sql: "SELECT COUNT(*) AS n FROM archive_pages WHERE org_id = ? AND competitor_id = ?",
      args: [orgId, competitorId],
    }),
    c.execute({
      sql: `SELECT COUNT(*) AS n, COALESCE(SUM(e.status = 'open'), 0) AS o FROM archive_signals a
            JOIN engine_signals e ON e.id = a.signal_id AND e.org_id = a.org_id
            WHERE a.org_id = ? AND a.competitor_id = ?`,
      args: [orgId, competitorId],
    }),
  ]);
  const r = run.rows[0];
  if (!r) return null;
  const listed = Number(caps.rows[0].n);
  const read = Number(caps.rows[0].r);
  const failed = Number(caps.rows[0].f);
  const state = String(r.state) === "finished" ? "finished" : "running";
  const created = Number(sig.rows[0].n);
  const open = Number(sig.rows[0].o);
  return {
    state,
    started_at: String(r.started_at),
    ...(r.finished_at !== null ? { finished_at: String(r.finished_at) } : {}),
    pages: Number(pages.rows[0].n),
    captures_listed: listed,
    captures_read: read,
    captures_failed: failed,
    text:
      state === "running"
        ? `reading history: ${read + failed} of ${listed} captures`
        : `history read: ${read} of ${listed} captures${failed ? ` (${failed} failed)` : ""}`,
    signals_created: created,
    signals_open: open,
    signals_closed: created - open,
  };
}

/** The signals history found at or after `since` (a workspace's), most recently found first. */
export async function historyFoundSince(
  s: Services,
  orgId: number,
  since: string,
  limit: number,
): Promise<{ id: number; foundAt: string }[]> {
  const r = await s.database.client.execute({
    sql: `SELECT signal_id, found_at FROM archive_signals WHERE org_id = ? AND found_at >= ?
          ORDER BY found_at DESC LIMIT ?`,
    args: [orgId, since, limit],
  });
  return r.rows.map((x) => ({ id: Number(x.signal_id), foundAt: String(x.found_at) }));
}

/** The competitor the history is of (id and name), undefined when it left the workspace. */
export async function historyCompetitor(
  s: Services,
  orgId: number,
  competitorId: number,
): Promise<{ id: number; name: string } | undefined> {
  const r = await s.database.client.execute({
    sql: "SELECT id, name FROM competitors WHERE org_id = ? AND id = ?",
    args: [orgId, competitorId],
  });
  const row = r.rows[0];
  return row ? { id: Number(row.id), name: String(row.name) } : undefined;
}

/** The competitor's open signals last seen before `cutoff` (at most 1,000, oldest id first). */
export async function staleCompetitorSignals(
  tx: Exec,
  orgId: number,
  competitorId: number,
  cutoff: string,
): Promise<{ id: number; lastSeenAt: string }[]> {
  const r = await tx.execute({
    sql: `SELECT id, last_seen_at FROM engine_signals WHERE org_id = ? AND competitor_id = ? AND status = 'open'
            AND last_seen_at < ? ORDER BY id LIMIT 1000`,
    args: [orgId, competitorId, cutoff],
  });
  return r.rows.map((x) => ({ id: Number(x.id), lastSeenAt: String(x.last_seen_at) }));
}
