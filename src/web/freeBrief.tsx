// /free-brief: a visitor asks for a free competitive brief (company name or website, email). Stored as a
// FreeBriefRequested event (free_brief_requests table); then a thank-you page.
/** @jsxRuntime classic */
/** @jsx Html.createElement */
/** @jsxFrag Html.Fragment */
import { Elysia } from "elysia";
import { formCsrf, verifyFormCsrf } from "../auth/session.ts";
import { requestFreeBrief } from "../domain/freeBriefs.ts";
import { InvalidInput } from "../domain/validate.ts";
import type { Services } from "../services.ts";
import { Csrf, Notice } from "./components.tsx";
import { csrfRefused } from "./errors.tsx";
import { FORM_LIMITS, formLimit } from "./formLimit.ts";
import { field, redirect } from "./http.ts";
import { Html, Layout } from "./layout.tsx";
import { publicPage, viewer } from "./public.tsx";

interface Values {
  company_name?: string;
  website_url?: string;
  email?: string;
}

function FreeBriefForm({
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
    <Layout title="Get a free brief" user={user}>
      <h1>Get a free competitive brief</h1>
      <p>
        Name one competitor and we will send you a short brief on it — what they sell, how they price, what
        changed recently — with the public sources behind every finding.
      </p>
      {error ? <Notice kind="error">{Html.escapeHtml(error)}</Notice> : ""}
      <form method="post" action="/free-brief" class="stack">
        <Csrf token={csrf} />
        <label for="fb-company">Company name</label>
        <input id="fb-company" name="company_name" value={values.company_name ?? ""} maxlength="200" />
        <label for="fb-website">Company website</label>
        <input
          id="fb-website"
          name="website_url"
          value={values.website_url ?? ""}
          maxlength="500"
          inputmode="url"
          placeholder="example.com"
        />
        <label for="fb-email">Your email</label>
        <input
          id="fb-email"
          name="email"
          type="email"
          value={values.email ?? ""}
          maxlength="254"
          required
          autocomplete="email"
        />
        <p class="muted small">
          Give the company's name, its website, or both. We use your email only to send the brief.
        </p>
        <button type="submit">Request the brief</button>
      </form>
      <p class="muted small">
        Want it continuously instead? <a href="/signup">Start the free trial week</a>.
      </p>
    </Layout>
  );
}

function ThankYou({ user }: { user?: string }): JSX.Element {
  return (
    <Layout title="Thank you" user={user}>
      <h1>Thank you — your brief is on its way</h1>
      <p>We have your request and will email the brief when it is ready, usually within two working days.</p>
      <p>
        Meanwhile, browse <a href="/briefs">published briefs</a> and <a href="/guides">guides</a>, or{" "}
        <a href="/pricing">compare plans</a>.
      </p>
    </Layout>
  );
}

export function freeBriefPages(s: Services) {
  const limited = formLimit(s, FORM_LIMITS.freeBrief);
  return new Elysia({ name: "web-free-brief" })
    .get("/free-brief", async ({ request }) => {
      const f = formCsrf(s, request);
      return publicPage(
        <FreeBriefForm csrf={f.token} user={await viewer(s, request)} />,
        200,
        f.cookie ? { "set-cookie": f.cookie, "cache-control": "no-store" } : { "cache-control": "no-store" },
      );
    })
    .post("/free-brief", async ({ request, body, set, server }) => {
      if (!verifyFormCsrf(s, request, field(body, "csrf"))) return csrfRefused();
      const tooMany = limited(request, server);
      if (tooMany) return tooMany;
      const values: Values = {
        company_name: field(body, "company_name"),
        website_url: field(body, "website_url"),
        email: field(body, "email"),
      };
      try {
        await requestFreeBrief(
          s.store,
          { company_name: values.company_name, website_url: values.website_url, email: values.email ?? "" },
          set.headers["x-request-id"] as string | undefined,
        );
      } catch (e) {
        if (!(e instanceof InvalidInput)) throw e;
        return publicPage(
          <FreeBriefForm
            csrf={field(body, "csrf")}
            values={values}
            error={`Please check the form: ${e.message}.`}
            user={await viewer(s, request)}
          />,
          400,
          { "cache-control": "no-store" },
        );
      }
      return redirect("/free-brief/thanks");
    })
    .get("/free-brief/thanks", async ({ request }) =>
      publicPage(<ThankYou user={await viewer(s, request)} />),
    );
}
