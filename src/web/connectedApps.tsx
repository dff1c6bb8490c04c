// Connected apps on the integrations page: the OAuth clients that hold approvals or live tokens for this
// workspace, and revoking one (`disconnectApp` in src/domain/oauthConsents.ts). Admins see and revoke every member's; a member
// sees and revokes only the apps they connected themselves.
/** @jsxRuntime classic */
/** @jsx Html.createElement */
/** @jsxFrag Html.Fragment */

import { Elysia } from "elysia";
import { runCommand } from "../../events/command.ts";
import type { Membership } from "../auth/session.ts";
import type { ConnectedApp } from "../db/queries/connectedApps.ts";
import { DomainError } from "../domain/errors.ts";
import { disconnectApp } from "../domain/oauthConsents.ts";
import type { Services } from "../services.ts";
import { DangerAction, Notice, Time } from "./components.tsx";
import { refusalPage } from "./errors.tsx";
import { decimalId, field, notFound, redirect } from "./http.ts";
import { Html } from "./layout.tsx";
import { formMember } from "./member.ts";

export const INTEGRATIONS_PATH = "/app/settings/integrations";
const REVOKE_PATH = `${INTEGRATIONS_PATH}/apps/revoke`;

export function ConnectedApps({
  apps,
  org,
  csrf,
  disconnected,
}: {
  apps: ConnectedApp[];
  org: Membership;
  csrf: string;
  disconnected: boolean;
}): JSX.Element {
  const admin = org.role === "admin";
  return (
    <section id="connected-apps">
      <h2>Connected apps</h2>
      <p>
        AI assistants and other apps that a member connected with OAuth act for that member in this workspace,
        with the permissions approved.{" "}
        {admin ? "As an admin you see every member's apps." : "You see the apps you connected yourself."}{" "}
        Revoking one ends its access at once; to reconnect, it has to ask for approval again.
      </p>
      {disconnected ? (
        <Notice>App access revoked. Its tokens no longer work, and it has to ask again to reconnect.</Notice>
      ) : (
        ""
      )}
      {apps.length === 0 ? (
        <p class="muted">No connected apps.</p>
      ) : (
        <div class="scroll">
          <table class="apps stack">
            <thead>
              <tr>
                <th>App</th>
                <th>Authorized by</th>
                <th>Scopes</th>
                <th>Authorized</th>
                <th>Last used</th>
                <th>Access</th>
              </tr>
            </thead>
            <tbody>
              {apps.map((a) => (
                <tr data-client-id={a.clientId} data-user-id={String(a.userId)}>
                  <td data-label="App">
                    <strong safe>{a.name}</strong>
                    <div class="muted small">
                      {a.documentClient ? <code safe>{a.clientId}</code> : "name given by the app itself"}
                    </div>
                  </td>
                  <td data-label="Authorized by">
                    <span safe>{a.userName ?? a.userEmail}</span>
                    {a.userName ? (
                      <div class="muted small" safe>
                        {a.userEmail}
                      </div>
                    ) : (
                      ""
                    )}
                  </td>
                  <td data-label="Scopes" safe>
                    {a.scopes.join(", ")}
                  </td>
                  <td data-label="Authorized">
                    <Time ts={a.authorizedAt} />
                  </td>
                  <td data-label="Last used">
                    {a.lastUsedAt ? <Time ts={a.lastUsedAt} /> : <span class="muted">not yet</span>}
                  </td>
                  <td data-label="Access">
                    <DangerAction
                      action={REVOKE_PATH}
                      csrf={csrf}
                      org={org.orgSlug}
                      hidden={{ client_id: a.clientId, user_id: String(a.userId) }}
                      label="Revoke"
                      ariaLabel={`Revoke access of ${a.name} for ${a.userEmail}`}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

export function connectedAppsRoutes(s: Services) {
  return new Elysia({ name: "web-connected-apps" }).post(REVOKE_PATH, async ({ request, body }) => {
    const f = await formMember(s, request, body);
    if (f instanceof Response) return f;
    const { m, org } = f;
    const userId = decimalId(field(body, "user_id")) ?? notFound();
    const clientId = field(body, "client_id");
    if (!clientId) notFound();
    try {
      const by = { orgId: org.orgId, userId: m.session.userId, actor: `user:${m.session.userId}` };
      await runCommand(s.store, disconnectApp, { clientId, userId }, { caller: by });
    } catch (e) {
      if (!(e instanceof DomainError)) throw e;
      if (e.code === "forbidden") return refusalPage("Admins only", e.message, 403, m.session.email);
      if (e.code === "not_found") notFound();
      throw e;
    }
    return redirect(
      `${INTEGRATIONS_PATH}?org=${encodeURIComponent(org.orgSlug)}&disconnected=1#connected-apps`,
    );
  });
}
