// Sign-in, sign-out, single sign-on and invitation pages (docs/members.md).
/** @jsxRuntime classic */
/** @jsx Html.createElement */
/** @jsxFrag Html.Fragment */

import { Elysia } from "elysia";
import { runCommand } from "../../events/command.ts";
import { OidcSignIn, SSO_CALLBACK_PATH, SsoError } from "../auth/oidc.ts";
import {
  createSession,
  endSession,
  formCsrf,
  safeNext,
  verifyCsrf,
  verifyFormCsrf,
} from "../auth/session.ts";
import { SigninThrottle } from "../auth/throttle.ts";
import { hasMembership } from "../db/queries/members.ts";
import { DomainError } from "../domain/errors.ts";
import {
  acceptInvitationCommand,
  acceptInvitationsBySsoCommand,
  INVITEE,
  openInvitation,
} from "../domain/invitations.ts";
import {
  checkName,
  findUserByEmail,
  hashPassword,
  normalizeEmail,
  PASSWORD_MAX,
  PASSWORD_MIN,
} from "../domain/members.ts";
import { InvalidInput } from "../domain/validate.ts";
import { clientAddress } from "../http/address.ts";
import type { Services } from "../services.ts";
import { Csrf, Notice, PasswordField } from "./components.tsx";
import { field } from "./http.ts";
import { Html, htmlResponse, Layout } from "./layout.tsx";
import { memberSessions } from "./member.ts";

const NO_STORE = { "cache-control": "no-store" };
const DEFAULT_NEXT = "/app";
const SIGNIN_FAILED = "That email and password do not match an account. Check both and try again.";

function seeOther(location: string, cookies: string[] = []): Response {
  const headers = new Headers({ location, ...NO_STORE });
  for (const c of cookies) headers.append("set-cookie", c);
  return new Response(null, { status: 303, headers });
}

function page(body: JSX.Element, status: number, cookies: (string | undefined)[] = [], extra = {}): Response {
  const res = htmlResponse(body, status, { ...NO_STORE, ...extra });
  for (const c of cookies) if (c) res.headers.append("set-cookie", c);
  return res;
}

/** A password that never matches, so an unknown address costs the same argon2id work as a known one. */
let dummyHash: Promise<string> | undefined;
function dummy(): Promise<string> {
  dummyHash ??= Bun.password.hash(crypto.randomUUID(), { algorithm: "argon2id" });
  return dummyHash;
}

interface SigninView {
  csrf: string;
  next: string;
  email?: string;
  error?: string;
  notice?: string;
  sso: boolean;
  /** Anyone may create a workspace here (RIVALS_SIGNUP=open). */
  signup: boolean;
}

function SigninPage(v: SigninView): JSX.Element {
  return (
    <Layout title="Sign in">
      <h1>Sign in</h1>
      {v.notice ? <Notice>{Html.escapeHtml(v.notice)}</Notice> : ""}
      {v.error ? <Notice kind="error">{Html.escapeHtml(v.error)}</Notice> : ""}
      <form method="post" action="/signin" class="card">
        <Csrf token={v.csrf} />
        <input type="hidden" name="next" value={Html.escapeHtml(v.next)} />
        <label for="email">Email</label>
        <input
          id="email"
          name="email"
          type="email"
          autocomplete="username"
          required
          value={Html.escapeHtml(v.email ?? "")}
        />
        <PasswordField id="password" name="password" label="Password" kind="current" />
        <p>
          <button type="submit">Sign in</button>
        </p>
      </form>
      {v.sso ? (
        <form method="get" action="/signin/sso" class="card">
          <input type="hidden" name="next" value={Html.escapeHtml(v.next)} />
          <button type="submit" class="secondary">
            Sign in with SSO
          </button>
          <p class="muted">Uses your organization's identity provider.</p>
        </form>
      ) : (
        ""
      )}
      <p class="muted">
        No account? A workspace admin can invite you.
        {v.signup ? (
          <>
            {" "}
            New here? <a href="/signup">Start a workspace</a>.
          </>
        ) : (
          ""
        )}
      </p>
    </Layout>
  );
}

interface InviteView {
  token: string;
  csrf: string;
  orgName: string;
  email: string;
  invitedBy: string | null;
  expiresAt: string;
  mode: "new" | "existing";
  name?: string;
  error?: string;
}

