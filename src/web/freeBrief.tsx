// /free-brief: a visitor asks for a free competitive brief (the company's website, optionally its name, and an
// email). Stored as a FreeBriefRequested event; the engine researches the site in the background and publishes the
// brief (src/engine/briefs/freeBriefs.ts). The thank-you page shows where that request is, read from the database.
// RIVALS_FREE_BRIEFS=off: the page says requests are not taken, and a post stores nothing.
/** @jsxRuntime classic */
/** @jsx Html.createElement */
/** @jsxFrag Html.Fragment */
import { Elysia } from "elysia";
import { publicLinks } from "../db/queries/publicLibrary.ts";
import { FREE_BRIEF_PERIOD_DAYS, requestFreeBrief } from "../domain/freeBriefs.ts";
import { normalizeDomain } from "../domain/publicLibrary.ts";
import { InvalidInput } from "../domain/validate.ts";
import { kickFreeBriefs } from "../engine/briefs/freeBriefs.ts";
import { mailConfigured } from "../mail/mailer.ts";
import type { Services } from "../services.ts";
import { Time } from "./components.tsx";
import { refusalPage } from "./errors.tsx";
import { FORM_LIMITS } from "./formLimit.ts";
import { redirect } from "./http.ts";
import { Html, Layout } from "./layout.tsx";
import { publicPage, viewer } from "./public.tsx";
import { type FormValues, PublicFormPage, type PublicFormProps, publicForm } from "./publicForm.tsx";

const FIELDS = ["website_url", "company_name", "email"] as const;
type Values = FormValues<(typeof FIELDS)[number]>;

function FreeBriefForm(form: PublicFormProps<Values>): JSX.Element {
  const values = form.values ?? {};
  return (
    <PublicFormPage
      {...form}
      title="Get a free brief"
      heading="Get a free competitive brief"
      action="/free-brief"
      submit="Request the brief"
      intro={
        <p>
          Give one competitor's website. We read its public pages — home, pricing, product, careers,
          changelog, security — and its feeds and job listings, write a short brief of what it states (what it
          sells, how it prices, who it hires, how often it ships) with the public source behind every finding,
          publish it in the <a href="/briefs">public library</a> and email you the link.
        </p>
      }
      after={
        <p class="muted small">
          Want it continuously instead? <a href="/signup">Start the free trial week</a>.
        </p>
      }
    >
      <label for="fb-website">Company website</label>
      <input
        id="fb-website"
        name="website_url"
        value={values.website_url ?? ""}
        maxlength="500"
        inputmode="url"
        placeholder="example.com"
        required
      />
      <label for="fb-company">Company name (optional)</label>
      <input id="fb-company" name="company_name" value={values.company_name ?? ""} maxlength="200" />
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
        {`One brief per company every ${FREE_BRIEF_PERIOD_DAYS} days: if one was published recently, you get that one. We use your email only to send the brief.`}
      </p>
    </PublicFormPage>
  );
}

function Off({ user }: { user?: string }): JSX.Element {
  return (
    <Layout title="Free briefs" user={user}>
      <h1>Free briefs are not offered here</h1>
      <p>This server does not take requests for free briefs.</p>
      <p>
        Browse the <a href="/briefs">published briefs</a> and <a href="/guides">guides</a>, or{" "}
        <a href="/signup">start a workspace</a> to research and follow competitors yourself.
      </p>
    </Layout>
  );
}

/** Where a request for `domain` stands: its newest request, with the brief that answered it. */
async function requestState(s: Services, domain: string) {
  const r = await s.database.client.execute({
    sql: `SELECT r.state, r.reason, b.company_slug, b.slug, b.company_name, b.published_at
          FROM free_brief_requests r LEFT JOIN public_briefs b ON b.id = r.brief_id
          WHERE r.domain = ? ORDER BY r.id DESC LIMIT 1`,
    args: [domain],
  });
  return r.rows[0];
}

