// Which of a member's workspaces a page shows: `?org=<slug>` (remembered in a cookie), else the cookie,
// else the first. Records are looked up in the current workspace first, then in the member's other
// workspaces — never in one they do not belong to.
import type { Membership, SessionUser } from "../auth/session.ts";
import { readCookie } from "../auth/session.ts";

export const ORG_COOKIE = "rivals_org";

export interface Workspace {
  current: Membership | undefined;
  /** Set-Cookie value when `?org=` chose a workspace. */
  cookie?: string;
}

export function currentWorkspace(session: SessionUser, request: Request, secure: boolean): Workspace {
  const ms = session.memberships;
  const asked = new URL(request.url).searchParams.get("org");
  const bySlug = (slug: string | null | undefined) => (slug ? ms.find((m) => m.orgSlug === slug) : undefined);
  const chosen = bySlug(asked);
  if (chosen)
    return {
      current: chosen,
      cookie: `${ORG_COOKIE}=${encodeURIComponent(chosen.orgSlug)}; Path=/; HttpOnly; SameSite=Lax; Max-Age=31536000${secure ? "; Secure" : ""}`,
    };
  let remembered: string | undefined;
  try {
    remembered = decodeURIComponent(readCookie(request, ORG_COOKIE) ?? "");
  } catch {}
  return { current: bySlug(remembered) ?? ms[0] };
}

/** The membership by org slug (forms name the workspace they act on explicitly). */
export function membershipBySlug(session: SessionUser, slug: string): Membership | undefined {
  return session.memberships.find((m) => m.orgSlug === slug);
}

/** Looks a record up in the current workspace, then in the member's others. */
export async function findInWorkspaces<T>(
  session: SessionUser,
  current: Membership | undefined,
  load: (orgId: number) => Promise<T | undefined>,
): Promise<{ membership: Membership; record: T } | undefined> {
  const order = current
    ? [current, ...session.memberships.filter((m) => m.orgId !== current.orgId)]
    : session.memberships;
  for (const m of order) {
    const record = await load(m.orgId);
    if (record !== undefined) return { membership: m, record };
  }
  return undefined;
}
