// Browser sessions of members (docs/members.md). The cookie holds a random token; the `sessions` table
// holds only its SHA-256 digest, the user, a per-session CSRF token and the expiry. Every page and every
// surface that needs "who is signed in" calls getSession / requireSession; every POST form checks
// verifyCsrf (signed in) or verifyFormCsrf (signed out: sign-in and invitation forms).
import { timingSafeEqual } from "node:crypto";
import {
  deleteSession,
  insertSession,
  membershipsOf,
  sessionByDigest,
  touchSession,
  userById,
} from "../db/sessions.ts";
import type { Scope } from "../domain/apiKeys.ts";
import type { Role } from "../domain/members.ts";
import type { Services } from "../services.ts";
import type { Principal } from "./principal.ts";
import { randomSecret, sha256 } from "./tokens.ts";

/** A session ends after this long without use (sliding)… */
export const SESSION_IDLE_MS = 14 * 24 * 60 * 60 * 1000;
/** …and at the latest this long after sign-in (the cookie's Max-Age). */
export const SESSION_MAX_MS = 30 * 24 * 60 * 60 * 1000;
/** The sliding expiry is written at most this often per session. */
const TOUCH_INTERVAL_MS = 60 * 60 * 1000;

export interface Membership {
  orgId: number;
  orgSlug: string;
  orgName: string;
  plan: string;
  role: Role;
  orgWebsite: string | null;
  orgCreatedAt: string;
}

/** A person, with the workspaces they belong to. */
export interface MemberUser {
  userId: number;
  email: string;
  name?: string;
  memberships: Membership[];
}

export interface SessionUser extends MemberUser {
  /** The session's row key (the token's digest; not a credential). */
  sessionId: string;
  /** Put in a hidden `csrf` field of every form; POST handlers check it with verifyCsrf. */
  csrfToken: string;
}

export function isSecure(s: Services): boolean {
  return s.config.baseUrl.startsWith("https:");
}

/** `__Host-` binds the cookie to this exact host over https (no Domain, Path=/, Secure). */
export function sessionCookieName(s: Services): string {
  return isSecure(s) ? "__Host-rivals_session" : "rivals_session";
}

function formCookieName(s: Services): string {
  return isSecure(s) ? "__Host-rivals_form" : "rivals_form";
}

function cookieAttributes(s: Services, maxAgeSeconds: number): string {
  return `Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${isSecure(s) ? "; Secure" : ""}`;
}

