// Free-brief requests (free_brief_requests): what was asked, how it was answered, its confirmation and whether
// its email went out.
import type { StoredEvent } from "../events/catalog.ts";
import type { Tx } from "../events/store.ts";

export async function projectFreeBriefs(e: StoredEvent, tx: Tx): Promise<void> {
  switch (e.type) {
    case "FreeBriefRequested": {
      const d = e.data;
      // A request without a website (before the form required one) can never be researched.
      const state = d.domain ? "queued" : "failed";
      // Only an address that confirms is emailed: an older request, which asked for no confirmation, is not.
      await tx.execute({
        sql: `INSERT INTO free_brief_requests (id, company_name, website_url, domain, email, requested_at, state, reason,
                email_state, confirm_state, email_withheld, viewer_digest, network)
              VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        args: [
          d.id,
          d.company_name ?? null,
          d.website_url ?? null,
          d.domain ?? null,
          d.email ?? "",
          d.requested_at,
          state,
          d.domain ? null : "requested before free briefs were researched",
          d.confirm ? "waiting" : "none",
          d.confirm ? "pending" : "none",
          d.email_withheld ?? null,
          d.viewer_digest ?? null,
          d.network ?? null,
        ],
      });
      break;
    }
    case "FreeBriefConfirmationEmailed":
      await tx.execute({
        sql: `UPDATE free_brief_requests SET confirm_attempts = confirm_attempts + 1, confirm_error = ?,
                confirm_next_at = ?, confirm_digest = COALESCE(?, confirm_digest),
                confirm_expires_at = COALESCE(?, confirm_expires_at),
                confirm_state = CASE WHEN ? THEN 'sent' WHEN ? THEN 'failed' ELSE 'pending' END
              WHERE id = ?`,
        args: [
          e.data.error ?? null,
          e.data.next_attempt_at ?? null,
          e.data.confirm_digest ?? null,
          e.data.expires_at ?? null,
          e.data.ok ? 1 : 0,
          e.data.gave_up ? 1 : 0,
          e.data.id,
        ],
      });
      break;
    case "FreeBriefConfirmed":
      // The link is used once: its digest goes.
      await tx.execute({
        sql: `UPDATE free_brief_requests SET confirmed_at = ?, confirm_digest = NULL, email_state = 'pending'
              WHERE id = ?`,
        args: [e.data.confirmed_at, e.data.id],
      });
      break;
    case "FreeBriefAnswered":
      await tx.execute({
        sql: `UPDATE free_brief_requests SET state = ?, brief_id = ?, reason = ?, answered_at = ? WHERE id = ?`,
        args: [e.data.outcome, e.data.brief_id ?? null, e.data.reason ?? null, e.data.answered_at, e.data.id],
      });
      break;
    case "FreeBriefEmailed":
      await tx.execute({
        sql: `UPDATE free_brief_requests SET email_attempts = email_attempts + 1, email_error = ?, email_next_at = ?,
                email_state = CASE WHEN ? THEN 'sent' WHEN ? THEN 'failed' WHEN email_state = 'none' THEN 'none'
                  ELSE 'pending' END
              WHERE id = ?`,
        args: [
          e.data.error ?? null,
          e.data.next_attempt_at ?? null,
          e.data.ok ? 1 : 0,
          e.data.gave_up ? 1 : 0,
          e.data.id,
        ],
      });
      break;
  }
}
