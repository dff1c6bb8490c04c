// /signup: workspace name, email, password → a workspace on the trial plan with this person as its admin,
// signed in at once.
/** @jsxRuntime classic */
/** @jsx Html.createElement */
/** @jsxFrag Html.Fragment */
import { Elysia } from "elysia";
import { createSession, formCsrf, verifyFormCsrf } from "../auth/session.ts";
import { DomainError } from "../domain/errors.ts";
import { PASSWORD_MIN } from "../domain/members.ts";
import { PLANS } from "../domain/plans.ts";
import { signUp } from "../domain/signup.ts";
import { InvalidInput } from "../domain/validate.ts";
import type { Services } from "../services.ts";
import { Csrf, Notice, PasswordField } from "./components.tsx";
import { csrfRefused } from "./errors.tsx";
import { FORM_LIMITS, formLimit } from "./formLimit.ts";
import { field, redirect } from "./http.ts";
import { Html, Layout } from "./layout.tsx";
import { publicPage, viewer } from "./public.tsx";

interface Values {
  workspace?: string;
  name?: string;
  email?: string;
}

function SignupForm({
  csrf,
  values = {},
  error,
  user,
}: {
  csrf: string;
  values?: Values;
  error?: string;
  user?: string;
}): JSX.Element {
  return (
    <Layout title="Create a workspace" user={user}>
      <h1>Start the free trial week</h1>
      <p>
        Create a workspace for your team. The{" "}
        <strong>{Html.escapeHtml(PLANS.trial.label.toLowerCase())}</strong> includes the dashboard with up to{" "}
        {Html.escapeHtml(String(PLANS.trial.coreSlots))} core competitors; the read API comes with a{" "}
        <a href="/pricing">paid plan</a>.
      </p>
      {user ? (
        <Notice>
          <>
            You are signed in as <strong safe>{user}</strong>. <a href="/app">Go to your workspace</a>.
          </>
        </Notice>
      ) : (
        ""
      )}
      {error ? <Notice kind="error">{Html.escapeHtml(error)}</Notice> : ""}
      <form method="post" action="/signup" class="stack">
        <Csrf token={csrf} />
        <label for="su-workspace">Workspace name</label>
        <input
          id="su-workspace"
          name="workspace"
          value={values.workspace ?? ""}
          maxlength="100"
          required
          placeholder="Your company"
          autocomplete="organization"
        />
        <label for="su-name">Your name (optional)</label>
        <input id="su-name" name="name" value={values.name ?? ""} maxlength="100" autocomplete="name" />
        <label for="su-email">Email</label>
        <input
          id="su-email"
          name="email"
          type="email"
          value={values.email ?? ""}
          maxlength="254"
          required
          autocomplete="email"
        />
        <PasswordField id="su-password" name="password" label="Password" kind="new" />
        <p class="muted small">At least {Html.escapeHtml(String(PASSWORD_MIN))} characters.</p>
        <button type="submit">Create workspace</button>
      </form>
      <p>
        Already have an account? <a href="/signin">Sign in</a>.
      </p>
    </Layout>
  );
}

export function signupPages(s: Services) {
  const limited = formLimit(s, "signup", FORM_LIMITS.signup);
  return new Elysia({ name: "web-signup" })
    .get("/signup", async ({ request }) => {
      const f = formCsrf(s, request);
      return publicPage(<SignupForm csrf={f.token} user={await viewer(s, request)} />, 200, {
        "cache-control": "no-store",
        ...(f.cookie ? { "set-cookie": f.cookie } : {}),
      });
    })
    .post("/signup", async ({ request, body, server }) => {
      if (!verifyFormCsrf(s, request, field(body, "csrf"))) return csrfRefused();
      const tooMany = await limited(request, server);
      if (tooMany) return tooMany;
      const values: Values = {
        workspace: field(body, "workspace"),
        name: field(body, "name"),
        email: field(body, "email"),
      };
      try {
        const r = await signUp(s.store, {
          workspace: values.workspace ?? "",
          name: values.name,
          email: values.email ?? "",
          password: field(body, "password"),
        });
        const { cookie } = await createSession(s, r.user_id);
        return redirect(`/app?org=${encodeURIComponent(r.org_slug)}`, { "set-cookie": cookie });
      } catch (e) {
        if (!(e instanceof InvalidInput) && !(e instanceof DomainError)) throw e;
        const message =
          e instanceof DomainError && e.code === "conflict"
            ? "An account with this email already exists. Sign in instead."
            : `Please check the form: ${e.message}.`;
        return publicPage(<SignupForm csrf={field(body, "csrf")} values={values} error={message} />, 400, {
          "cache-control": "no-store",
        });
      }
    });
}