function ThankYou({
  user,
  domain,
  row,
  mail,
  base,
}: {
  user?: string;
  domain?: string;
  row?: Record<string, unknown>;
  mail: boolean;
  base: string;
}): JSX.Element {
  const emailed = mail
    ? "We email the link to the address you gave."
    : "This server does not send email: come back to this page, it shows the link once the brief is published.";
  let body: JSX.Element;
  if (!domain || !row) {
    body = (
      <p>
        We have your request. The brief appears in the <a href="/briefs">public library</a> when it is
        written.
      </p>
    );
  } else if (row.state === "queued") {
    body = (
      <>
        <p>
          We are reading <strong safe>{domain}</strong>'s public website now: its home, pricing, product,
          careers, changelog and security pages, its feeds and job listings (our crawler is described on{" "}
          <a href="/bot">/bot</a>).
        </p>
        <p>
          When the brief is written — usually within a few minutes — it is published in the{" "}
          <a href="/briefs">public library</a>. <span safe>{emailed}</span> If the site cannot be read, you
          get the reason instead.
        </p>
        <p>
          Every finding cites the page of <span safe>{domain}</span> it was read from; nothing is estimated.{" "}
          <a href={`/free-brief/thanks?domain=${encodeURIComponent(domain)}`}>Reload</a> to see where it
          stands.
        </p>
      </>
    );
  } else if (row.state === "failed") {
    body = (
      <>
        <p>
          We could not write a brief on <strong safe>{domain}</strong>:
        </p>
        <p safe>{String(row.reason ?? "the website could not be read.")}</p>
        <p>
          Nothing was published. {mail ? "We email you this reason too. " : ""}You can{" "}
          <a href="/free-brief">ask again</a> with another address of the company's website.
        </p>
      </>
    );
  } else {
    const url = publicLinks.brief(base, String(row.company_slug), String(row.slug));
    body = (
      <>
        {row.state === "existing" ? (
          <p>
            A brief on <strong safe>{String(row.company_name)}</strong> was published on{" "}
            <Time ts={row.published_at} />
            {`. Briefs are written once per company every ${FREE_BRIEF_PERIOD_DAYS} days, so this is the current one:`}
          </p>
        ) : (
          <p>
            The brief on <strong safe>{String(row.company_name)}</strong> is published:
          </p>
        )}
        <p>
          <a href={url} safe>
            {url}
          </a>
        </p>
        <p safe>{mail ? "We email you the link too." : "This server does not send email: keep the link."}</p>
      </>
    );
  }
  return (
    <Layout title="Thank you" user={user}>
      <h1>Thank you</h1>
      {body}
      <p>
        Meanwhile, browse <a href="/briefs">published briefs</a> and <a href="/guides">guides</a>, or{" "}
        <a href="/pricing">compare plans</a>.
      </p>
    </Layout>
  );
}

export function freeBriefPages(s: Services) {
  const form = publicForm(s, "free_brief", FORM_LIMITS.freeBrief, FIELDS, FreeBriefForm);
  return new Elysia({ name: "web-free-brief" })
    .get("/free-brief", async ({ request }) => {
      if (!s.config.freeBriefs) return publicPage(<Off user={await viewer(s, request)} />);
      return form.show(request);
    })
    .post("/free-brief", async ({ request, body, set, server }) => {
      if (!s.config.freeBriefs)
        return refusalPage(
          "Free briefs are not offered here",
          "This server does not take requests for free briefs; nothing was stored.",
          403,
        );
      const refused = await form.admit(request, body, server);
      if (refused) return refused;
      const values = form.values(body);
      let domain: string;
      try {
        ({ domain } = await requestFreeBrief(
          s.store,
          { company_name: values.company_name, website_url: values.website_url, email: values.email ?? "" },
          set.headers["x-request-id"] as string | undefined,
        ));
      } catch (e) {
        if (!(e instanceof InvalidInput)) throw e;
        return form.refuse(request, body, values, `Please check the form: ${e.message}.`);
      }
      // Research runs in the background; the thank-you page reads where it stands.
      kickFreeBriefs(s);
      return redirect(`/free-brief/thanks?domain=${encodeURIComponent(domain)}`);
    })
    .get("/free-brief/thanks", async ({ request }) => {
      const raw = new URL(request.url).searchParams.get("domain") ?? "";
      const domain = raw.length <= 253 ? normalizeDomain(raw) : undefined;
      const row = domain ? await requestState(s, domain) : undefined;
      return publicPage(
        <ThankYou
          user={await viewer(s, request)}
          domain={domain}
          row={row as Record<string, unknown> | undefined}
          mail={mailConfigured(s.config)}
          base={s.config.baseUrl}
        />,
        200,
        { "cache-control": "no-store" },
      );
    });
}
