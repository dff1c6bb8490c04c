// People: users (global), memberships and invitations (per org). Sessions are operational, not here.
import type { StoredEvent } from "../events/catalog.ts";
import type { Tx } from "../events/store.ts";

export async function projectMembers(e: StoredEvent, tx: Tx): Promise<void> {
  switch (e.type) {
    case "UserRegistered":
      await tx.execute({
        sql: "INSERT INTO users (id, email, name, created_at) VALUES (?, ?, ?, ?)",
        args: [e.data.id, e.data.email, e.data.name ?? null, e.data.created_at],
      });
      break;
    case "UserPasswordSet":
      await tx.execute({
        sql: "UPDATE users SET password_hash = ? WHERE id = ?",
        args: [e.data.password_hash, Number(e.streamId)],
      });
      break;
    case "UserNameChanged":
      await tx.execute({
        sql: "UPDATE users SET name = ? WHERE id = ?",
        args: [e.data.name, Number(e.streamId)],
      });
      break;
    case "MembershipGranted":
      await tx.execute({
        sql: `INSERT INTO memberships (org_id, user_id, role, joined_at) VALUES (?, ?, ?, ?)
              ON CONFLICT (org_id, user_id) DO UPDATE SET role = excluded.role`,
        args: [e.orgId, e.data.user_id, e.data.role, e.data.joined_at],
      });
      break;
    case "MembershipRoleChanged":
      await tx.execute({
        sql: "UPDATE memberships SET role = ? WHERE org_id = ? AND user_id = ?",
        args: [e.data.role, e.orgId, e.data.user_id],
      });
      break;
    case "MembershipRevoked":
      await tx.execute({
        sql: "DELETE FROM memberships WHERE org_id = ? AND user_id = ?",
        args: [e.orgId, e.data.user_id],
      });
      break;
    case "InvitationCreated":
      await tx.execute({
        sql: `INSERT INTO invitations (id, org_id, email, role, token_hash, invited_by, created_at, expires_at, status)
              VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'pending')`,
        args: [
          e.data.id,
          e.orgId,
          e.data.email,
          e.data.role,
          e.data.token_hash,
          e.data.invited_by,
          e.data.created_at,
          e.data.expires_at,
        ],
      });
      break;
    case "InvitationRevoked":
      await tx.execute({
        sql: "UPDATE invitations SET status = ? WHERE id = ? AND org_id = ?",
        args: [e.data.reason === "replaced" ? "replaced" : "revoked", Number(e.streamId), e.orgId],
      });
      break;
    case "InvitationAccepted":
      await tx.execute({
        sql: "UPDATE invitations SET status = 'accepted', accepted_at = ?, user_id = ? WHERE id = ? AND org_id = ?",
        args: [e.data.accepted_at, e.data.user_id, Number(e.streamId), e.orgId],
      });
      break;
  }
}
