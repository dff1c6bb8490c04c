// create_share_link and the public page it makes: {base_url}/share/{token}. Expiry by the injected clock,
// replacement, notes only when included, plan lifetimes, token stored only as a digest, idempotent retries.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { rebuildProjections } from "../../projections/rebuild.ts";
import { startTestServer, type TestServer } from "../support/helpers.ts";
import { body, mcpClient } from "../support/mcp-helpers.ts";
import { callAs, countEvents, dumpReadTables, principalFor } from "../support/mcp-write-helpers.ts";

let t: TestServer;
let growth: Client;
const ids: Record<string, number> = {};
const clients: Record<string, Client> = {};
const HOUR = 3_600_000;

const call = async (c: Client, name: string, args: Record<string, unknown>) =>
  body(await c.callTool({ name, arguments: args }));
const html = (url: string) => fetch(url, { headers: { accept: "text/html,application/xhtml+xml" } });

beforeAll(async () => {
  t = await startTestServer();
  for (const [slug, plan] of [
    ["acme", "growth"],
    ["freeco", "free"],
    ["starterco", "starter"],
    ["bigco", "enterprise"],
    ["umbrella", "growth"],
  ]) {
    await t.org(slug, plan);
    await t.load([
      {
        kind: "competitor",
        org: slug,
        key: "c1",
        name: "Globex <b>Corp</b>",
        website_url: "https://globex.example",
      },
      {
        kind: "signal",
        org: slug,
        key: "s1",
        competitor: "c1",
        title: "Globex raises prices <script>alert(1)</script>",
        summary: "Team plan moved from $49 to $59.",
        severity: "high",
        first_seen_at: "2026-11-18T08:12:00Z",
        evidence: [
          {
            text: "Team — $59 per seat",
            source_title: "Globex pricing",
            source_url: "https://globex.example/pricing",
            observed_at: "2026-11-18T08:12:00Z",
          },
        ],
      },
      { kind: "signal", org: slug, key: "s2", competitor: "c1", title: "Second signal" },
    ]);
    clients[slug] = await mcpClient(t.base, await t.key(slug));
    const r = await t.services.database.client.execute({
      sql: "SELECT s.id, s.key FROM signals s JOIN orgs o ON o.id = s.org_id WHERE o.slug = ?",
      args: [slug],
    });
    for (const row of r.rows) ids[`${slug}.${row.key}`] = Number(row.id);
  }
  growth = clients.acme;
  await call(growth, "add_signal_note", {
    signal_id: ids["acme.s1"],
    body: "Internal: <i>lead with TCO</i>",
  });
});
afterAll(() => t.close());

