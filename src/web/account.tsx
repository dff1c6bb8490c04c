// /app/settings/account: the signed-in person's own account — name and email, and changing the password
// (src/domain/passwordChange.ts). Wrong current passwords are slowed down like sign-in (per account).
/** @jsxRuntime classic */
/** @jsx Html.createElement */
/** @jsxFrag Html.Fragment */
import { Elysia } from "elysia";
import { type SessionUser, verifyCsrf } from "../auth/session.ts";
import { ACCOUNT_POLICY, throttleFor } from "../auth/throttle.ts";
import { DomainError } from "../domain/errors.ts";
import { findUserById, PASSWORD_MAX, PASSWORD_MIN } from "../domain/members.ts";
import { changePassword } from "../domain/passwordChange.ts";
import { InvalidInput } from "../domain/validate.ts";
import type { Services } from "../services.ts";
import { AppPage } from "./appShell.tsx";
import { Csrf, Notice, PasswordField } from "./components.tsx";
import { csrfRefused } from "./errors.tsx";
import { field, redirect } from "./http.ts";
import { Html } from "./layout.tsx";
import { member, privatePage } from "./member.ts";
import type { Workspace } from "./workspace.ts";

export const ACCOUNT_PATH = "/app/settings/account";

function PasswordForm({ csrf }: { csrf: string }): JSX.Element {
  return (
    <form method="post" action={`${ACCOUNT_PATH}/password`} class="stack">
      <Csrf token={csrf} />
      <PasswordField id="pw-current" name="current_password" label="Current password" kind="current" />
      <PasswordField id="pw-new" name="new_password" label="New password" kind="new" />
      <PasswordField id="pw-again" name="new_password_again" label="New password again" kind="new" />
      <p class="muted small">
        {`${PASSWORD_MIN} to ${PASSWORD_MAX} characters. Your other sessions are signed out when it changes.`}
      </p>
      <button type="submit">Change password</button>
    </form>
  );
}

export function accountPages(s: Services) {
  const client = s.database;
  // Guessing the current password from a stolen session is slowed down like sign-in guessing.
  const guesses = throttleFor(s, ACCOUNT_POLICY, "password_change");

  async function render(
    session: SessionUser,
    ws: Workspace | undefined,
    opts: { error?: string; notice?: string } = {},
    status = 200,
    headers: Record<string, string> = {},
  ): Promise<Response> {
    const user = await findUserById(client, session.userId);
    const res = privatePage(
      <AppPage session={session} current={ws?.current} title="Account" section="account">
        <h1>Your account</h1>
        <dl class="kv">
          <dt>Name</dt>
          <dd safe>{session.name ?? "—"}</dd>
          <dt>Email</dt>
          <dd safe>{session.email}</dd>
        </dl>
        <h2>Password</h2>
        {opts.notice ? <Notice>{Html.escapeHtml(opts.notice)}</Notice> : ""}
        {opts.error ? <Notice kind="error">{Html.escapeHtml(opts.error)}</Notice> : ""}
        {user?.password_hash ? (
          <PasswordForm csrf={session.csrfToken} />
        ) : (
          <Notice>
            Your account signs in with single sign-on, so it has no password here. Change it with your
            identity provider.
          </Notice>
        )}
      </AppPage>,
      ws,
      status,
    );
    for (const [k, v] of Object.entries(headers)) res.headers.set(k, v);
    return res;
  }

  return new Elysia({ name: "web-account" })
    .get(ACCOUNT_PATH, async ({ request }) => {
      const m = await member(s, request);
      if (m instanceof Response) return m;
      const changed = new URL(request.url).searchParams.get("changed") === "1";
      return render(m.session, m.ws, {
        notice: changed ? "Your password was changed. Your other sessions were signed out." : undefined,
      });
    })
    .post(`${ACCOUNT_PATH}/password`, async ({ request, body }) => {
      const m = await member(s, request);
      if (m instanceof Response) return m;
      if (!verifyCsrf(m.session, field(body, "csrf"))) return csrfRefused(m.session.email);
      const key = `user:${m.session.userId}`;
      const wait = await guesses.retryAfter(key);
      if (wait > 0)
        return render(
          m.session,
          m.ws,
          { error: `Too many wrong passwords. Wait ${wait} seconds before trying again.` },
          429,
          { "retry-after": String(wait) },
        );
      const next = field(body, "new_password");
      if (next !== field(body, "new_password_again"))
        return render(
          m.session,
          m.ws,
          { error: "The two new passwords differ. Type the same one twice." },
          400,
        );
      try {
        await changePassword(s.store, client, {
          userId: m.session.userId,
          sessionId: m.session.sessionId,
          current: field(body, "current_password"),
          next,
        });
      } catch (e) {
        if (e instanceof InvalidInput)
          return render(m.session, m.ws, { error: `Not changed: the new ${e.message}.` }, 400);
        if (!(e instanceof DomainError)) throw e;
        if (e.code === "invalid_argument") await guesses.fail(key);
        return render(
          m.session,
          m.ws,
          { error: `Not changed: ${e.message}` },
          e.code === "conflict" ? 409 : 400,
        );
      }
      await guesses.clear(key);
      return redirect(`${ACCOUNT_PATH}?changed=1`);
    });
}