export function readCookie(request: Request, name: string): string | undefined {
  const header = request.headers.get("cookie");
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const i = part.indexOf("=");
    if (i < 0) continue;
    if (part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return undefined;
}

/** Starts a session for a user; returns the Set-Cookie value and the token (for tests and redirects). */
export async function createSession(
  s: Services,
  userId: number,
  via: "password" | "sso" | "invitation" = "password",
): Promise<{ cookie: string; token: string }> {
  const token = randomSecret("rs_");
  const now = s.clock();
  const iso = now.toISOString();
  // Neither write's result is read: both go with the writer's one request (events/group.ts).
  await s.store.writeTables(({ later }) =>
    insertSession(later, {
      tokenHash: sha256(token),
      userId,
      csrfToken: randomSecret(),
      at: iso,
      expiresAt: new Date(now.getTime() + SESSION_IDLE_MS).toISOString(),
      via,
    }),
  );
  return {
    cookie: `${sessionCookieName(s)}=${token}; ${cookieAttributes(s, SESSION_MAX_MS / 1000)}`,
    token,
  };
}

/** The Set-Cookie value that removes the session cookie. */
export function clearSessionCookie(s: Services): string {
  return `${sessionCookieName(s)}=; ${cookieAttributes(s, 0)}`;
}

/** Signs out: deletes the session row. Returns the Set-Cookie value that clears the cookie. */
export async function endSession(s: Services, request: Request): Promise<string> {
  const token = readCookie(request, sessionCookieName(s));
  if (token) await s.store.writeTables(({ later }) => deleteSession(later, sha256(token)));
  return clearSessionCookie(s);
}

async function memberships(s: Services, userId: number): Promise<Membership[]> {
  return (await membershipsOf(s.database, userId)).map((m) => ({ ...m, role: m.role as Role }));
}

/** A user with their current memberships, or null (OAuth token resolution, tests). */
export async function loadMemberUser(s: Services, userId: number): Promise<MemberUser | null> {
  const row = await userById(s.database, userId);
  if (!row) return null;
  return {
    userId,
    email: row.email,
    ...(row.name === null ? {} : { name: row.name }),
    memberships: await memberships(s, userId),
  };
}

/** The signed-in person of this request, or null (no cookie, unknown or expired session). */
export async function getSession(s: Services, request: Request): Promise<SessionUser | null> {
  const token = readCookie(request, sessionCookieName(s));
  if (!token || token.length > 200) return null;
  const digest = sha256(token);
  const row = await sessionByDigest(s.database, digest);
  if (!row) return null;
  const now = s.clock().getTime();
  const hardEnd = Date.parse(row.createdAt) + SESSION_MAX_MS;
  if (Date.parse(row.expiresAt) <= now || hardEnd <= now) return null;
  if (now - Date.parse(row.lastSeenAt) >= TOUCH_INTERVAL_MS) {
    const expires = Math.min(now + SESSION_IDLE_MS, hardEnd);
    await s.store.writeTables(({ later }) =>
      touchSession(later, digest, new Date(now).toISOString(), new Date(expires).toISOString()),
    );
  }
  const userId = row.userId;
  return {
    userId,
    email: row.email,
    ...(row.name === null ? {} : { name: row.name }),
    sessionId: digest,
    csrfToken: row.csrfToken,
    memberships: await memberships(s, userId),
  };
}

/** The one check of a redirect target a request names (sign-in's `next`, a form's `back`): a same-site
 * relative path, normalised, or undefined. Refuses `//host`, `/\host` (also after dot segments), schemes and
 * control characters, so no target can send a person to another site. */
export function safeNext(next: string | null | undefined): string | undefined {
  if (!next || next.length > 2000) return undefined;
  if (!next.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")) return undefined;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u001f\u007f\\]/.test(next)) return undefined;
  try {
    const u = new URL(next, "http://x.invalid");
    if (u.origin !== "http://x.invalid") return undefined;
    // Dot segments (`/.//host`, `/a/..//host`, `/%2e//host`) normalise to a path that starts `//`, which a
    // browser reads as another host: judge the normalised path, and answer it rather than the raw input.
    const path = u.pathname + u.search + u.hash;
    if (/^\/[/\\]/.test(path)) return undefined;
    return path;
  } catch {
    return undefined;
  }
}

/** The signed-in person, or a 303 redirect to /signin that comes back to this page afterwards. */
export async function requireSession(s: Services, request: Request): Promise<SessionUser | Response> {
  const session = await getSession(s, request);
  if (session) return session;
  const u = new URL(request.url);
  const next = safeNext(u.pathname + u.search) ?? "/app";
  return new Response(null, {
    status: 303,
    headers: { location: `/signin?next=${encodeURIComponent(next)}`, "cache-control": "no-store" },
  });
}

function stringsEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Checks a form's `csrf` value against the session's token, in constant time. */
export function verifyCsrf(session: Pick<SessionUser, "csrfToken">, formValue: unknown): boolean {
  return typeof formValue === "string" && formValue.length > 0 && stringsEqual(session.csrfToken, formValue);
}

/** CSRF for forms shown to people who are not signed in (sign-in, invitation): a random value in a
 * cookie and the same value in the form's hidden `csrf` field (double submit). Returns the token to put
 * in the form and, when the cookie is new, the Set-Cookie value to send with the page. */
export function formCsrf(s: Services, request: Request): { token: string; cookie?: string } {
  const have = readCookie(request, formCookieName(s));
  if (have && /^[A-Za-z0-9_-]{32,64}$/.test(have)) return { token: have };
  const token = randomSecret();
  return { token, cookie: `${formCookieName(s)}=${token}; ${cookieAttributes(s, 60 * 60 * 24)}` };
}

export function verifyFormCsrf(s: Services, request: Request, formValue: unknown): boolean {
  const have = readCookie(request, formCookieName(s));
  return typeof formValue === "string" && formValue.length > 0 && !!have && stringsEqual(have, formValue);
}

/** The principal of a member acting in one workspace (OAuth tokens, tests): role from the membership,
 * actor `user:<id>`. Null when the user is not a member of that org. */
export function memberPrincipal(user: MemberUser, orgId: number, scopes: Scope[]): Principal | null {
  const m = user.memberships.find((x) => x.orgId === orgId);
  if (!m) return null;
  return {
    orgId: m.orgId,
    orgSlug: m.orgSlug,
    orgName: m.orgName,
    orgWebsite: m.orgWebsite,
    orgCreatedAt: m.orgCreatedAt,
    plan: m.plan,
    actor: `user:${user.userId}`,
    actorName: user.name ?? user.email,
    role: m.role,
    scopes: [...scopes],
    via: "oauth",
    memberId: user.userId,
  };
}