function InvitePage(v: InviteView): JSX.Element {
  return (
    <Layout title={`Join ${v.orgName}`}>
      <h1 safe>{`Join ${v.orgName} on Rivals`}</h1>
      <p>
        {v.invitedBy ? <span safe>{`${v.invitedBy} invited `}</span> : "You were invited as "}
        <strong safe>{v.email}</strong>
        {" to join as a member. This link works once, until "}
        <time datetime={v.expiresAt} safe>
          {new Date(v.expiresAt).toUTCString()}
        </time>
        .
      </p>
      {v.error ? <Notice kind="error">{Html.escapeHtml(v.error)}</Notice> : ""}
      <form method="post" action={`/invite/${encodeURIComponent(v.token)}`} class="card">
        <Csrf token={v.csrf} />
        {v.mode === "new" ? (
          <>
            <label for="name">Your name</label>
            <input
              id="name"
              name="name"
              autocomplete="name"
              maxlength="100"
              value={Html.escapeHtml(v.name ?? "")}
            />
            <PasswordField id="password" name="password" label="Choose a password" kind="new" />
            <p class="muted">{`At least ${PASSWORD_MIN} characters.`}</p>
          </>
        ) : (
          <>
            <p>You already have a Rivals account with this address. Confirm with its password.</p>
            <PasswordField id="password" name="password" label="Password" kind="current" />
          </>
        )}
        <p>
          <button type="submit">Join the workspace</button>
        </p>
      </form>
    </Layout>
  );
}

function InvalidInvitePage(): JSX.Element {
  return (
    <Layout title="Invitation not valid">
      <h1>This invitation link is not valid</h1>
      <p>
        Invitation links work once and for 7 days, and a newer invitation replaces an older one. Ask a
        workspace admin to invite you again, or <a href="/signin">sign in</a> if you have joined already.
      </p>
    </Layout>
  );
}

