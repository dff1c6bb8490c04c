// The signed-in member of a private page and their current workspace, and how private pages are answered.
import { requireSession, type SessionUser } from "../auth/session.ts";
import type { Services } from "../services.ts";
import { htmlResponse } from "./layout.tsx";
import { currentWorkspace, type Workspace } from "./workspace.ts";

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

/** The signed-in member and their current workspace, or the redirect to sign in. */
export async function member(s: Services, request: Request): Promise<Member | Response> {
  const session = await requireSession(s, request);
  if (session instanceof Response) return session;
  return { session, ws: currentWorkspace(session, request, s.config.baseUrl.startsWith("https:")) };
}
