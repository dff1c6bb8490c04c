// People tools: list_members and invite_member (docs/members.md).
import { z } from "zod";
import { pendingInvitations } from "../../domain/invitations.ts";
import { listMembers } from "../../domain/members.ts";
import { sendInvitation } from "../../mail/invitation.ts";
import { isoTime } from "../schemas.ts";
import { defineTool, READ_ONLY } from "../tool.ts";
import { pageArgs, pageOfList, pageShape } from "./paging.ts";

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
  title: "List members",
  description: "The workspace's people and roles; admins also see pending invitations.",
  input: pageArgs(100),
  output: {
    members: z.array(member),
    ...pageShape,
    invitations: z.array(invitation).optional().describe("Pending invitations; present for admins only."),
  },
  annotations: READ_ONLY,
  access: "read",
  run: async ({ s, principal, now }, a) => {
    const page = pageOfList(await listMembers(s.database, principal.orgId), a.limit, a.cursor);
    const list = { members: page.items, total: page.total, next_cursor: page.next_cursor };
    if (principal.role !== "admin") return { ...list, invitations: undefined };
    return { ...list, invitations: await pendingInvitations(s.database, principal.orgId, now) };
  },
});

export const inviteMemberTool = defineTool({
  name: "invite_member",
  title: "Invite a member",
  description: "Emails an invitation to join the workspace, valid 7 days; inviting again sends a fresh one.",
  input: {
    email: z.string().min(3).max(254),
  },
  output: {
    invitation,
    email_sent: z.boolean().describe("Whether the invitation email was handed to the mail server."),
    replaced_earlier_invitation: z.boolean(),
    invite_url: z.string().optional().describe("Only when email delivery is not configured on this server."),
    invite_url_redacted: z
      .boolean()
      .optional()
      .describe(
        "true on a retry with the same idempotency_key when the first call returned invite_url: the link is a secret and is not stored, so it is not shown again (invite again for a new link).",
      ),
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  access: "write",
  adminOnly: true,
  idempotent: true,
  // The link carries the invitation's token: stored results keep no secret (only its digest is stored).
  replayResult: ({ invite_url, ...rest }) => (invite_url ? { ...rest, invite_url_redacted: true } : rest),
  run: async ({ s, principal, requestId }, a) => {
    const byKey = principal.via === "api_key";
    const r = await sendInvitation(
      s,
      {
        orgId: principal.orgId,
        actor: principal.actor,
        role: principal.role,
        actorName: byKey ? `API key "${principal.actorName}"` : principal.actorName,
        signature: byKey ? `An admin of ${principal.orgName}` : principal.actorName,
      },
      a.email,
      { request_id: requestId },
    );
    return {
      invitation: r.invitation,
      replaced_earlier_invitation: r.replaced,
      email_sent: r.emailSent,
      invite_url: r.inviteUrl,
      invite_url_redacted: undefined,
    };
  },
});

export const memberTools = [listMembersTool, inviteMemberTool];
