// /free-brief: a visitor asks for a free competitive brief (the company's website, optionally its name and an
// email). Stored as a FreeBriefRequested event; the engine researches the site in the background and writes the
// brief (src/engine/briefs/freeBriefs.ts). The thank-you page shows where that request is to the browser that
// made it (a random token in a cookie, of which the request keeps the digest) and to no one else. An email given
// is written to only after it confirms (/free-brief/confirm: a one-time link from the confirmation email).
// RIVALS_FREE_BRIEFS=off: the page says requests are not taken, and a post stores nothing.
/** @jsxRuntime classic */
/** @jsx Html.createElement */
/** @jsxFrag Html.Fragment */

import { Elysia } from "elysia";
import { runCommand } from "../../events/command.ts";
import { isSecure, readCookie } from "../auth/session.ts";
import { sha256 } from "../auth/tokens.ts";
import { freeBriefRequestState, unconfirmedRequest } from "../db/queries/freeBriefs.ts";
import { publicLinks } from "../db/queries/publicLibrary.ts";
import { DomainError } from "../domain/errors.ts";
import {
  companyDomain,
  confirmFreeBrief,
  type EmailWithheld,
  FAILURE_REASONS,
  FREE_BRIEF_PERIOD_DAYS,
  newSecret,
  requestFreeBrief,
  secretDigest,
} from "../domain/freeBriefs.ts";
import { FREE_BRIEF } from "../domain/limits.ts";
import { clientNetwork } from "../domain/network.ts";
import { normalizeDomain } from "../domain/publicLibrary.ts";
import { InvalidInput } from "../domain/validate.ts";
import { kickFreeBriefs } from "../engine/briefs/freeBriefs.ts";
import { clientAddress } from "../http/address.ts";
import { mailConfigured } from "../mail/mailer.ts";
import type { Services } from "../services.ts";
import { Time } from "./components.tsx";
import { refusalPage } from "./errors.tsx";
import { FORM_LIMITS } from "./formLimit.ts";
import { field, redirect } from "./http.ts";
import { Html, htmlResponse, Layout } from "./layout.tsx";
import { publicPage, viewer } from "./public.tsx";
import { type FormValues, PublicFormPage, type PublicFormProps, publicForm } from "./publicForm.tsx";

/** The form's visitor, as the log records them. */
const VISITOR = { actor: "visitor" };

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
          and show it to you here. Give your email to receive the link too: we first send a message asking you
          to confirm the address, and write to it only once you have.
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
      <label for="fb-email">Your email (optional)</label>
      <input
        id="fb-email"
        name="email"
        type="email"
        value={values.email ?? ""}
        maxlength="254"
        autocomplete="email"
      />
      <p class="muted small">
        {`One brief per company every ${FREE_BRIEF_PERIOD_DAYS} days: if one was written recently, you get that one. Private and local addresses are not read. We use your email only to send the brief, once you have confirmed it, and at most one email goes out per company in that time.`}
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

const NO_STORE = { "cache-control": "no-store" };
const COOKIE_MAX_AGE = 30 * 86_400;

/** The cookie holding this browser's token, by which the thank-you page knows its requests. */
function viewerCookieName(s: Services): string {
  return isSecure(s) ? "__Host-rivals_brief" : "rivals_brief";
}

/** This browser's token (a new one, with its Set-Cookie, when it has none yet). */
function viewerToken(s: Services, request: Request): { digest: string; cookie?: string } {
  const have = readCookie(request, viewerCookieName(s));
  const digest = secretDigest(have);
  if (digest) return { digest };
  const fresh = newSecret();
  return {
    digest: fresh.digest,
    cookie: `${viewerCookieName(s)}=${fresh.secret}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${COOKIE_MAX_AGE}${isSecure(s) ? "; Secure" : ""}`,
  };
}

const WITHHELD: Record<EmailWithheld, string> = {
  company: `A brief on this company was already emailed to someone in the last ${FREE_BRIEF.periodDays} days, and we send at most one email per company in that time: we will not email you. This page shows the brief instead.`,
  recipient: `The address you gave was sent ${FREE_BRIEF.emailsPerRecipient} confirmation requests in the last ${FREE_BRIEF.recipientDays} days: we will not email it again now. This page shows the brief instead.`,
  network: `Your network asked for ${FREE_BRIEF.emailsPerNetwork} emails today: we will not email this request. This page shows the brief instead.`,
};

