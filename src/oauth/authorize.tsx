// GET/POST /oauth/authorize: the authorization request (PKCE S256, exact redirect URI, resource = this
// server's MCP URL), sign-in, the consent page and remembered approvals. Errors about the client or the
// redirect URI, and any error before a member signs in, are shown as a page and never redirected; every
// other error goes back to the client (RFC 6749 4.1.2.1) with `state` and `iss` (RFC 9207).
/** @jsxRuntime classic */
/** @jsx Html.createElement */
/** @jsxFrag Html.Fragment */

import { Elysia } from "elysia";
import { runCommand } from "../../events/command.ts";
import { requireSession, type SessionUser, verifyCsrf } from "../auth/session.ts";
import { SCOPES, type Scope } from "../domain/apiKeys.ts";
import { recordConsent } from "../domain/oauthConsents.ts";
import { LOWEST_PAID, paidOnlyRefusal, planOf } from "../domain/plans.ts";
import type { Services } from "../services.ts";
import { Html, htmlResponse, Layout } from "../web/layout.tsx";
import { memberSessions } from "../web/member.ts";
import { clientLabel, type OAuthClient, parseScope, redirectUriMatches } from "./clientMetadata.ts";
import { consentsOf } from "./consents.ts";
import { OAuthError } from "./errors.ts";
import { mcpResource, OAUTH_PATHS } from "./metadata.ts";
import type { OAuthServer } from "./routes.ts";

export interface AuthorizationRequest {
  client: OAuthClient;
  redirectUri: string;
  state: string | null;
  scopes: Scope[];
  resource: string;
  codeChallenge: string;
  /** The request's parameters, carried through the consent form unchanged. */
  params: Record<string, string>;
}

type Checked =
  | { kind: "ok"; req: AuthorizationRequest }
  | { kind: "page"; status: number; message: string }
  | { kind: "redirect"; location: string; description: string };

const CARRIED = [
  "response_type",
  "client_id",
  "redirect_uri",
  "state",
  "scope",
  "code_challenge",
  "code_challenge_method",
  "resource",
] as const;

const SCOPE_TEXT: Record<Scope, string> = {
  read: "Read the workspace: competitors, signals, digests, battlecards and settings",
  write: "Change the workspace for the team: competitors, pins, notes, ratings, profile and settings",
  spend:
    "Use the workspace's allowances: research updates, battlecard generation, ICP and positioning drafts",
};

function redirectWith(redirectUri: string, params: Record<string, string | null | undefined>): string {
  const u = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined) u.searchParams.set(k, v);
  return u.href;
}

