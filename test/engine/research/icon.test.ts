// The competitor's logo: research reads the icon the home page links (else /favicon.ico) through the one
// fetcher, keeps it only when its bytes are the image they claim (an SVG only without scripts), and the
// competitor page shows it from our own origin, to the workspace's members only, under a sandboxing policy.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { iconCandidates, isIconImage } from "../../../src/engine/research/icon.ts";
import { startResearch } from "../../../src/engine/research/runner.ts";
import { startTestServer, type TestServer } from "../../support/helpers.ts";
import { rest } from "../../support/mcp-write-helpers.ts";
import { member, signedIn } from "../../support/oauth-helpers.ts";

setDefaultTimeout(60_000);

// A 1×1 PNG.
const PNG = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="),
  (c) => c.charCodeAt(0),
);
const EVIL_SVG = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';

let site: ReturnType<typeof Bun.serve>;
let t: TestServer;

const page = (head: string) =>
  `<!doctype html><html><head><title>Co</title>${head}</head><body><h1>Analytics for teams</h1><p>${"We help teams ship. ".repeat(20)}</p></body></html>`;

beforeAll(async () => {
  site = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const u = new URL(req.url);
      const host = req.headers.get("host") ?? "";
      if (u.pathname === "/robots.txt") return new Response("User-agent: *\nAllow: /\n");
      if (host.startsWith("pngco"))
        return u.pathname === "/"
          ? new Response(page('<link rel="icon" href="/brand/icon.png" type="image/png">'), {
              headers: { "content-type": "text/html" },
            })
          : u.pathname === "/brand/icon.png"
            ? new Response(PNG, { headers: { "content-type": "image/png" } })
            : new Response("no", { status: 404 });
      if (host.startsWith("evilco"))
        return u.pathname === "/"
          ? new Response(page('<link rel="icon" href="/icon.svg">'), {
              headers: { "content-type": "text/html" },
            })
          : u.pathname === "/icon.svg"
            ? new Response(EVIL_SVG, { headers: { "content-type": "image/svg+xml" } })
            : new Response("no", { status: 404 });
      return new Response("no", { status: 404 });
    },
  });
  const origin = `http://127.0.0.1:${site.port}`;
  t = await startTestServer({
    RIVALS_FETCH_REWRITE: `https://pngco.example=${origin},https://evilco.example=${origin}`,
    RIVALS_FETCH_DELAY_MS: "0",
  });
});
afterAll(async () => {
  await t.close();
  site.stop(true);
});

async function researched(org: string, website: string): Promise<{ orgId: number; id: number }> {
  const orgId = (await t.org(org)).id;
  await t.load([{ kind: "competitor", org, key: "c", name: "Co", website_url: website }]);
  const id = (await rest(t, await t.key(org), "/api/v1/competitors")).json.data[0].id;
  const { done } = await startResearch(
    t.services,
    { orgId, actor: "operator" },
    { kind: "one", competitor_id: id },
    "operator",
    { usesAllowance: false },
  );
  expect((await done)[0].status).toBe("finished");
  return { orgId, id };
}

describe("the competitor's icon", () => {
  test("the icon the home page links is stored and shown from our origin, to members only", async () => {
    const { id } = await researched("acme", "https://pngco.example/");
    const ann = await signedIn(t, await member(t, "acme", "admin"));
    const html = await (await ann.request(`/app/competitors/${id}?org=acme`)).text();
    expect(html).toContain(`<img class="logo" src="/app/competitors/${id}/icon?org=acme"`);
    const icon = await ann.request(`/app/competitors/${id}/icon?org=acme`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get("content-type")).toBe("image/png");
    expect(icon.headers.get("content-security-policy")).toContain("sandbox");
    expect(icon.headers.get("x-content-type-options")).toBe("nosniff");
    expect(new Uint8Array(await icon.arrayBuffer())).toEqual(PNG);
    // Another workspace's member gets what an unknown id gets.
    await t.org("umbrella");
    const bob = await signedIn(t, await member(t, "umbrella", "admin"));
    expect((await bob.request(`/app/competitors/${id}/icon?org=umbrella`)).status).toBe(404);
  });

  test("an SVG that could run a script is not kept", async () => {
    const { orgId, id } = await researched("initech", "https://evilco.example/");
    const rows = await t.services.database.client.execute({
      sql: "SELECT COUNT(*) AS n FROM competitor_icons WHERE org_id = ? AND competitor_id = ?",
      args: [orgId, id],
    });
    expect(Number(rows.rows[0].n)).toBe(0);
  });

  test("candidates: apple-touch-icon first, then icon, then /favicon.ico; formats checked by their bytes", () => {
    expect(
      iconCandidates(
        '<head><link rel="icon" href="/a.png"><link rel="apple-touch-icon" href="/b.png"></head><body>',
        "https://co.example/x",
      ),
    ).toEqual(["https://co.example/b.png", "https://co.example/a.png", "https://co.example/favicon.ico"]);
    expect(isIconImage("image/png", PNG)).toBe(true);
    expect(isIconImage("image/png", new TextEncoder().encode("<html>"))).toBe(false);
    expect(
      isIconImage("image/svg+xml", new TextEncoder().encode('<svg viewBox="0 0 1 1"><rect/></svg>')),
    ).toBe(true);
    expect(isIconImage("image/svg+xml", new TextEncoder().encode(EVIL_SVG))).toBe(false);
    expect(isIconImage("image/svg+xml", new TextEncoder().encode('<svg onload="x()"></svg>'))).toBe(false);
  });
});
