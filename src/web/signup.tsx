// /signup: workspace name, email, password → a workspace on the trial plan with this person as its admin,
// signed in at once — when the operator keeps sign-up open (RIVALS_SIGNUP): invite-only shows how to join
// instead, off says there is no sign-up.
/** @jsxRuntime classic */
/** @jsx Html.createElement */
/** @jsxFrag Html.Fragment */
import { Elysia } from "elysia";
import { createSession } from "../auth/session.ts";
import { DomainError } from "../domain/errors.ts";
import { PASSWORD_MIN } from "../domain/members.ts";
import { PLANS } from "../domain/plans.ts";
import { signUp } from "../domain/signup.ts";
import { InvalidInput } from "../domain/validate.ts";
import type { Services } from "../services.ts";
import { Notice, PasswordField } from "./components.tsx";
import { FORM_LIMITS } from "./formLimit.ts";
import { field, redirect } from "./http.ts";
import { Html, Layout } from "./layout.tsx";
import { publicPage, viewer } from "./public.tsx";
import { type FormValues, PublicFormPage, type PublicFormProps, publicForm } from "./publicForm.tsx";

const FIELDS = ["workspace", "name", "email"] as const;
type Values = FormValues<(typeof FIELDS)[number]>;

function SignupForm(form: PublicFormProps<Values>): JSX.Element {
  const values = form.values ?? {};
  return (
    <PublicFormPage
      {...form}
      title="Create a workspace"
      heading="Start the free trial week"
      action="/signup"
      submit="Create workspace"
      intro={
        <>
          <p>
            Create a workspace for your team. The{" "}
            <strong>{Html.escapeHtml(PLANS.trial.label.toLowerCase())}</strong> includes the dashboard with up
            to {Html.escapeHtml(String(PLANS.trial.coreSlots))} core competitors; the read API comes with a{" "}
            <a href="/pricing">paid plan</a>.
          </p>
          {form.user ? (
            <Notice>
              <>
                You are signed in as <strong safe>{form.user}</strong>.{" "}
                <a href="/app">Go to your workspace</a>.
              </>
            </Notice>
          ) : (
            ""
          )}
        </>
      }
      after={
        <p>
          Already have an account? <a href="/signin">Sign in</a>.
        </p>
      }
    >
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
    </PublicFormPage>
  );
}

/** What /signup says when sign-up is not open: how to join by invitation, or that there is no sign-up. */
function Closed({ user, off }: { user?: string; off: boolean }): JSX.Element {
  return off ? (
    <Layout title="No sign-up here" user={user}>
      <h1>This installation takes no sign-ups</h1>
      <p>
        The people who run this Rivals installation create its workspaces and add the people who use them. If
        your team uses it, ask them or one of your workspace's admins.
      </p>
      <p>
        Already have an account? <a href="/signin">Sign in</a>.
      </p>
    </Layout>
  ) : (
    <Layout title="Join a workspace" user={user}>
      <h1>Join your team's workspace</h1>
      <p>
        New workspaces are not created from this site: the people who run this Rivals installation set them
        up. To join your team's workspace, ask one of its admins for an invitation; the email it sends lets
        you choose a password.
      </p>
      <p>
        Already have an account? <a href="/signin">Sign in</a>.
      </p>
    </Layout>
  );
}

export function signupPages(s: Services) {
  const form = publicForm(s, "signup", FORM_LIMITS.signup, FIELDS, SignupForm);
  const mode = s.config.signup;
  // Invite-only explains how to join (a post is refused); off answers 404 with a page that says why, for the
  // links older emails and pages still hold.
  const closed = async (request: Request, status: number) =>
    publicPage(
      <Closed user={await viewer(s, request)} off={mode === "off"} />,
      mode === "off" ? 404 : status,
      {
        "cache-control": "no-store",
      },
    );
  return new Elysia({ name: "web-signup" })
    .get("/signup", ({ request }) => (mode === "open" ? form.show(request) : closed(request, 200)))
    .post("/signup", async ({ request, body, server }) => {
      if (mode !== "open") return closed(request, 403);
      const refused = await form.admit(request, body, server);
      if (refused) return refused;
      const values = form.values(body);
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
        return form.refuse(request, body, values, message);
      }
    });
}
