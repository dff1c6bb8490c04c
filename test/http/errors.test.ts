// The request-id and problem-details plugins on an app of their own, over a real loopback server: a thrown
// Problem is its problem+json answer with the request id the client got; a failure of ours is 500
// internal_error that shows nothing internal and is logged once with the stack; a browser gets the site's
// page; another method on the read API's paths is "nothing here" naming the methods served.
import { afterAll, beforeAll, expect, spyOn, test } from "bun:test";
import { Elysia } from "elysia";
import { Problem } from "../../src/contract/problem.ts";
import { clientAddresses } from "../../src/http/address.ts";
import { problemDetails } from "../../src/http/errors.ts";
import { requestIds } from "../../src/http/requestId.ts";

const BASE = "https://rivals.example";
const service = {
  config: { baseUrl: BASE, trustProxy: false },
  clock: () => new Date("2026-03-01T12:00:00Z"),
};
const pages: { status: number; requestId: string }[] = [];
let app: Elysia;
let url: string;

beforeAll(() => {
  app = new Elysia()
    .use(clientAddresses(false))
    .use(requestIds(BASE))
    .use(
      problemDetails(service, async (_request, status, requestId) => {
        pages.push({ status, requestId });
        return new Response(`<h1>${status}</h1>`, { status, headers: { "content-type": "text/html" } });
      }),
    )
    .get("/refused", () => {
      throw new Problem("forbidden", "This key may not read that.", { "x-extra": "1" });
    })
    .get("/broken", () => {
      throw new Error("SELECT secret FROM internals");
    })
    .get("/fine", ({ requestId }) => ({ requestId })) as unknown as Elysia;
  app.listen({ port: 0, hostname: "127.0.0.1" });
  url = `http://127.0.0.1:${app.server!.port}`;
});

afterAll(() => app.stop());

test("a thrown Problem is its problem details, with the request id of the answer and HSTS", async () => {
  const res = await fetch(`${url}/refused`);
  expect(res.status).toBe(403);
  expect(res.headers.get("content-type")).toBe("application/problem+json");
  expect(res.headers.get("x-extra")).toBe("1");
  expect(res.headers.get("strict-transport-security")).toBe("max-age=31536000");
  const body = (await res.json()) as Record<string, unknown>;
  expect(body).toMatchObject({ code: "forbidden", status: 403, detail: "This key may not read that." });
  expect(body.type).toBe(`${BASE}/developers#errors-forbidden`);
  expect(body.request_id).toBe(res.headers.get("x-request-id")!);
});

test("every routed request gets its own request id", async () => {
  const [a, b] = await Promise.all([fetch(`${url}/fine`), fetch(`${url}/fine`)]);
  const ida = ((await a.json()) as { requestId: string }).requestId;
  expect(ida).toBe(a.headers.get("x-request-id")!);
  expect(ida).not.toBe(b.headers.get("x-request-id"));
});

test("a failure of ours is 500 internal_error, nothing internal shown, one log line with the stack", async () => {
  const errors = spyOn(console, "error").mockImplementation(() => {});
  try {
    const res = await fetch(`${url}/broken`);
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text).code).toBe("internal_error");
    expect(text).not.toContain("SELECT");
    await fetch(`${url}/broken`);
    // At most a line a minute per address (the clock stands still here).
    expect(errors).toHaveBeenCalledTimes(1);
    const line = JSON.parse(String(errors.mock.calls[0]![0]));
    expect(line).toMatchObject({ level: "error", event: "request_failed", path: "/broken" });
    expect(line.request_id).toBe(res.headers.get("x-request-id")!);
    expect(line.error).toContain("SELECT secret FROM internals");
  } finally {
    errors.mockRestore();
  }
});

test("a browser gets the site's page; an API client gets not_found; the read API's paths name GET", async () => {
  const html = await fetch(`${url}/nowhere`, { headers: { accept: "text/html" } });
  expect(html.status).toBe(404);
  expect(await html.text()).toBe("<h1>404</h1>");
  expect(pages.at(-1)!.status).toBe(404);
  const json = await fetch(`${url}/nowhere`);
  expect(json.status).toBe(404);
  expect(((await json.json()) as { detail: string }).detail).toBe("No page or record at /nowhere.");
  const post = await fetch(`${url}/api/v1/signals`, { method: "POST" });
  expect(post.status).toBe(404);
  expect(post.headers.get("allow")).toBe("GET, HEAD");
  expect(post.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
});
