// Who is signed in, for the routes after the plugin: `session()` on their context looks the cookie's session up
// when a handler first asks, once per request however many ask (the page, its header, its error page). The
// look-up itself (the cookie, the sessions table) is sign-in's, handed in by the root (src/app.ts).
import { Elysia } from "elysia";

/** How a request's session is found: the signed-in person, or null. */
export type SessionLookup<U> = (request: Request) => Promise<U | null>;

// Kept on the request itself, like the client's address (http/address.ts).
const SESSION = Symbol("rivals.session");
type Carrying = Request & { [SESSION]?: Promise<unknown> };

/** The request's session, looked up at most once: later callers (an error page, a page's header) share the
 * first look-up, and its failure. */
export function sessionOf<U>(request: Request, lookup: SessionLookup<U>): Promise<U | null> {
  const r = request as Carrying;
  r[SESSION] ??= lookup(request);
  return r[SESSION] as Promise<U | null>;
}

/** `session()` for every route after it. Named, so a surface that `.use`s it for its types shares the root's. */
export function sessions<U>(lookup: SessionLookup<U>) {
  return new Elysia({ name: "sessions" }).derive({ as: "global" }, ({ request }) => ({
    session: (): Promise<U | null> => sessionOf(request, lookup),
  }));
}