/** Validates an authorization request (query of the GET, hidden fields of the consent POST). */
export async function checkAuthorizationRequest(
  s: Services,
  oauth: OAuthServer,
  p: URLSearchParams,
): Promise<Checked> {
  const base = s.config.baseUrl;
  const page = (message: string, status = 400): Checked => ({ kind: "page", status, message });
  for (const k of ["client_id", "redirect_uri"])
    if (p.getAll(k).length > 1) return page(`The parameter ${k} was sent more than once.`);
  const clientId = p.get("client_id");
  if (!clientId) return page("The request names no client (client_id is missing).");
  let client: OAuthClient | undefined;
  try {
    client = await oauth.clients.find(clientId);
  } catch (e) {
    if (e instanceof OAuthError) return page(`The app could not be identified: ${e.description}`);
    throw e;
  }
  if (!client) return page("The app is not known here (unknown client_id).");
  const redirectUri = p.get("redirect_uri");
  if (!redirectUri) return page("The request names no redirect_uri.");
  if (!client.redirect_uris.some((r) => redirectUriMatches(r, redirectUri)))
    return page("The redirect_uri is not one the app registered, so the request cannot be answered.");

  const state = p.get("state");
  const fail = (error: string, description: string): Checked => ({
    kind: "redirect",
    location: redirectWith(redirectUri, { error, error_description: description, state, iss: base }),
    description,
  });
  for (const k of CARRIED)
    if (p.getAll(k).length > 1) return fail("invalid_request", `The parameter ${k} was sent more than once.`);
  if (p.get("request") !== null || p.get("request_uri") !== null)
    return fail("request_not_supported", "Request objects are not supported.");
  const responseType = p.get("response_type");
  if (responseType !== "code")
    return fail("unsupported_response_type", 'The only supported response_type is "code".');
  const challenge = p.get("code_challenge");
  const method = p.get("code_challenge_method");
  if (!challenge) return fail("invalid_request", "PKCE is required: send code_challenge with method S256.");
  if (method !== "S256")
    return fail("invalid_request", "PKCE code_challenge_method must be S256 (plain is not accepted).");
  if (!/^[A-Za-z0-9_-]{43}$/.test(challenge))
    return fail(
      "invalid_request",
      "code_challenge must be the base64url SHA-256 of the verifier (43 characters).",
    );
  const resource = mcpResource(base);
  const resources = p.getAll("resource");
  if (resources.length > 1) return fail("invalid_target", `Send one resource: ${resource}.`);
  if (resources.length === 1 && resources[0] !== resource)
    return fail("invalid_target", `The only resource this server issues tokens for is ${resource}.`);
  let scopes: Scope[];
  try {
    const raw = p.get("scope");
    scopes = raw === null || raw.trim() === "" ? (client.scope ?? ["read"]) : parseScope(raw);
  } catch (e) {
    return fail("invalid_scope", (e as OAuthError).description);
  }
  if (scopes.length === 0) return fail("invalid_scope", `Ask for at least one of ${SCOPES.join(" ")}.`);
  if (client.scope && scopes.some((sc) => !client.scope!.includes(sc)))
    return fail("invalid_scope", `The app registered for ${client.scope.join(" ")} only.`);
  const params: Record<string, string> = {};
  for (const k of CARRIED) {
    const v = p.get(k);
    if (v !== null) params[k] = v;
  }
  return {
    kind: "ok",
    req: { client, redirectUri, state, scopes, resource, codeChallenge: challenge, params },
  };
}

function redirectHost(uri: string): string {
  const u = new URL(uri);
  return u.host || `${u.protocol}${u.pathname}`;
}

/** form-action must allow the redirect that answers the consent POST (browsers apply it to redirects). */
function consentCsp(redirectUri: string): string {
  const u = new URL(redirectUri);
  const target = u.protocol === "http:" || u.protocol === "https:" ? u.origin : u.protocol;
  return `default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'; form-action 'self' ${target}`;
}

const NO_STORE = { "cache-control": "no-store", pragma: "no-cache" };

function errorPage(message: string, status: number, user?: SessionUser): Response {
  return htmlResponse(
    <Layout title="Authorization failed" user={user?.name ?? user?.email}>
      <h1>This app's request cannot be completed</h1>
      <p class="error" safe>
        {message}
      </p>
      <p>Close this page and start again from the app. If it keeps happening, tell the app's developer.</p>
    </Layout>,
    status,
    NO_STORE,
  );
}

