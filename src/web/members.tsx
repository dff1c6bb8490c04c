// /app/settings/members: the workspace's people. Everyone sees the members and their roles (as
// list_members does); admins also see pending invitations and can invite someone, change a role, remove a
// member and withdraw an invitation. The rules are in the domain — src/mail/invitation.ts (the same
// command as the invite_member tool) and src/domain/memberChanges.ts (admins only, never without an
// admin); this file only renders and maps refusals to pages.
/** @jsxRuntime classic */
/** @jsx Html.createElement */
/** @jsxFrag Html.Fragment */
import { Elysia } from "elysia";
import { runCommand } from "../../events/command.ts";
import type { Membership } from "../auth/session.ts";
import { DomainError } from "../domain/errors.ts";
import {
  INVITATION_TTL_MS,
  type InvitationView,
  invitePlanRefusal,
  pendingInvitations,
} from "../domain/invitations.ts";
import {
  type ActingAdmin,
  changeMemberRole,
  removeMember,
  withdrawInvitation,
} from "../domain/memberChanges.ts";
import { listMembers, type MemberView, ROLES } from "../domain/members.ts";
import { planOf } from "../domain/plans.ts";
import { InvalidInput } from "../domain/validate.ts";
import { type SentInvitation, sendInvitation } from "../mail/invitation.ts";
import type { Services } from "../services.ts";
import { AppPage, NoWorkspace } from "./appShell.tsx";
import { Csrf, DangerAction, Notice, Time } from "./components.tsx";
import { refusalPage } from "./errors.tsx";
import { decimalId, field, notFound, redirect } from "./http.ts";
import { Html } from "./layout.tsx";
import { formMember, type Member, member, privatePage } from "./member.ts";

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

const TTL_DAYS = Math.round(INVITATION_TTL_MS / 86_400_000);

const SEATS_HELP =
  "Withdraw a pending invitation or remove a member to free a seat, or move the workspace to a plan with more seats.";

interface RenderOpts {
  /** The workspace a form named (otherwise the current one). */
  org?: Membership;
  error?: string;
  /** A plan_required refusal's message. */
  planNeeded?: string;
  /** The invitation form's email, kept after a refusal (whose message is then shown by the form). */
  email?: string;
  invited?: SentInvitation;
}

/** Why a workspace without a paid plan cannot invite: names the plan needed and links to the pricing. */
function PlanNeeded({ message, refused }: { message: string; refused: boolean }): JSX.Element {
  return (
    <Notice kind={refused ? "error" : "notice"}>
      <>
        {Html.escapeHtml(message)} <a href="/pricing">See the plans</a>.
      </>
    </Notice>
  );
}

/** What the admin learns after an invitation went out; without a mail server, the link, shown once. */
function Invited({ sent }: { sent: SentInvitation }): JSX.Element {
  const email = sent.invitation.email;
  const replaced = sent.replaced
    ? " It replaces the earlier invitation to this address, whose link no longer works."
    : "";
  if (!sent.inviteUrl)
    return (
      <Notice>
        {Html.escapeHtml(
          `Invitation sent to ${email}. The link in the email works once, for ${TTL_DAYS} days.${replaced}`,
        )}
      </Notice>
    );
  return (
    <section class="card created" aria-live="polite">
      <h3>
        Invitation for <span safe>{email}</span>
      </h3>
      <p>
        <strong>No mail server is configured, so no email was sent.</strong> Copy this link and send it to
        them yourself: it is shown only once, works once, for {TTL_DAYS} days.
        {Html.escapeHtml(replaced)}
      </p>
      <label for="invite-link">Invitation link</label>
      <input id="invite-link" class="token" readonly value={sent.inviteUrl} size="60" />
    </section>
  );
}

function InviteForm(p: { org: Membership; csrf: string; email: string; seats: number; used: number }) {
  return (
    <form method="post" action={`${MEMBERS_PATH}/invite`} class="card">
      <h3>Invite someone</h3>
      <OrgField org={p.org} csrf={p.csrf} />
      <label for="invite-email">Email</label>
      <input
        id="invite-email"
        name="email"
        type="email"
        value={p.email}
        maxlength="254"
        required
        autocomplete="off"
        placeholder="name@example.com"
      />
      <p class="muted small">
        They join as a member; make them an admin here once they have joined. The link works once, for{" "}
        {TTL_DAYS} days; inviting the same address again sends a new link and the old one stops working. Seats
        used: {p.used} of {p.seats} (members and pending invitations).
      </p>
      <button type="submit">Send invitation</button>
    </form>
  );
}