export function memberPages(s: Services) {
  /** A fresh session for every sign-in; the one this browser had (if any) is deleted, not left to expire. */
  const replaceSession = async (request: Request, userId: number, via: "password" | "sso" | "invitation") => {
    await endSession(s, request);
    return createSession(s, userId, via);
  };
  const throttle = new SigninThrottle(s);
  const sso = new OidcSignIn(s);

  const signinPage = (
    request: Request,
    v: Omit<SigninView, "csrf" | "sso" | "signup">,
    status = 200,
    headers: Record<string, string> = {},
  ) => {
    const csrf = formCsrf(s, request);
    return page(
      <SigninPage {...v} csrf={csrf.token} sso={sso.configured} signup={s.config.signup === "open"} />,
      status,
      [csrf.cookie],
      headers,
    );
  };

  const tooMany = (request: Request, retry: number, v: { next: string; email?: string }) =>
    signinPage(
      request,
      { ...v, error: `Too many failed sign-ins. Wait ${retry} seconds before trying again.` },
      429,
      {
        "retry-after": String(retry),
      },
    );

  const invitePage = (request: Request, token: string, error?: string, name?: string, status = 200) =>
    openInvitation(s.database, token, s.clock()).then((inv) => {
      if (!inv) return page(<InvalidInvitePage />, 404);
      const csrf = formCsrf(s, request);
      return page(
        <InvitePage
          token={token}
          csrf={csrf.token}
          orgName={inv.orgName}
          email={inv.email}
          invitedBy={inv.invitedBy}
          expiresAt={inv.expiresAt}
          mode={inv.existingUser?.hasPassword ? "existing" : "new"}
          name={name}
          error={error}
        />,
        status,
        [csrf.cookie],
      );
    });

  return new Elysia()
    .use(memberSessions(s))
    .get("/signin", async ({ request, session }) => {
      const url = new URL(request.url);
      const next = safeNext(url.searchParams.get("next")) ?? DEFAULT_NEXT;
      if (await session()) return seeOther(next);
      const notice = url.searchParams.get("signed_out") ? "You are signed out." : undefined;
      return signinPage(request, { next, notice });
    })
    .post("/signin", async ({ request, body, server }) => {
      const next = safeNext(field(body, "next")) ?? DEFAULT_NEXT;
      const rawEmail = field(body, "email").slice(0, 300);
      const password = field(body, "password");
      if (!verifyFormCsrf(s, request, field(body, "csrf")))
        return signinPage(request, { next, email: rawEmail, error: "The form expired. Sign in again." }, 403);
      const account = rawEmail.trim().toLowerCase();
      const address = clientAddress(request, server, s.config.trustProxy);
      const wait = await throttle.retryAfter(account, address);
      if (wait > 0) return tooMany(request, wait, { next, email: rawEmail });
      let email: string | undefined;
      try {
        email = normalizeEmail(rawEmail);
      } catch {
        email = undefined;
      }
      const user = email ? await findUserByEmail(s.database, email) : undefined;
      const ok =
        password.length > 0 &&
        password.length <= PASSWORD_MAX &&
        (await Bun.password.verify(password, user?.password_hash ?? (await dummy())));
      if (!ok || !user) {
        await throttle.fail(account, address);
        const after = await throttle.retryAfter(account, address);
        if (after > 0) return tooMany(request, after, { next, email: rawEmail });
        return signinPage(request, { next, email: rawEmail, error: SIGNIN_FAILED }, 401);
      }
      await throttle.succeed(account);
      const { cookie } = await replaceSession(request, user.id, "password");
      return seeOther(next, [cookie]);
    })
    .post("/signout", async ({ request, body, session: signedIn }) => {
      const session = await signedIn();
      if (!session) return seeOther("/signin");
      if (!verifyCsrf(session, field(body, "csrf")))
        return page(
          <Layout title="Sign out" user={session.name ?? session.email}>
            <h1>Sign out</h1>
            <p class="error">The form expired. Use the button below to sign out.</p>
            <form method="post" action="/signout">
              <Csrf token={session.csrfToken} />
              <button type="submit">Sign out</button>
            </form>
          </Layout>,
          403,
        );
      const cleared = await endSession(s, request);
      return seeOther("/signin?signed_out=1", [cleared]);
    })
    .get("/signin/sso", async ({ request }) => {
      const next = safeNext(new URL(request.url).searchParams.get("next")) ?? DEFAULT_NEXT;
      if (!sso.configured)
        return signinPage(request, { next, error: "Single sign-on is not configured here." }, 404);
      try {
        const { url, cookie } = await sso.start(next);
        return seeOther(url, [cookie]);
      } catch (e) {
        if (e instanceof SsoError) return signinPage(request, { next, error: e.message }, 502);
        throw e;
      }
    })
    .get(SSO_CALLBACK_PATH, async ({ request }) => {
      const clear = sso.clearFlowCookie();
      const fail = (message: string, status: number) => {
        const res = signinPage(request, { next: DEFAULT_NEXT, error: message }, status);
        res.headers.append("set-cookie", clear);
        return res;
      };
      if (!sso.configured) return fail("Single sign-on is not configured here.", 404);
      let result: Awaited<ReturnType<OidcSignIn["finish"]>>;
      try {
        result = await sso.finish(request);
      } catch (e) {
        if (e instanceof SsoError) return fail(e.message, 400);
        throw e;
      }
      let email: string;
      try {
        email = normalizeEmail(result.identity.email);
      } catch {
        return fail("The single sign-on provider sent an address that is not an email address.", 400);
      }
      // A member signs in; someone with an open invitation joins; nobody else gets an account.
      const user = await findUserByEmail(s.database, email);
      const isMember = user && (await hasMembership(s.database, user.id));
      let userId = isMember ? user.id : undefined;
      if (userId === undefined)
        userId = await runCommand(
          s.store,
          acceptInvitationsBySsoCommand,
          { email, name: result.identity.name },
          INVITEE,
        );
      if (userId === undefined)
        return fail(
          "There is no Rivals account for the address your identity provider confirmed. Ask a workspace admin to invite you.",
          403,
        );
      const { cookie } = await replaceSession(request, userId, "sso");
      return seeOther(safeNext(result.next) ?? DEFAULT_NEXT, [cookie, clear]);
    })
    .get("/invite/:token", ({ request, params }) => invitePage(request, params.token))
    .post("/invite/:token", async ({ request, params, body, server }) => {
      const token = params.token;
      const name = field(body, "name");
      if (!verifyFormCsrf(s, request, field(body, "csrf")))
        return invitePage(request, token, "The form expired. Submit it again.", name, 403);
      const inv = await openInvitation(s.database, token, s.clock());
      if (!inv) return page(<InvalidInvitePage />, 404);
      const password = field(body, "password");
      try {
        let userId: number;
        if (inv.existingUser?.hasPassword) {
          // Confirming an existing account is a password check like sign-in: same throttle.
          const address = clientAddress(request, server, s.config.trustProxy);
          const wait = await throttle.retryAfter(inv.email, address);
          if (wait > 0)
            return invitePage(request, token, `Too many failed attempts. Wait ${wait} seconds.`, name, 429);
          const user = await findUserByEmail(s.database, inv.email);
          const ok =
            !!user?.password_hash &&
            password.length <= PASSWORD_MAX &&
            (await Bun.password.verify(password, user.password_hash));
          if (!ok || !user) {
            await throttle.fail(inv.email, address);
            return invitePage(request, token, "That is not the password of your account.", name, 401);
          }
          await throttle.succeed(inv.email);
          userId = (
            await runCommand(s.store, acceptInvitationCommand, { token, verifiedUserId: user.id }, INVITEE)
          ).userId;
        } else {
          const cleanName = checkName(name);
          const passwordHash = await hashPassword(password);
          userId = (
            await runCommand(
              s.store,
              acceptInvitationCommand,
              { token, name: cleanName, passwordHash },
              INVITEE,
            )
          ).userId;
        }
        const { cookie } = await replaceSession(request, userId, "invitation");
        return seeOther(DEFAULT_NEXT, [cookie]);
      } catch (e) {
        if (e instanceof InvalidInput) return invitePage(request, token, capitalize(e.message), name, 400);
        if (e instanceof DomainError && e.code === "not_found") return page(<InvalidInvitePage />, 404);
        throw e;
      }
    });
}

function capitalize(m: string): string {
  return m.charAt(0).toUpperCase() + m.slice(1);
}