describe("the public page", () => {
  test("shows the signal with its evidence, escaped, without notes unless included, until expiry", async () => {
    const r = await call(growth, "create_share_link", { signal_id: ids["acme.s1"] });
    expect(r.url).toMatch(new RegExp(`^${t.base}/share/[A-Za-z0-9_-]{43}$`));
    expect(r.include_notes).toBe(false);
    expect(r.expires_at).toBe(new Date(t.clock.now.getTime() + 24 * HOUR).toISOString());
    const page = await html(r.url);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(page.headers.get("x-robots-tag")).toContain("noindex");
    const text = await page.text();
    expect(text).toContain("Globex raises prices &lt;script&gt;");
    expect(text).not.toContain("<script>alert(1)");
    expect(text).toContain("Globex &lt;b&gt;Corp&lt;/b&gt;");
    expect(text).toContain('href="https://globex.example/pricing"');
    expect(text).toContain("Team — $59 per seat");
    expect(text).not.toContain("lead with TCO");
    // Still there an hour before expiry; gone after it (the injected clock).
    t.clock.advance(23 * HOUR);
    expect((await html(r.url)).status).toBe(200);
    t.clock.advance(HOUR);
    const expired = await html(r.url);
    expect(expired.status).toBe(404);
    expect(expired.headers.get("content-type")).toContain("text/html");
    const json = await fetch(r.url, { headers: { accept: "application/json" } });
    expect(json.status).toBe(404);
    expect(json.headers.get("content-type")).toContain("application/problem+json");
    expect((await json.json()).code).toBe("not_found");
  });

  test("include_notes shows the team's notes; a new link replaces the old one at once", async () => {
    const first = await call(growth, "create_share_link", {
      signal_id: ids["acme.s1"],
      include_notes: true,
      expiry: "2h",
    });
    expect(first.replaced_previous).toBe(false); // the earlier one had expired
    const page = await (await html(first.url)).text();
    expect(page).toContain("Team notes");
    expect(page).toContain("Internal: &lt;i&gt;lead with TCO&lt;/i&gt;");
    const second = await call(growth, "create_share_link", { signal_id: ids["acme.s1"] });
    expect(second.replaced_previous).toBe(true);
    expect((await html(first.url)).status).toBe(404);
    expect((await html(second.url)).status).toBe(200);
    // Links of different signals live side by side.
    const other = await call(growth, "create_share_link", { signal_id: ids["acme.s2"] });
    expect((await html(second.url)).status).toBe(200);
    expect((await html(other.url)).status).toBe(200);
    // The signal's engagement shows the current link without its URL.
    const state = await call(growth, "pin_signal", { signal_id: ids["acme.s1"], pinned: false });
    expect(state.share_link).toEqual({ expires_at: second.expires_at, include_notes: false });
  });

  test("unknown and malformed tokens are 404; a removed competitor's signal stops showing", async () => {
    for (const path of ["/share/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "/share/x", "/share/..%2F"])
      expect((await html(t.base + path)).status).toBe(404);
    const r = await call(clients.umbrella, "create_share_link", { signal_id: ids["umbrella.s1"] });
    expect((await html(r.url)).status).toBe(200);
    const list = await call(clients.umbrella, "list_competitors", {});
    await call(clients.umbrella, "remove_competitor", { competitor_id: list.competitors[0].id });
    expect((await html(r.url)).status).toBe(404);
  });

  test("the token is stored only as a SHA-256 digest", async () => {
    const r = await call(growth, "create_share_link", {
      signal_id: ids["acme.s2"],
      idempotency_key: "digest-check",
    });
    const token = r.url.split("/share/")[1];
    const c = t.services.database.client;
    for (const table of ["events", "share_links", "idempotency_keys"]) {
      const rows = await c.execute(`SELECT * FROM ${table}`);
      expect(JSON.stringify(rows.rows)).not.toContain(token);
    }
    const hash = new Bun.CryptoHasher("sha256").update(token).digest("hex");
    const row = await c.execute({
      sql: "SELECT signal_id FROM share_links WHERE token_hash = ?",
      args: [hash],
    });
    expect(Number(row.rows[0].signal_id)).toBe(ids["acme.s2"]);
  });
});

describe("lifetimes by plan", () => {
  test("free and starter allow 24 hours: longer is refused naming the plan that allows it", async () => {
    for (const slug of ["freeco", "starterco"]) {
      const ok = await call(clients[slug], "create_share_link", {
        signal_id: ids[`${slug}.s1`],
        expiry: "24h",
      });
      expect(ok.url).toBeDefined();
      const r = await call(clients[slug], "create_share_link", {
        signal_id: ids[`${slug}.s1`],
        expiry: "7d",
      });
      expect(r.error.code).toBe("plan_required");
      expect(r.error.plan_needed).toBe("growth");
      expect(r.error.message).toContain("Growth");
      expect(r.error.max_hours).toBe(24);
      const iso = await call(clients[slug], "create_share_link", {
        signal_id: ids[`${slug}.s1`],
        expiry: new Date(t.clock.now.getTime() + 48 * HOUR).toISOString(),
      });
      expect(iso.error.code).toBe("plan_required");
    }
  });

  test("growth allows 7 days, enterprise 30; beyond every plan is invalid_argument", async () => {
    const g = await call(growth, "create_share_link", { signal_id: ids["acme.s2"], expiry: "1w" });
    expect(g.expires_at).toBe(new Date(t.clock.now.getTime() + 168 * HOUR).toISOString());
    const g30 = await call(growth, "create_share_link", { signal_id: ids["acme.s2"], expiry: "30d" });
    expect(g30.error.code).toBe("plan_required");
    expect(g30.error.plan_needed).toBe("enterprise");
    const e = await call(clients.bigco, "create_share_link", { signal_id: ids["bigco.s1"], expiry: "30d" });
    expect(e.url).toBeDefined();
    const e60 = await call(clients.bigco, "create_share_link", { signal_id: ids["bigco.s1"], expiry: "60d" });
    expect(e60.error.code).toBe("invalid_argument");
  });

  test("an ISO expiry a moment past the limit (clock skew) is clamped to the limit", async () => {
    const asked = new Date(t.clock.now.getTime() + 24 * HOUR + 60_000).toISOString();
    const r = await call(clients.freeco, "create_share_link", { signal_id: ids["freeco.s2"], expiry: asked });
    expect(r.expires_at).toBe(new Date(t.clock.now.getTime() + 24 * HOUR).toISOString());
  });

  test("bad expiry values, unknown and other org's signals", async () => {
    for (const expiry of ["tomorrow", "0h", "-1d", "2020-01-01T00:00:00Z", "12m"])
      expect(
        (await call(growth, "create_share_link", { signal_id: ids["acme.s1"], expiry })).error.code,
      ).toBe("invalid_argument");
    expect((await call(growth, "create_share_link", { signal_id: 987654 })).error.code).toBe("not_found");
    expect((await call(growth, "create_share_link", { signal_id: ids["freeco.s1"] })).error.code).toBe(
      "not_found",
    );
  });

  test("a member may share (not admin-only)", async () => {
    const member = await principalFor(t, "acme", "member");
    const r = await callAs(t, member, "create_share_link", { signal_id: ids["acme.s1"] });
    expect(r.url).toContain("/share/");
  });
});

describe("idempotency", () => {
  test("a retry returns the first result without the URL and does no new work", async () => {
    const n = await countEvents(t, "ShareLinkCreated");
    const first = await call(growth, "create_share_link", {
      signal_id: ids["acme.s1"],
      idempotency_key: "k-1",
    });
    const retry = await call(growth, "create_share_link", {
      signal_id: ids["acme.s1"],
      idempotency_key: "k-1",
    });
    expect(await countEvents(t, "ShareLinkCreated")).toBe(n + 1);
    expect(retry.url).toBeUndefined();
    expect(retry.url_redacted).toBe(true);
    expect(retry.expires_at).toBe(first.expires_at);
    expect(retry.signal_id).toBe(first.signal_id);
    expect((await html(first.url)).status).toBe(200);
  });

  test("two concurrent duplicates make one link", async () => {
    const n = await countEvents(t, "ShareLinkCreated");
    const args = { signal_id: ids["acme.s2"], idempotency_key: "k-concurrent", include_notes: true };
    const [a, b] = await Promise.all([
      call(growth, "create_share_link", args),
      call(growth, "create_share_link", args),
    ]);
    expect(await countEvents(t, "ShareLinkCreated")).toBe(n + 1);
    expect(a.expires_at).toBe(b.expires_at);
    const live = a.url ?? b.url;
    expect((await html(live)).status).toBe(200);
  });

  test("the same key with other arguments is an error", async () => {
    const r = await call(growth, "create_share_link", { signal_id: ids["acme.s2"], idempotency_key: "k-1" });
    expect(r.error.code).toBe("idempotency_conflict");
  });
});

test("projections rebuild reproduces the share links (a live link keeps working)", async () => {
  const r = await call(growth, "create_share_link", { signal_id: ids["acme.s1"] });
  const before = await dumpReadTables(t);
  await rebuildProjections(t.services.store);
  expect(await dumpReadTables(t)).toEqual(before);
  expect((await html(r.url)).status).toBe(200);
});