export function membersPages(s: Services) {
  const client = s.database;

  async function render(m: Member, request: Request, opts: RenderOpts = {}, status = 200) {
    const org = opts.org ?? m.ws.current;
    if (!org) return privatePage(<NoWorkspace session={m.session} />);
    const admin = org.role === "admin";
    const plan = planOf(org.plan);
    const planNeeded = admin ? (opts.planNeeded ?? invitePlanRefusal(plan)) : undefined;
    // A refused invitation's message goes beside the form that was sent.
    const inviteRefused = opts.email !== undefined;
    const error = opts.error ? <Notice kind="error">{Html.escapeHtml(opts.error)}</Notice> : "";
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
        {inviteRefused ? "" : error}
        {admin ? (
          ""
        ) : (
          <Notice>
            Only admins can change roles, remove members, see pending invitations and invite people.
          </Notice>
        )}
        <MemberTable members={members} org={org} csrf={csrf} selfId={m.session.userId} />
        {admin ? (
          <>
            <h2>Invite someone</h2>
            {opts.invited ? <Invited sent={opts.invited} /> : ""}
            {inviteRefused ? error : ""}
            {planNeeded ? <PlanNeeded message={planNeeded} refused={opts.planNeeded !== undefined} /> : ""}
            <InviteForm
              org={org}
              csrf={csrf}
              email={opts.email ?? ""}
              seats={plan.memberSeats}
              used={members.length + invitations.length}
            />
            <h2>Pending invitations</h2>
            <p class="muted">
              Sent from the form above or with the <code>invite_member</code> tool; each link works once, for{" "}
              {TTL_DAYS} days.
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

  /** Runs a POSTed form for a workspace the person belongs to: `run` answers with the address to go to
   * next, or a page to show. Maps the domain's refusals to pages; a refused form keeps `kept`'s values. */
  async function change(
    request: Request,
    body: unknown,
    run: (org: Membership, by: ActingAdmin, m: Member) => Promise<string | Response>,
    kept: RenderOpts = {},
    notDone = "Not changed",
  ): Promise<Response> {
    const f = await formMember(s, request, body);
    if (f instanceof Response) return f;
    const { m, org } = f;
    try {
      const by = { orgId: org.orgId, userId: m.session.userId, actor: `user:${m.session.userId}` };
      const next = await run(org, by, m);
      return typeof next === "string" ? redirect(next) : next;
    } catch (e) {
      const again = (opts: RenderOpts, status: number) =>
        render(m, request, { ...kept, ...opts, org }, status);
      if (e instanceof InvalidInput) return again({ error: `${notDone}: ${e.message}.` }, 400);
      if (!(e instanceof DomainError)) throw e;
      switch (e.code) {
        case "forbidden":
          return refusalPage("Admins only", e.message, 403, m.session.email);
        case "not_found":
          return notFound();
        case "conflict":
          return again({ error: e.message }, 409);
        case "limit_reached":
          return again({ error: `${e.message} ${SEATS_HELP}` }, 409);
        case "plan_required":
          return again({ planNeeded: e.message }, 402);
        case "delivery_failed":
          return again({ error: e.message }, 502);
        default:
          throw e;
      }
    }
  }

  const back = (org: Membership, done: string) =>
    `${MEMBERS_PATH}?org=${encodeURIComponent(org.orgSlug)}&done=${done}`;

  return new Elysia({ name: "web-members" })
    .get(MEMBERS_PATH, async ({ request }) => {
      const m = await member(s, request);
      if (m instanceof Response) return m;
      return render(m, request);
    })
    .post(`${MEMBERS_PATH}/:id/role`, ({ request, body, params }) =>
      change(request, body, async (org, by) => {
        const id = decimalId(params.id) ?? notFound();
        await runCommand(
          s.store,
          changeMemberRole,
          { user_id: id, role: field(body, "role") },
          { caller: by },
        );
        return back(org, "role");
      }),
    )
    .post(`${MEMBERS_PATH}/:id/remove`, ({ request, body, params }) =>
      change(request, body, async (org, by) => {
        const id = decimalId(params.id) ?? notFound();
        await runCommand(s.store, removeMember, { user_id: id }, { caller: by });
        // Someone who removed themselves no longer has this workspace to come back to.
        return id === by.userId ? "/app" : back(org, "removed");
      }),
    )
    .post(`${MEMBERS_PATH}/invite`, ({ request, body, set }) => {
      const email = field(body, "email");
      const requestId = set.headers["x-request-id"] as string | undefined;
      return change(
        request,
        body,
        async (org, by, m) => {
          const invited = await sendInvitation(
            s,
            {
              orgId: org.orgId,
              actor: `user:${by.userId}`,
              role: org.role,
              actorName: m.session.name ?? m.session.email,
            },
            email,
            { request_id: requestId },
          );
          return render(m, request, { org, invited });
        },
        { email },
        "Not sent",
      );
    })
    .post(`${MEMBERS_PATH}/invitations/:id/withdraw`, ({ request, body, params }) =>
      change(request, body, async (org, by) => {
        const id = decimalId(params.id) ?? notFound();
        await runCommand(s.store, withdrawInvitation, { id }, { caller: by });
        return back(org, "withdrawn");
      }),
    );
}
