// The free-brief form's requests: where a browser's request stands, the request a confirmation token names, the counts
// its limits read, and the brief of the period a request is answered with.
import { streamVersionSql } from "../../../events/command.ts";
import type { Exec } from "../client.ts";

/** Where this browser's newest request for `domain` stands, with the brief that answered it; nothing for a
 * request another browser made. */
export async function freeBriefRequestState(db: Exec, domain: string, viewerDigest: string) {
  const r = await db.execute({
    sql: `SELECT r.state, r.reason, r.email_withheld, r.confirm_state, r.confirmed_at, r.email_state,
            b.company_slug, b.slug, b.company_name, b.published_at, b.review
          FROM free_brief_requests r LEFT JOIN public_briefs b ON b.id = r.brief_id
          WHERE r.domain = ? AND r.viewer_digest = ? ORDER BY r.id DESC LIMIT 1`,
    args: [domain, viewerDigest],
  });
  return r.rows[0] as Record<string, unknown> | undefined;
}

/** The unconfirmed request whose confirmation token has this digest. */
export async function unconfirmedRequest(
  db: Exec,
  confirmDigest: string,
): Promise<{ domain: string; confirmExpiresAt: string } | undefined> {
  const r = await db.execute({
    sql: `SELECT domain, confirm_expires_at FROM free_brief_requests
          WHERE confirm_digest = ? AND confirmed_at IS NULL`,
    args: [confirmDigest],
  });
  const row = r.rows[0];
  return row ? { domain: String(row.domain), confirmExpiresAt: String(row.confirm_expires_at) } : undefined;
}

/** Confirmations asked for since `since` under one domain, address or network digest (each by its own index). */
export async function confirmationsAskedSince(
  db: Exec,
  column: "domain" | "email" | "network",
  value: string,
  since: string,
): Promise<number> {
  const r = await db.execute({
    sql: `SELECT COUNT(*) AS n FROM free_brief_requests
          WHERE ${column} = ? AND requested_at >= ? AND confirm_state <> 'none'`,
    args: [value, since],
  });
  return Number(r.rows[0].n);
}

/** The newest brief on `domain` published since `since` that an operator did not reject, if any. */
export async function newestBriefSince(db: Exec, domain: string, since: string) {
  const r = await db.execute({
    sql: `SELECT id, company_slug, slug, company_name, published_at FROM public_briefs
          WHERE domain = ? AND published_at >= ? AND review <> 'rejected'
          ORDER BY published_at DESC, id DESC LIMIT 1`,
    args: [domain, since],
  });
  const row = r.rows[0];
  return row
    ? {
        id: Number(row.id),
        company_slug: String(row.company_slug),
        slug: String(row.slug),
        company_name: String(row.company_name),
        published_at: String(row.published_at),
      }
    : undefined;
}

/** The unconfirmed request whose confirmation token has this digest, as its confirmation decides on it. */
export async function pendingConfirmation(db: Exec, confirmDigest: string) {
  const r = await db.execute({
    sql: `SELECT id, domain, confirm_digest, confirm_expires_at, ${streamVersionSql("free_brief", "id")} AS version
          FROM free_brief_requests WHERE confirm_digest = ? AND confirmed_at IS NULL`,
    args: [confirmDigest],
  });
  const row = r.rows[0];
  return row
    ? {
        id: Number(row.id),
        domain: String(row.domain),
        confirmDigest: String(row.confirm_digest),
        expiresAt: String(row.confirm_expires_at),
        version: Number(row.version),
      }
    : undefined;
}
