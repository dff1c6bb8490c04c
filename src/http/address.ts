// The client's address, looked up once as each request starts and kept on the request for every later caller
// (the read API's rate limit, sign-in, the forms, the tool endpoint, the client log).
import type { Server } from "bun";
import { Elysia } from "elysia";

const ADDRESS = Symbol("rivals.clientAddress");
type Addressed = Request & { [ADDRESS]?: string };

/** The client's address: the first X-Forwarded-For hop behind a trusted proxy, else the socket's. Kept on
 * the request from its first look-up (the plugin below looks it up as each request starts, so later callers
 * may pass no server), because the socket's address is gone once the connection has closed — as Bun closes it
 * on a malformed body. A property, not a WeakMap entry: one entry per request made every young-generation
 * collection walk thousands of them, and lengthened its pauses (docs/read-path.md, "The benchmark"). */
export function clientAddress(request: Request, server: Server<unknown> | null, trustProxy: boolean): string {
  const known = (request as Addressed)[ADDRESS];
  if (known !== undefined) return known;
  let address: string | undefined;
  if (trustProxy) address = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim() || undefined;
  address ??= server?.requestIP(request)?.address ?? "unknown";
  (request as Addressed)[ADDRESS] = address;
  return address;
}

/** Looks the address up while the connection is surely open. The server is taken when the app starts, not
 * from the request's context: Elysia would define a getter on every request's context for a hook that asks
 * for it. */
export function clientAddresses(trustProxy: boolean) {
  let server: Server<unknown> | null = null;
  return new Elysia({ name: "client-address", seed: trustProxy })
    .onStart((app) => {
      server = app.server;
    })
    .onRequest(({ request }) => {
      clientAddress(request, server, trustProxy);
    });
}