function consentPage(
  req: AuthorizationRequest,
  user: SessionUser,
  opts: { error?: string; status?: number } = {},
): Response {
  const paid = user.memberships.filter((m) => planOf(m.plan).paid);
  const unpaid = user.memberships.filter((m) => !planOf(m.plan).paid);
  const name = clientLabel(req.client);
  const hidden = Object.entries(req.params).map(([k, v]) => <input type="hidden" name={k} value={v} />);
  return htmlResponse(
    <Layout title="Allow access" user={user.name ?? user.email}>
      <h1>
        Allow <span safe>{name}</span> to use Rivals?
      </h1>
      {opts.error ? (
        <p class="error" role="alert" safe>
          {opts.error}
        </p>
      ) : (
        ""
      )}
      <div class="card">
        <p>
          <strong safe>{name}</strong> wants to act for you (<span safe>{user.email}</span>) in one of your
          workspaces.
        </p>
        <p class="muted">
          After you decide, you go back to <strong safe>{redirectHost(req.redirectUri)}</strong>.{" "}
          {req.client.source === "document" ? (
            <span>
              The app is identified by <code safe>{req.client.client_id}</code>.
            </span>
          ) : (
            <span>The app registered itself: its name is not verified.</span>
          )}
        </p>
      </div>
      <form method="post" action={OAUTH_PATHS.authorize}>
        <input type="hidden" name="csrf" value={user.csrfToken} />
        {hidden as "safe"[]}
        {paid.length === 0 ? (
          <div class="notice">
            <p>
              Approving apps needs a workspace on a paid plan ({planOf(LOWEST_PAID).label} or higher).{" "}
              {user.memberships.length === 0
                ? "You are not a member of any workspace."
                : "None of your workspaces is on a paid plan."}
            </p>
            <p>
              <a href="/pricing">Compare plans</a>
            </p>
          </div>
        ) : (
          <div>
            <fieldset>
              <legend>Workspace</legend>
              {paid.map((m, i) => (
                <label>
                  <input type="radio" name="org_id" value={String(m.orgId)} checked={i === 0} />{" "}
                  <span safe>{m.orgName}</span> <span class="muted">({m.role})</span>
                </label>
              ))}
              {unpaid.map((m) => (
                <label class="muted">
                  <input type="radio" name="org_id" value={String(m.orgId)} disabled />{" "}
                  <span safe>{m.orgName}</span> — {planOf(m.plan).label} plan, cannot approve apps
                </label>
              ))}
            </fieldset>
            <fieldset>
              <legend>Permissions (untick any you do not want to give)</legend>
              {req.scopes.map((sc) => (
                <label>
                  <input type="checkbox" name="grant_scope" value={sc} checked /> <strong>{sc}</strong>:{" "}
                  {SCOPE_TEXT[sc]}
                </label>
              ))}
            </fieldset>
            <p class="muted">
              The app acts with your role in the workspace. You can take access away by removing the app or
              leaving the workspace.
            </p>
          </div>
        )}
        <p>
          {paid.length > 0 ? (
            <button type="submit" name="decision" value="approve">
              Allow
            </button>
          ) : (
            ""
          )}{" "}
          <button type="submit" name="decision" value="deny" class="secondary">
            Deny
          </button>
        </p>
      </form>
    </Layout>,
    opts.status ?? 200,
    { ...NO_STORE, "content-security-policy": consentCsp(req.redirectUri) },
  );
}

