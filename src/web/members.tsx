// /app/settings/members: the workspace's people. Everyone sees the members and their roles (as
// list_members does); admins also see pending invitations and can change a role, remove a member and
// withdraw an invitation. The rules (admins only, never without an admin) are in
// src/domain/memberChanges.ts; this file only renders and maps refusals to pages.
/** @jsxRuntime classic */
/** @jsx Html.createElement */
/** @jsxFrag Html.Fragment */
import { Elysia } from "elysia";
import { type Membership, verifyCsrf } from "../auth/session.ts";
import { DomainError } from "../domain/errors.ts";
import { type InvitationView, pendingInvitations } from "../domain/invitations.ts";
import { changeMemberRole, removeMember, withdrawInvitation } from "../domain/memberChanges.ts";
import { listMembers, type MemberView, ROLES } from "../domain/members.ts";
import { InvalidInput } from "../domain/validate.ts";
import type { Services } from "../services.ts";
import { member, privatePage } from "./app.tsx";
import { AppPage, NoWorkspace } from "./appShell.tsx";
import { Csrf, DangerAction, Notice, Time } from "./components.tsx";
import { csrfRefused, refusalPage } from "./errors.tsx";
import { decimalId, field, notFound, redirect } from "./http.ts";
import { Html } from "./layout.tsx";
import { membershipBySlug } from "./workspace.ts";

export const MEMBERS_PATH = "/app/settings/members";

const DONE: Record<string, string> = {
  role: "The role was changed. It applies from the person's next request, also to their connected apps.",
  removed:
    "The member was removed. They lost access to this workspace at once, and their connected apps' access here was revoked.",
  withdrawn: "The invitation was withdrawn. Its link no longer works.",
};

function OrgField({ org, csrf }: { org: Membership; csrf: string }): JSX.Element {
  return (
    <>
      <Csrf token={csrf} />
      <input type="hidden" name="org" value={org.orgSlug} />
    </>
  );
}

