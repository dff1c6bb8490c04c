// The HTML answers of the error hook (src/http/errors.ts) for a browser: "page not found" (404) and
// "something went wrong" (500) in the site's layout and navigation. A signed-in person on an /app address gets
// the app's own frame (sections, workspace, sign out) like every other app page; elsewhere the public layout,
// with the person's links when signed in. JSON and API requests keep their problem+json answers (the error hook
// decides).
/** @jsxRuntime classic */
/** @jsx Html.createElement */
/** @jsxFrag Html.Fragment */
import { isSecure, type SessionUser } from "../auth/session.ts";
import type { Services } from "../services.ts";
import { AppPage } from "./appShell.tsx";
import { Html, htmlResponse, Layout } from "./layout.tsx";
import { signedIn } from "./member.ts";
import { currentWorkspace } from "./workspace.ts";

export type HtmlErrorStatus = 404 | 500;

function Body({
  status,
  requestId,
  signedIn,
}: {
  status: HtmlErrorStatus;
  requestId: string;
  signedIn: boolean;
}) {
  return status === 404 ? (
    <>
      <h1>Page not found</h1>
      <p>There is nothing at this address: the link may be mistyped, or the record was removed.</p>
      <p class="actions">
        {signedIn ? <a href="/app">Go to your signals</a> : <a href="/">Go to the start page</a>}
        <a href="/briefs">Public briefs</a>
        <a href="/developers">Developer reference</a>
      </p>
    </>
  ) : (
    <>
      <h1>Something went wrong</h1>
      <p>
        The server failed to handle this request. Nothing you did caused it, and it has been logged. Try again
        in a moment.
      </p>
      <p class="muted small">
        Reference: <code safe>{requestId}</code>
      </p>
      <p class="actions">
        {signedIn ? <a href="/app">Go to your signals</a> : <a href="/">Go to the start page</a>}
      </p>
    </>
  );
}

/** The signed-in person, if the request carries a valid session and the database answers (a 500 page
 * must render even when it does not). */
async function sessionOrNone(s: Services, request: Request): Promise<SessionUser | null> {
  try {
    return await signedIn(s, request);
  } catch {
    return null;
  }
}

export async function htmlErrorPage(
  s: Services,
  request: Request,
  status: HtmlErrorStatus,
  requestId: string,
): Promise<Response> {
  const session = await sessionOrNone(s, request);
  const title = status === 404 ? "Page not found" : "Something went wrong";
  const body = <Body status={status} requestId={requestId} signedIn={session !== null} />;
  const path = new URL(request.url).pathname;
  const page =
    session && (path === "/app" || path.startsWith("/app/")) ? (
      <AppPage
        session={session}
        current={currentWorkspace(session, request, isSecure(s)).current}
        title={title}
        section=""
      >
        {body}
      </AppPage>
    ) : (
      <Layout title={title} user={session ? (session.name ?? session.email) : undefined}>
        {body}
      </Layout>
    );
  return htmlResponse(page, status, { "cache-control": "no-store", "x-request-id": requestId });
}
