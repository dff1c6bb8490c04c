// The operator's exemptions from the address guard belong to their callers, tried as a tenant would attack
// them on a real server on loopback. A "model server" listener (the language-model writer's endpoint, on
// 127.0.0.1) must receive nothing a tenant causes; the demo-style rewrite target must be reachable only
// through the origin the rewrite names. Also: one hostname rule for every address a tenant supplies, and
// refusals that say nothing about where names resolve. docs/security.md describes what these tests attack.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { loadConfig } from "../../../src/config.ts";
import { connectChat } from "../../../src/domain/chat.ts";
import { postToChat } from "../../../src/engine/deliver/chat.ts";
import { fetcherFor } from "../../../src/engine/fetch/index.ts";
import { startTestServer, type TestServer } from "../../support/helpers.ts";
import { body, mcpClient } from "../../support/mcp-helpers.ts";
import { type Browser, formValues, member, parseForms, signedIn } from "../../support/oauth-helpers.ts";

let t: TestServer;
let model: ReturnType<typeof Bun.serve>;
let site: ReturnType<typeof Bun.serve>;
/** Every request the model server got: none may come from a tenant. */
const modelHits: string[] = [];
/** Every path the rewrite target served. */
const siteHits: string[] = [];
let modelOrigin: string;
let siteOrigin: string;
let admin: Browser;
let mcp: Client;
let orgId: number;

beforeAll(async () => {
  model = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      modelHits.push(`${req.method} ${new URL(req.url).pathname}`);
      return Response.json({ choices: [] });
    },
  });
  modelOrigin = `http://127.0.0.1:${model.port}`;
  site = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const path = new URL(req.url).pathname;
      siteHits.push(path);
      if (path === "/robots.txt") return new Response("User-agent: *\nAllow: /\n");
      if (path === "/to-model") return Response.redirect(`${modelOrigin}/admin/shutdown`, 302);
      if (path === "/to-own-target") return Response.redirect(`http://127.0.0.1:${site.port}/pricing`, 302);
      return new Response(`<html><body><h1>${path}</h1></body></html>`, {
        headers: { "content-type": "text/html" },
      });
    },
  });
  siteOrigin = `http://127.0.0.1:${site.port}`;
  t = await startTestServer({
    RIVALS_LLM_BASE_URL: `${modelOrigin}/v1`,
    RIVALS_LLM_MODEL: "m",
    RIVALS_LLM_API_KEY: "k",
    RIVALS_FETCH_REWRITE: `https://globex.example=${siteOrigin}`,
    RIVALS_FETCH_DELAY_MS: "0",
  });
  orgId = (await t.org("acme", "growth")).id;
  admin = await signedIn(t, await member(t, "acme", "admin"));
  mcp = await mcpClient(t.base, await t.key("acme", "read write"));
}, 30_000);

afterAll(async () => {
  await mcp?.close();
  await t?.close();
  model?.stop(true);
  site?.stop(true);
});

const SETTINGS = "/app/settings/monitoring";

/** Submits the monitoring settings page's team-chat form as the signed-in admin. */
async function connectFromPage(webhook: string): Promise<{ status: number; html: string }> {
  const html = await (await admin.request(`${SETTINGS}?org=acme`)).text();
  const form = parseForms(html).find((f) => f.action === `${SETTINGS}/chat`)!;
  const values = formValues(form);
  values.set("webhook", webhook);
  const res = await admin.request(`${SETTINGS}/chat`, { method: "POST", body: values });
  return { status: res.status, html: await res.text() };
}

describe("the model server's exemption is the writer's alone", () => {
  test("a team-chat webhook cannot name it, or any loopback or private address, in any spelling", async () => {
    for (const webhook of [
      `${modelOrigin}/v1/chat/completions`,
      `https://127.0.0.1:${model.port}/`,
      `https://localhost.:${model.port}/hook`,
      "https://localhost/hook",
      "https://printer.local./hook",
      "https://metadata.google.internal./computeMetadata/v1/",
      "https://10.0.0.7/hook",
      "https://0x7f.1/hook",
      "https://[::1]/hook",
      "https://intranet/hook",
      "http://hooks.example.com/plain-http",
    ]) {
      const { status, html } = await connectFromPage(webhook);
      expect(`${webhook} ${status}`).toBe(`${webhook} 400`);
      expect(html).toMatch(/webhook must be (an https URL|the address of a public internet host)/);
    }
    expect(modelHits).toEqual([]);
  });

  test("a webhook stored under an earlier configuration still never reaches it", async () => {
    // As if the operator had once allowed the origin (RIVALS_UNSAFE_WEBHOOK_ORIGINS) and then removed it.
    await connectChat(t.services.store, "acme", `${modelOrigin}/v1/chat/completions`, {}, [modelOrigin]);
    const res = await postToChat(t.services, orgId, { text: "hello" });
    expect(res?.ok).toBe(false);
    if (res && !res.ok) {
      expect(res.error).toBe("blocked_address");
      expect(res.message).toBe("127.0.0.1 is not allowed: only public internet addresses are fetched");
    }
    const { html } = await (async () => {
      const page = await (await admin.request(`${SETTINGS}?org=acme`)).text();
      const form = parseForms(page).find((f) => f.action === `${SETTINGS}/chat/test`)!;
      const r = await admin.request(`${SETTINGS}/chat/test`, { method: "POST", body: formValues(form) });
      return { html: await r.text() };
    })();
    expect(html).toContain("The test message failed");
    expect(modelHits).toEqual([]);
  });

  test("a page that redirects to it is not followed", async () => {
    const r = await fetcherFor(t.services.config).fetch({ url: "https://globex.example/to-model" });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toBe("blocked_address");
    expect(siteHits).toContain("/to-model");
    expect(modelHits).toEqual([]);
  });

  test("the writer itself reaches it (the exemption still works for its owner)", async () => {
    const r = await fetcherFor(t.services.config, "llm").fetch({
      url: `${modelOrigin}/v1/chat/completions`,
      method: "POST",
      body: "{}",
    });
    expect(r.ok).toBe(true);
    expect(modelHits).toEqual(["POST /v1/chat/completions"]);
    modelHits.length = 0;
  });
});