export function authorizeRoutes(s: Services, oauth: OAuthServer) {
  const base = s.config.baseUrl;

  const success = async (req: AuthorizationRequest, user: SessionUser, orgId: number, scopes: Scope[]) => {
    const code = await oauth.grants.issueCode({
      clientId: req.client.client_id,
      userId: user.userId,
      orgId,
      scopes,
      resource: req.resource,
      redirectUri: req.redirectUri,
      codeChallenge: req.codeChallenge,
    });
    return redirectWith(req.redirectUri, { code, state: req.state, iss: base });
  };

  const redirect = (location: string, status = 302) =>
    new Response(null, { status, headers: { location, ...NO_STORE } });

  const get = async (request: Request, signedIn: () => Promise<SessionUser | null>): Promise<Response> => {
    const url = new URL(request.url);
    const checked = await checkAuthorizationRequest(s, oauth, url.searchParams);
    if (checked.kind === "page") return errorPage(checked.message, checked.status);
    // Every app here registered itself (or named its own metadata document): nobody has verified its
    // redirect_uri, so before a member signs in an error is shown, not redirected there (RFC 9700 4.11.2) —
    // else anyone could register an app to turn this site into an open redirect.
    if (checked.kind === "redirect")
      return (await signedIn()) ? redirect(checked.location) : errorPage(checked.description, 400);
    const req = checked.req;
    const prompt = (url.searchParams.get("prompt") ?? "").split(" ");
    const fail = (error: string, description: string) =>
      redirect(
        redirectWith(req.redirectUri, { error, error_description: description, state: req.state, iss: base }),
      );
    // Nobody signed in: prompt=none says so; otherwise requireSession answers with the sign-in redirect.
    const session = (await signedIn()) ?? (prompt.includes("none") ? null : await requireSession(s, request));
    if (session === null)
      return errorPage(
        "Nobody is signed in to Rivals in this browser: sign in, then start again from the app.",
        400,
      );
    if (session instanceof Response) return session;
    if (!prompt.includes("consent")) {
      const paid = new Set(session.memberships.filter((m) => planOf(m.plan).paid).map((m) => m.orgId));
      const remembered = (await consentsOf(s, session.userId, req.client.client_id)).find(
        (c) => paid.has(c.orgId) && req.scopes.every((sc) => c.scopes.includes(sc)),
      );
      if (remembered) return redirect(await success(req, session, remembered.orgId, req.scopes));
    }
    if (prompt.includes("none")) return fail("consent_required", "The member has not approved this app yet.");
    return consentPage(req, session);
  };

  const post = async (request: Request, signedIn: () => Promise<SessionUser | null>): Promise<Response> => {
    const type = request.headers.get("content-type") ?? "";
    if (!/^application\/x-www-form-urlencoded\b/i.test(type))
      return errorPage("The consent form was not sent as a form.", 400);
    const text = await request.text();
    if (text.length > 16 * 1024) return errorPage("The consent form is too large.", 413);
    const form = new URLSearchParams(text);
    const session = await signedIn();
    if (!session) return errorPage("You are not signed in any more. Start again from the app.", 401);
    if (!verifyCsrf(session, form.get("csrf")))
      return errorPage(
        "The form expired or did not come from this site. Start again from the app.",
        403,
        session,
      );
    const carried = new URLSearchParams();
    for (const k of CARRIED) for (const v of form.getAll(k)) carried.append(k, v);
    const checked = await checkAuthorizationRequest(s, oauth, carried);
    if (checked.kind === "page") return errorPage(checked.message, checked.status, session);
    if (checked.kind === "redirect") return redirect(checked.location, 303);
    const req = checked.req;
    const decision = form.get("decision");
    if (decision !== "approve")
      return redirect(
        redirectWith(req.redirectUri, {
          error: "access_denied",
          error_description: "The member denied the request.",
          state: req.state,
          iss: base,
        }),
        303,
      );
    const orgId = Number(form.get("org_id"));
    const membership = session.memberships.find((m) => m.orgId === orgId);
    if (!membership) return consentPage(req, session, { error: "Choose a workspace.", status: 400 });
    const unpaid = paidOnlyRefusal(
      planOf(membership.plan),
      "OAuth app approval",
      LOWEST_PAID,
      membership.orgName,
    );
    if (unpaid) return consentPage(req, session, { error: unpaid, status: 403 });
    const chosen = form.getAll("grant_scope");
    const scopes = req.scopes.filter((sc) => chosen.includes(sc));
    if (scopes.length === 0)
      return consentPage(req, session, { error: "Allow at least one permission, or deny.", status: 400 });
    await runCommand(
      s.store,
      recordConsent,
      { userId: session.userId, orgId, clientId: req.client.client_id, scopes },
      { caller: { actor: `user:${session.userId}` } },
    );
    return redirect(await success(req, session, orgId, scopes), 303);
  };

  return new Elysia()
    .use(memberSessions(s))
    .get(OAUTH_PATHS.authorize, ({ request, session }) => get(request, session))
    .post(OAUTH_PATHS.authorize, ({ request, session }) => post(request, session), { parse: "none" });
}
