// People tools: list_members and invite_member (docs/members.md).
import { z } from "zod";
import {
  INVITATION_TTL_MS,
  inviteMember,
  pendingInvitations,
  revokeInvitation,
} from "../../domain/invitations.ts";
import { listMembers } from "../../domain/members.ts";
import { mailConfigured, sendMail } from "../../mail/mailer.ts";
import { Html } from "../../web/layout.tsx";
import { isoTime } from "../schemas.ts";
import { defineTool, READ_ONLY, ToolError } from "../tool.ts";

const member = z.object({
  user_id: z.number().int(),
  email: z.string(),
  name: z.string().optional(),
  role: z.enum(["admin", "member"]),
  joined_at: isoTime,
});

const invitation = z.object({
  id: z.number().int(),
  email: z.string(),
  role: z.literal("member"),
  invited_by: z.string().optional(),
  invited_at: isoTime,
  expires_at: isoTime,
});

export const listMembersTool = defineTool({
  name: "list_members",
  title: "List workspace members",
  description:
    "Lists the people in this workspace with their role (admin or member), name, email and join time, admins first. Admins also see pending invitations (not yet accepted, not expired) with who sent them and when they expire; for members `invitations` is left out.",
  input: {},
  output: {
    members: z.array(member),
    invitations: z.array(invitation).optional().describe("Pending invitations; present for admins only."),
  },
  annotations: READ_ONLY,
  access: "read",
  run: async ({ s, principal, now }) => {
    const members = await listMembers(s.database.client, principal.orgId);
    if (principal.role !== "admin") return { members, invitations: undefined };
    return { members, invitations: await pendingInvitations(s.database.client, principal.orgId, now) };
  },
});

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

export const inviteMemberTool = defineTool({
  name: "invite_member",
  title: "Invite a member",
  description:
    "Emails an invitation to join this workspace as a member. The link lasts 7 days and works once; the invitee sets their name and password on it. Inviting the same address again sends a fresh email with a new link, and the earlier link stops working. Refused for an address that is already a member, and when the plan's member seats are taken. When the server has no mail delivery configured, nothing is emailed and the result carries `invite_url` to pass on.",
  input: {
    email: z.string().min(3).max(254).describe("Email address of the person to invite."),
  },
  output: {
    invitation,
    email_sent: z.boolean().describe("Whether the invitation email was handed to the mail server."),
    replaced_earlier_invitation: z.boolean(),
    invite_url: z.string().optional().describe("Only when email delivery is not configured on this server."),
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  access: "write",
  adminOnly: true,
  paidPlan: true,
  idempotent: true,
  run: async ({ s, principal, base, requestId }, a) => {
    const r = await inviteMember(
      s.store,
      {
        orgId: principal.orgId,
        actor: principal.actor,
        actorName: principal.via === "api_key" ? `API key "${principal.actorName}"` : principal.actorName,
      },
      a.email,
      { request_id: requestId },
    );
    const link = `${base}/invite/${r.token}`;
    const out = {
      invitation: r.invitation,
      replaced_earlier_invitation: r.replaced > 0,
    };
    if (!mailConfigured(s.config)) return { ...out, email_sent: false, invite_url: link };
    try {
      await sendMail(s.config, {
        to: r.invitation.email,
        ...invitationMail(
          r.org.name,
          principal.via === "api_key" ? `An admin of ${r.org.name}` : principal.actorName,
          link,
          r.invitation.expires_at,
        ),
      });
    } catch (e) {
      // Nobody received this link: withdraw it rather than leave a valid invitation behind.
      await revokeInvitation(s.store, principal.orgId, r.invitation.id, "delivery_failed");
      console.error(
        JSON.stringify({ level: "error", request_id: requestId, tool: "invite_member", error: String(e) }),
      );
      throw new ToolError(
        "delivery_failed",
        "The invitation email could not be sent, so its link was withdrawn. Try again later.",
      );
    }
    return { ...out, email_sent: true, invite_url: undefined };
  },
});

export const memberTools = [listMembersTool, inviteMemberTool];