/** What this request's email will do, in one sentence. */
function mailNote(row: Record<string, unknown>, mail: boolean): string | undefined {
  if (row.email_withheld) return WITHHELD[row.email_withheld as EmailWithheld];
  if (row.confirm_state === "none") return undefined;
  if (!mail) return "This server does not send email: this page shows the brief.";
  if (row.confirmed_at) return "You confirmed your address: we email you the link too.";
  if (row.confirm_state === "failed")
    return "We could not send the confirmation email to the address you gave, so we will not email it; this page shows the brief.";
  return `We sent a confirmation email to the address you gave. Follow its link within ${FREE_BRIEF.confirmHours} hours to receive the brief by email too; without it we write to that address no more.`;
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
  let body: JSX.Element;
  const note = row ? mailNote(row, mail) : undefined;
  const noteP = note ? <p safe>{note}</p> : "";
  if (!domain || !row) {
    // The same page whether or not anyone asked for this domain: only the browser that asked sees more.
    body = (
      <p>
        We have your request. This page shows where it stands in the browser you sent it from; briefs appear
        in the <a href="/briefs">public library</a> once they are published.
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
          When the brief is written — usually within a few minutes — this page shows it. If the site cannot be
          read, you get the reason instead.
        </p>
        {noteP}
        <p>
          Every finding cites the page of <span safe>{domain}</span> it was read from; nothing is estimated.{" "}
          <a href={`/free-brief/thanks?domain=${encodeURIComponent(domain)}`}>Reload</a> to see where it
          stands.
        </p>
      </>
    );
  } else if (row.state === "failed" || row.review === "rejected") {
    const reason = row.review === "rejected" ? FAILURE_REASONS.rejected : String(row.reason ?? "");
    body = (
      <>
        <p>
          We could not {row.review === "rejected" ? "publish" : "write"} a brief on{" "}
          <strong safe>{domain}</strong>:
        </p>
        <p safe>{reason || FAILURE_REASONS.unreachable}</p>
        <p>
          Nothing was published. You can <a href="/free-brief">ask again</a> with another address of the
          company's website.
        </p>
        {noteP}
      </>
    );
  } else if (row.review === "pending") {
    body = (
      <>
        <p>
          The brief on <strong safe>{domain}</strong> is written. New briefs are read by a person before they
          are published; this page shows the link once it is.
        </p>
        {noteP}
        <p>
          <a href={`/free-brief/thanks?domain=${encodeURIComponent(domain)}`}>Reload</a> to see where it
          stands.
        </p>
      </>
    );
  } else {
    const url = publicLinks.brief(base, String(row.company_slug), String(row.slug));
    body = (
      <>
        {row.state === "existing" ? (
          <p>
            A brief on <strong safe>{domain}</strong> was published on <Time ts={row.published_at} />
            {`. Briefs are written once per company every ${FREE_BRIEF_PERIOD_DAYS} days, so this is the current one:`}
          </p>
        ) : (
          <p>
            The brief on <strong safe>{domain}</strong> is published:
          </p>
        )}
        <p>
          <a href={url} safe>
            {url}
          </a>
        </p>
        {noteP}
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

/** The page a confirmation link opens: a button, so a mail scanner that follows links confirms nothing. */
function ConfirmPage({ token, domain, user }: { token: string; domain: string; user?: string }): JSX.Element {
  return (
    <Layout title="Confirm your email" user={user}>
      <h1>Confirm your email</h1>
      <p>
        Confirm that you asked for the free brief on <strong safe>{domain}</strong> to be emailed to you.
      </p>
      <form method="post" action="/free-brief/confirm" class="stack">
        <input type="hidden" name="token" value={token} />
        <button type="submit">Confirm and send me the brief</button>
      </form>
      <p class="muted small">If you did not ask for it, close this page: nothing more is sent.</p>
    </Layout>
  );
}

function Confirmed({ domain, user }: { domain: string; user?: string }): JSX.Element {
  return (
    <Layout title="Email confirmed" user={user}>
      <h1>Email confirmed</h1>
      <p>
        Thank you. We email you the brief on <strong safe>{domain}</strong> when it is ready (if a person
        reviews new briefs here, once it is published).
      </p>
      <p>
        Meanwhile, browse <a href="/briefs">published briefs</a> and <a href="/guides">guides</a>.
      </p>
    </Layout>
  );
}

const INVALID_LINK = "This confirmation link is not valid, or was already used.";

/** The request a confirmation token names, while it can still be confirmed. */
async function pendingConfirmation(s: Services, token: string | null | undefined) {
  const digest = secretDigest(token);
  if (!digest) return undefined;
  const row = await unconfirmedRequest(s.database, digest);
  return row ? { domain: row.domain, expired: s.clock().toISOString() >= row.confirmExpiresAt } : undefined;
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
      const browser = viewerToken(s, request);
      let domain: string;
      try {
        ({ domain } = await runCommand(
          s.store,
          requestFreeBrief,
          {
            company_name: values.company_name,
            website_url: values.website_url,
            email: values.email,
            viewerDigest: browser.digest,
            networkDigest: sha256(clientNetwork(clientAddress(request, server, s.config.trustProxy))),
          },
          {
            caller: VISITOR,
            metadata: { request_id: set.headers["x-request-id"] as string | undefined, source: "web" },
          },
        ));
      } catch (e) {
        if (!(e instanceof InvalidInput)) throw e;
        return form.refuse(request, body, values, `Please check the form: ${e.message}.`);
      }
      // Research and mail run in the background; the thank-you page reads where the request stands.
      kickFreeBriefs(s);
      return redirect(
        `/free-brief/thanks?domain=${encodeURIComponent(domain)}`,
        browser.cookie ? { "set-cookie": browser.cookie } : {},
      );
    })
    .get("/free-brief/thanks", async ({ request }) => {
      const raw = new URL(request.url).searchParams.get("domain") ?? "";
      const host = raw.length <= 253 ? normalizeDomain(raw) : undefined;
      const domain = host ? companyDomain(host) : undefined;
      const digest = secretDigest(readCookie(request, viewerCookieName(s)));
      const row = domain && digest ? await freeBriefRequestState(s.database, domain, digest) : undefined;
      return publicPage(
        <ThankYou
          user={await viewer(s, request)}
          domain={row ? domain : undefined}
          row={row}
          mail={mailConfigured(s.config)}
          base={s.config.baseUrl}
        />,
        200,
        NO_STORE,
      );
    })
    .get("/free-brief/confirm", async ({ request }) => {
      const token = new URL(request.url).searchParams.get("token");
      const pending = await pendingConfirmation(s, token);
      if (!pending) return refusalPage("Link not valid", INVALID_LINK, 404);
      if (pending.expired)
        return refusalPage(
          "Link expired",
          `This confirmation link has expired (links work for ${FREE_BRIEF.confirmHours} hours); nothing will be emailed.`,
          410,
        );
      return htmlResponse(
        <ConfirmPage token={token!} domain={pending.domain} user={await viewer(s, request)} />,
        200,
        { ...NO_STORE, "referrer-policy": "no-referrer" },
      );
    })
    .post("/free-brief/confirm", async ({ request, body }) => {
      const digest = secretDigest(field(body, "token"));
      if (!digest) return refusalPage("Link not valid", INVALID_LINK, 404);
      try {
        const { domain } = await runCommand(
          s.store,
          confirmFreeBrief,
          { tokenDigest: digest },
          { caller: VISITOR, metadata: { source: "web" } },
        );
        kickFreeBriefs(s);
        return htmlResponse(<Confirmed domain={domain} user={await viewer(s, request)} />, 200, NO_STORE);
      } catch (e) {
        if (!(e instanceof DomainError)) throw e;
        return e.code === "not_found"
          ? refusalPage("Link not valid", e.message, 404)
          : refusalPage("Link expired", e.message, 410);
      }
    });
}
