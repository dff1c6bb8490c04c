// The sessions plugin (src/http/sessions.ts): routes after it get `session()`, which looks the request's session
// up when first asked and once per request however often asked (a failure too); routes before it never look.
// A real loopback server; the look-up counts its calls.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Elysia } from "elysia";
import { sessionOf, sessions } from "../../src/http/sessions.ts";

const lookups: string[] = [];
async function lookup(request: Request): Promise<{ name: string } | null> {
  const cookie = request.headers.get("cookie") ?? "";
  lookups.push(cookie);
  if (cookie === "s=broken") throw new Error("the sessions table is unavailable");
  return cookie === "s=ada" ? { name: "Ada" } : null;
}

let app: Elysia;
let url: string;
beforeAll(() => {
  app = new Elysia()
    .get("/before", () => "no session asked")
    .use(sessions(lookup))
    .get("/page", async ({ request, session }) => {
      const first = await session();
      const again = await session();
      // a helper handed only the request (a page's header, its error page) shares the same look-up
      const shared = await sessionOf(request, lookup);
      return { name: first?.name ?? null, same: first === again && again === shared };
    })
    .get("/failing", async ({ session }) => {
      const first = await session().catch((e: Error) => e.message);
      const again = await session().catch((e: Error) => e.message);
      return { first, again };
    })
    .get("/unasked", () => "nobody asked") as unknown as Elysia;
  app.listen({ port: 0, hostname: "127.0.0.1" });
  url = `http://127.0.0.1:${app.server!.port}`;
});
afterAll(() => app.stop());

const get = (path: string, cookie?: string) => fetch(`${url}${path}`, cookie ? { headers: { cookie } } : {});

test("a session is looked up once per request, however many ask", async () => {
  lookups.length = 0;
  expect(await (await get("/page", "s=ada")).json()).toEqual({ name: "Ada", same: true });
  expect(await (await get("/page")).json()).toEqual({ name: null, same: true });
  expect(lookups).toEqual(["s=ada", ""]);
});

test("a failed look-up is one failure for the request, not a second try", async () => {
  lookups.length = 0;
  expect(await (await get("/failing", "s=broken")).json()).toEqual({
    first: "the sessions table is unavailable",
    again: "the sessions table is unavailable",
  });
  expect(lookups).toEqual(["s=broken"]);
});

test("nothing is looked up for a route that does not ask, nor for one before the plugin", async () => {
  lookups.length = 0;
  expect(await (await get("/unasked", "s=ada")).text()).toBe("nobody asked");
  expect(await (await get("/before", "s=ada")).text()).toBe("no session asked");
  expect(lookups).toEqual([]);
});