function MemberTable(p: { members: MemberView[]; org: Membership; csrf: string; selfId: number }) {
  const admin = p.org.role === "admin";
  return (
    <div class="scroll">
      <table class="members stack">
        <thead>
          <tr>
            <th>Name</th>
            <th>Email</th>
            <th>Role</th>
            <th>Joined</th>
            {admin ? <th>Remove</th> : ""}
          </tr>
        </thead>
        <tbody>
          {p.members.map((x) => (
            <tr data-user-id={String(x.user_id)}>
              <td data-label="Name">
                <span safe>{x.name ?? ""}</span>
                {x.user_id === p.selfId ? <span class="muted"> (you)</span> : ""}
              </td>
              <td data-label="Email" safe>
                {x.email}
              </td>
              <td data-label="Role">
                {admin ? (
                  <form method="post" action={`${MEMBERS_PATH}/${x.user_id}/role`} class="inline">
                    <OrgField org={p.org} csrf={p.csrf} />
                    <select name="role" aria-label={`Role of ${x.email}`}>
                      {ROLES.map((r) => (
                        <option value={r} selected={r === x.role}>
                          {r}
                        </option>
                      ))}
                    </select>{" "}
                    <button type="submit" class="secondary">
                      Change
                    </button>
                  </form>
                ) : (
                  Html.escapeHtml(x.role)
                )}
              </td>
              <td data-label="Joined">
                <Time ts={x.joined_at} />
              </td>
              {admin ? (
                <td data-label="Remove">
                  <DangerAction
                    action={`${MEMBERS_PATH}/${x.user_id}/remove`}
                    csrf={p.csrf}
                    org={p.org.orgSlug}
                    label="Remove"
                    ariaLabel={`Remove ${x.email}`}
                  />
                </td>
              ) : (
                ""
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function InvitationTable(p: { invitations: InvitationView[]; org: Membership; csrf: string }) {
  if (p.invitations.length === 0) return <p class="muted">No pending invitations.</p>;
  return (
    <div class="scroll">
      <table class="invitations stack">
        <thead>
          <tr>
            <th>Email</th>
            <th>Invited by</th>
            <th>Sent</th>
            <th>Expires</th>
            <th>Withdraw</th>
          </tr>
        </thead>
        <tbody>
          {p.invitations.map((i) => (
            <tr data-invitation-id={String(i.id)}>
              <td data-label="Email" safe>
                {i.email}
              </td>
              <td data-label="Invited by" safe>
                {i.invited_by ?? ""}
              </td>
              <td data-label="Sent">
                <Time ts={i.invited_at} />
              </td>
              <td data-label="Expires">
                <Time ts={i.expires_at} />
              </td>
              <td data-label="Withdraw">
                <DangerAction
                  action={`${MEMBERS_PATH}/invitations/${i.id}/withdraw`}
                  csrf={p.csrf}
                  org={p.org.orgSlug}
                  label="Withdraw"
                  ariaLabel={`Withdraw the invitation to ${i.email}`}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function membersPages(s: Services) {
  const client = s.database.client;

  async function render(request: Request, opts: { org?: Membership; error?: string } = {}, status = 200) {
    const m = await member(s, request);
    if (m instanceof Response) return m;
    const org = opts.org ?? m.ws.current;
    if (!org) return privatePage(<NoWorkspace session={m.session} />);
    const admin = org.role === "admin";
    const members = await listMembers(client, org.orgId);
    const invitations = admin ? await pendingInvitations(client, org.orgId, s.clock()) : [];
    const done = DONE[new URL(request.url).searchParams.get("done") ?? ""];
    const csrf = m.session.csrfToken;
    return privatePage(
      <AppPage session={m.session} current={org} title="Members" section="members" switchTo={MEMBERS_PATH}>
        <h1>Members</h1>
        <p>
          People in <strong safe>{org.orgName}</strong>. Admins can do everything, including API keys,
          invitations and managing members; members read and use the team tools.
        </p>
        {done ? <Notice>{Html.escapeHtml(done)}</Notice> : ""}
        {opts.error ? <Notice kind="error">{Html.escapeHtml(opts.error)}</Notice> : ""}
        {admin ? (
          ""
        ) : (
          <Notice>Only admins can change roles, remove members and see pending invitations.</Notice>
        )}
        <MemberTable members={members} org={org} csrf={csrf} selfId={m.session.userId} />
        {admin ? (
          <>
            <h2>Pending invitations</h2>
            <p class="muted">
              Invitations are sent with the <code>invite_member</code> tool; each link works once, for 7 days.
            </p>
            <InvitationTable invitations={invitations} org={org} csrf={csrf} />
          </>
        ) : (
          ""
        )}
      </AppPage>,
      opts.org ? undefined : m.ws,
      status,
    );
  }

  /** Runs a POSTed change for a workspace the person belongs to; maps the domain's refusals to pages. */
  async function change(
    request: Request,
    body: unknown,
    run: (org: Membership, by: { orgId: number; userId: number }) => Promise<string>,
  ): Promise<Response> {
    const m = await member(s, request);
    if (m instanceof Response) return m;
    if (!verifyCsrf(m.session, field(body, "csrf"))) return csrfRefused(m.session.email);
    const org = membershipBySlug(m.session, field(body, "org")) ?? notFound();
    try {
      const location = await run(org, { orgId: org.orgId, userId: m.session.userId });
      return redirect(location);
    } catch (e) {
      if (e instanceof InvalidInput)
        return render(request, { org, error: `Not changed: ${e.message}.` }, 400);
      if (!(e instanceof DomainError)) throw e;
      if (e.code === "forbidden") return refusalPage("Admins only", e.message, 403, m.session.email);
      if (e.code === "not_found") notFound();
      if (e.code === "conflict") return render(request, { org, error: e.message }, 409);
      throw e;
    }
  }

  const back = (org: Membership, done: string) =>
    `${MEMBERS_PATH}?org=${encodeURIComponent(org.orgSlug)}&done=${done}`;

  return new Elysia({ name: "web-members" })
    .get(MEMBERS_PATH, ({ request }) => render(request))
    .post(`${MEMBERS_PATH}/:id/role`, ({ request, body, params }) =>
      change(request, body, async (org, by) => {
        const id = decimalId(params.id) ?? notFound();
        await changeMemberRole(s.store, by, id, field(body, "role"));
        return back(org, "role");
      }),
    )
    .post(`${MEMBERS_PATH}/:id/remove`, ({ request, body, params }) =>
      change(request, body, async (org, by) => {
        const id = decimalId(params.id) ?? notFound();
        await removeMember(s.store, by, id);
        // Someone who removed themselves no longer has this workspace to come back to.
        return id === by.userId ? "/app" : back(org, "removed");
      }),
    )
    .post(`${MEMBERS_PATH}/invitations/:id/withdraw`, ({ request, body, params }) =>
      change(request, body, async (org, by) => {
        const id = decimalId(params.id) ?? notFound();
        await withdrawInvitation(s.store, by, id);
        return back(org, "withdrawn");
      }),
    );
}