describe("single sign-on's exemption is its issuer's origin, for its own requests", () => {
  test("the sign-in's fetcher reaches the issuer on loopback and nothing else private; a tenant's does not", async () => {
    const cfg = loadConfig({
      RIVALS_OIDC_ISSUER: modelOrigin,
      RIVALS_OIDC_CLIENT_ID: "rivals",
      RIVALS_OIDC_CLIENT_SECRET: "secret",
      RIVALS_FETCH_DELAY_MS: "0",
    });
    const sso = fetcherFor(cfg, "sso");
    const discovery = await sso.fetch({
      url: `${modelOrigin}/.well-known/openid-configuration`,
      robots: false,
    });
    expect(discovery.ok).toBe(true);
    expect(modelHits).toEqual(["GET /.well-known/openid-configuration"]);
    modelHits.length = 0;
    const elsewhere = await sso.fetch({ url: `${siteOrigin}/pricing`, robots: false });
    expect(elsewhere.ok).toBe(false);
    if (!elsewhere.ok) expect(elsewhere.error).toBe("blocked_address");
    const tenant = await fetcherFor(cfg).fetch({ url: `${modelOrigin}/.well-known/openid-configuration` });
    expect(tenant.ok).toBe(false);
    expect(modelHits).toEqual([]);
  });
});

describe("a rewrite target is reachable only through the origin the rewrite names", () => {
  test("the named origin is served by the target, its own redirects to the target included", async () => {
    const f = fetcherFor(t.services.config);
    const page = await f.fetch({ url: "https://globex.example/pricing" });
    expect(page.ok).toBe(true);
    const hop = await f.fetch({ url: "https://globex.example/to-own-target" });
    expect(hop.ok && hop.finalUrl).toBe("https://globex.example/pricing");
  });

  test("naming the target's address directly is refused before any connection", async () => {
    siteHits.length = 0;
    const r = await fetcherFor(t.services.config).fetch({ url: `${siteOrigin}/direct` });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toBe("blocked_address");
    expect(siteHits).toEqual([]);
  });
});

describe("one hostname rule for every address a tenant supplies", () => {
  const refusedSites = [
    "http://localhost.:8080/",
    "https://printer.local./",
    "http://metadata.google.internal./",
    "https://intranet/",
    "https://nas.home.arpa/",
    "http://127.0.0.1/",
    "http://0x7f000001/",
    "http://[::ffff:127.0.0.1]/",
  ];

  test("add_competitor refuses them all", async () => {
    for (const website_url of refusedSites) {
      const r = body(await mcp.callTool({ name: "add_competitor", arguments: { website_url } }));
      expect(`${website_url} ${r.error?.code}`).toBe(`${website_url} invalid_argument`);
    }
  });

  test("a trailing dot on a public name is the same site, stored without it", async () => {
    const r = body(
      await mcp.callTool({
        name: "add_competitor",
        arguments: { website_url: "https://hooli-corp.example./" },
      }),
    );
    expect(r.error).toBeUndefined();
    expect(JSON.stringify(r)).toContain("https://hooli-corp.example/");
    expect(JSON.stringify(r)).not.toContain("hooli-corp.example./");
  });

  test("add_monitored_page refuses them all", async () => {
    const list = body(await mcp.callTool({ name: "list_competitors", arguments: {} }));
    const id = list.competitors[0].id;
    for (const url of refusedSites) {
      const r = body(
        await mcp.callTool({ name: "add_monitored_page", arguments: { competitor_id: id, url } }),
      );
      expect(`${url} ${r.error?.code}`).toBe(`${url} invalid_argument`);
    }
  });
});

describe("refusals say what the user can act on, not what the network looks like", () => {
  test("an internal name and a missing one are refused with the same words, without an address", async () => {
    const logs: Record<string, unknown>[] = [];
    const { createFetcher, fetcherOptions } = await import("../../../src/engine/fetch/index.ts");
    const f = createFetcher({
      ...fetcherOptions(t.services.config),
      resolve: async (h) => (h === "vm.example" ? ["127.0.0.1"] : []),
      log: (l) => logs.push(l),
    });
    const internal = await f.fetch({ url: "https://vm.example/", robots: false });
    const missing = await f.fetch({ url: "https://nothing-here.example/", robots: false });
    expect(internal.ok || missing.ok).toBe(false);
    if (!internal.ok && !missing.ok) {
      expect(internal.error).toBe(missing.error);
      expect(internal.message.replace("vm.example", "X")).toBe(
        missing.message.replace("nothing-here.example", "X"),
      );
      expect(internal.message).not.toContain("127.0.0.1");
      expect(internal.message).not.toMatch(/resolve/);
    }
    expect(JSON.stringify(logs)).toContain("127.0.0.1");
  });
});
