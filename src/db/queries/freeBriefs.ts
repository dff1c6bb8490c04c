// The free-brief form's requests: where a browser's request stands, and the request a confirmation token names.
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
