// Inviting someone by email: the one command behind the invite_member tool and the Members page's form
// (docs/members.md). It holds every rule — the acting role must be admin; the workspace's plan must be paid;
// the address must be an email address that is not a member yet; the plan's seats bound members plus
// pending invitations; inviting an address again replaces its pending invitation — and then emails the
// link over SMTP, or, without RIVALS_SMTP_URL, hands the link back for the admin to pass on.
import { Html } from "@elysiajs/html";
import { runCommand } from "../../events/command.ts";
import type { EventStore } from "../../events/store.ts";
import type { Config } from "../config.ts";
import { DomainError } from "../domain/errors.ts";
import {
  INVITATION_TTL_MS,
  type InvitationView,
  inviteMember,
  revokeUndeliveredInvitation,
} from "../domain/invitations.ts";
import type { Role } from "../domain/members.ts";
import { mailConfigured, sendMail } from "./mailer.ts";

export interface Inviter {
  orgId: number;
  /** The event metadata's actor: `user:<id>`, `api_key:<id>`. */
  actor: string;
  /** The acting role now: a signed-in person's membership as read on this request; an API key acts as an
   * admin; an OAuth token as its approving member's current role. */
  role: Role;
  /** Recorded as the invitation's `invited_by` (default: the actor). */
  actorName?: string;
  /** Who the email says sent it (default: actorName). */
  signature?: string;
}

export interface SentInvitation {
  invitation: InvitationView;
  /** An earlier pending invitation to the address was replaced; its link no longer works. */
  replaced: boolean;
  emailSent: boolean;
  /** Only when no mail server is configured: the link, for the admin to pass on. Never stored. */
  inviteUrl?: string;
}

function invitationMail(orgName: string, inviter: string, link: string, expiresAt: string) {
  const days = Math.round(INVITATION_TTL_MS / 86_400_000);
  const until = new Date(expiresAt).toUTCString();
  const text = [
    `${inviter} invited you to join ${orgName} on Rivals, the team's competitive-intelligence workspace.`,
    "",
    "Accept the invitation and choose your password here:",
    link,
    "",
    `The link works once and for ${days} days (until ${until}). If you did not expect this, ignore this email.`,
  ].join("\n");
  const e = Html.escapeHtml;
  const html = `<p>${e(inviter)} invited you to join <strong>${e(orgName)}</strong> on Rivals, the team's competitive-intelligence workspace.</p>
<p><a href="${e(link)}">Accept the invitation</a></p>
<p>The link works once and for ${days} days (until ${e(until)}). If you did not expect this, ignore this email.</p>`;
  return { subject: `Join ${orgName} on Rivals`, text, html };
}

/** Invites `rawEmail` to the inviter's workspace as a member and sends the email. Refusals are
 * DomainErrors (`forbidden`, `plan_required`, `conflict`, `limit_reached`, `delivery_failed`) or
 * InvalidInput for a malformed address; a refused or undeliverable invitation leaves no valid link. */
export async function sendInvitation(
  s: { store: EventStore; config: Config },
  by: Inviter,
  rawEmail: string,
  metadata: { request_id?: string } = {},
): Promise<SentInvitation> {
  if (by.role !== "admin")
    throw new DomainError("forbidden", "Only admins of this workspace can invite people.");
  const r = await inviteMember(s.store, by, rawEmail, metadata);
  const link = `${s.config.baseUrl}/invite/${r.token}`;
  const sent = { invitation: r.invitation, replaced: r.replaced > 0 };
  if (!mailConfigured(s.config)) return { ...sent, emailSent: false, inviteUrl: link };
  try {
    await sendMail(s.config, {
      to: r.invitation.email,
      ...invitationMail(r.org.name, by.signature ?? by.actorName ?? by.actor, link, r.invitation.expires_at),
    });
  } catch (e) {
    // Nobody received this link: withdraw it rather than leave a valid invitation behind.
    await runCommand(s.store, revokeUndeliveredInvitation, { id: r.invitation.id }, { caller: by });
    console.error(
      JSON.stringify({
        level: "error",
        request_id: metadata.request_id,
        command: "invite_member",
        error: String(e),
      }),
    );
    throw new DomainError(
      "delivery_failed",
      "The invitation email could not be sent, so its link was withdrawn. Try again later.",
    );
  }
  return { ...sent, emailSent: true };
}
