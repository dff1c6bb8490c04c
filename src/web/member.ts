// The signed-in member of a private page and their current workspace, how private pages are answered, and
// the checks every form post makes (member, CSRF token, the workspace it names, admins only).
import {
  getSession,
  type Membership,
  requireSession,
  type SessionUser,
  verifyCsrf,
} from "../auth/session.ts";
import { sessionOf, sessions } from "../http/sessions.ts";
import type { Services } from "../services.ts";
import { csrfRefused, refusalPage } from "./errors.tsx";
import { field, notFound } from "./http.ts";
import { htmlResponse } from "./layout.tsx";
import { currentWorkspace, membershipBySlug, type Workspace } from "./workspace.ts";

/** Private pages: never cached, and the workspace cookie when `?org=` chose one. */
export function privatePage(body: JSX.Element, ws?: Workspace, status = 200): Response {
  return htmlResponse(body, status, {
    "cache-control": "no-store",
    ...(ws?.cookie ? { "set-cookie": ws.cookie } : {}),
  });
}

export interface Member {
  session: SessionUser;
  ws: Workspace;
}

/** The sessions plugin (http/sessions.ts) with sign-in's look-up: `session()` on the context. The root mounts it;
 * a surface `.use`s it too for its types, and shares the root's. */
export function memberSessions(s: Services) {
  return sessions((request) => getSession(s, request));
}

/** Who is signed in: the session the sessions plugin looks up once per request, shared by the page, its header
 * and its error page. */
export function signedIn(s: Services, request: Request): Promise<SessionUser | null> {
  return sessionOf(request, (r) => getSession(s, r));
}

/** The signed-in member and their current workspace, or the redirect to sign in. */
export async function member(s: Services, request: Request): Promise<Member | Response> {
  // Nobody signed in: requireSession answers with the redirect that comes back here.
  const session = (await signedIn(s, request)) ?? (await requireSession(s, request));
  if (session instanceof Response) return session;
  return { session, ws: currentWorkspace(session, request, s.config.baseUrl.startsWith("https:")) };
}

/** A form post by a signed-in member: the member (else the sign-in redirect), the form's CSRF token checked
 * (else the expired-form page) and the workspace the form names (404 unless the member belongs to it). */
export async function formMember(
  s: Services,
  request: Request,
  body: unknown,
): Promise<{ m: Member; org: Membership } | Response> {
  const m = await member(s, request);
  if (m instanceof Response) return m;
  if (!verifyCsrf(m.session, field(body, "csrf"))) return csrfRefused(m.session.email);
  const org = membershipBySlug(m.session, field(body, "org")) ?? notFound();
  return { m, org };
}

/** The same, for the workspace's admins only: others get a 403 page saying what only admins may do
 * (`only`: "manage API keys"), or that only admins can do this. */
export async function formAdmin(
  s: Services,
  request: Request,
  body: unknown,
  only?: string,
): Promise<{ m: Member; org: Membership } | Response> {
  const f = await formMember(s, request, body);
  if (f instanceof Response || f.org.role === "admin") return f;
  return adminsOnly(f.m, f.org, only);
}

/** The 403 page for a member who is not an admin of `org`: what only admins may do (`only`), or that only
 * admins can do this. */
export function adminsOnly(m: Member, org: Membership, only?: string): Response {
  return refusalPage(
    "Admins only",
    only ? `Only admins of ${org.orgName} can ${only}.` : "Only workspace admins can do this.",
    403,
    m.session.email,
  );
}
