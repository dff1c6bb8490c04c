// Watchlist tools over the official SDK client: add_competitor, rename_competitor, remove_competitor,
// add_monitored_page, remove_monitored_page — success, every failure class, and effects on the REST API.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { rebuildProjections } from "../../projections/rebuild.ts";
import { startTestServer, type TestServer } from "../support/helpers.ts";
import { body, mcpClient, rawPost, toolsCall } from "../support/mcp-helpers.ts";
import { callAs, countEvents, dumpReadTables, principalFor, rest } from "../support/mcp-write-helpers.ts";

let t: TestServer;
let acme: Client; // growth
let umbrella: Client; // growth, another org
let freebie: Client; // free plan
let acmeKey: string;
const ids: Record<string, number> = {};

const call = async (c: Client, name: string, args: Record<string, unknown>) =>
  body(await c.callTool({ name, arguments: args }));

beforeAll(async () => {
  t = await startTestServer();
  await t.org("acme");
  await t.org("umbrella");
  await t.org("freebie", "free");
  await t.load([
    {
      kind: "competitor",
      org: "acme",
      key: "hooli",
      name: "Hooli",
      website_url: "https://www.hooli.example/",
      reads: { positioning: "Making the world a better place." },
    },
    {
      kind: "signal",
      org: "acme",
      key: "h1",
      competitor: "hooli",
      title: "Hooli launches Nucleus",
      first_seen_at: "2026-11-18T00:00:00Z",
      evidence: [{ source_url: "https://hooli.example/nucleus" }],
    },
    { kind: "battlecard", org: "acme", key: "hb", competitor: "hooli", sections: { overview: "Hooli." } },
    {
      kind: "competitor",
      org: "acme",
      key: "horizon",
      name: "Far Away",
      watch: "horizon",
      website_url: "https://far.example",
    },
    {
      kind: "competitor",
      org: "umbrella",
      key: "u1",
      name: "Umbrella Rival",
      website_url: "https://umbrella-rival.example",
    },
  ]);
  acmeKey = await t.key("acme");
  acme = await mcpClient(t.base, acmeKey);
  umbrella = await mcpClient(t.base, await t.key("umbrella"));
  freebie = await mcpClient(t.base, await t.key("freebie"));
  const list = (await rest(t, acmeKey, "/api/v1/competitors")).json.data as { id: number; name: string }[];
  ids.hooli = list.find((c) => c.name === "Hooli")!.id;
  ids.horizon = list.find((c) => c.name === "Far Away")!.id;
  const u = body(await umbrella.callTool({ name: "list_competitors", arguments: {} }));
  ids.umbrella = u.competitors[0].id;
});
afterAll(() => t.close());

describe("add_competitor", () => {
  test("adds a core competitor from its website, names it from the domain, visible at once in REST", async () => {
    const r = await call(acme, "add_competitor", { website_url: "https://www.Globex-Corp.example/" });
    expect(r.restored).toBe(false);
    expect(r.competitor.name).toBe("Globex Corp");
    expect(r.competitor.watch).toBe("core");
    expect(r.competitor.website_url).toBe("https://www.globex-corp.example/");
    expect(r.core_slots).toEqual({ used: 2, limit: 15, plan: "growth" });
    ids.globex = r.competitor.id;
    const list = await rest(t, acmeKey, "/api/v1/competitors");
    expect(list.json.data.map((c: { id: number }) => c.id)).toContain(ids.globex);
    const one = await rest(t, acmeKey, `/api/v1/competitors/${ids.globex}`);
    expect(one.status).toBe(200);
    expect(one.json.data.tracked_since).toBe(t.clock.now.toISOString());
  });

  test("takes an optional name and a bare domain", async () => {
    const r = await call(acme, "add_competitor", { website_url: "initech.example", name: "Initech Inc." });
    expect(r.competitor.name).toBe("Initech Inc.");
    expect(r.competitor.website_url).toBe("https://initech.example/");
    ids.initech = r.competitor.id;
  });

  test("a website already on the core watchlist is a conflict naming the competitor (scheme, www, slash ignored)", async () => {
    const before = await countEvents(t);
    const r = await call(acme, "add_competitor", { website_url: "http://globex-corp.example" });
    expect(r.error.code).toBe("conflict");
    expect(r.error.competitor_id).toBe(ids.globex);
    expect(await countEvents(t)).toBe(before);
  });

  test("bad websites are invalid_argument", async () => {
    for (const website_url of [
      "ftp://files.example",
      "http://127.0.0.1/",
      "http://localhost:3000",
      "not a url",
    ]) {
      const r = await call(acme, "add_competitor", { website_url });
      expect(r.error.code).toBe("invalid_argument");
    }
    const r = await acme.callTool({ name: "add_competitor", arguments: {} });
    expect(r.isError).toBe(true);
    expect(body(r).error.code).toBe("invalid_argument");
  });

  test("bounded by the plan's core slots: limit_reached names the limit and the plan", async () => {
    for (const d of ["a-one.example", "a-two.example", "a-three.example"]) {
      const r = await call(freebie, "add_competitor", { website_url: d });
      expect(r.competitor.watch).toBe("core");
    }
    const before = await countEvents(t);
    const r = await call(freebie, "add_competitor", { website_url: "a-four.example" });
    expect(r.error.code).toBe("limit_reached");
    expect(r.error.limit).toBe("core_slots");
    expect(r.error.plan).toBe("free");
    expect(r.error.allowed).toBe(3);
    expect(r.error.message).toContain("Free");
    expect(r.error.message).toContain("3 core competitors");
    expect(await countEvents(t)).toBe(before);
  });

  test("a horizon competitor's website moves it to the core watchlist with the same id", async () => {
    const r = await call(acme, "add_competitor", { website_url: "https://far.example/" });
    expect(r.restored).toBe(true);
    expect(r.competitor.id).toBe(ids.horizon);
    expect(r.competitor.watch).toBe("core");
  });

  test("not admin: a member gets forbidden", async () => {
    const member = await principalFor(t, "acme", "member");
    const r = await callAs(t, member, "add_competitor", { website_url: "member.example" });
    expect(r.error.code).toBe("forbidden");
    const admin = await principalFor(t, "acme", "admin");
    const ok = await callAs(t, admin, "add_competitor", { website_url: "admin-added.example" });
    expect(ok.competitor.name).toBe("Admin Added");
  });

  test("missing write scope is HTTP 403 insufficient_scope", async () => {
    const readOnly = await t.key("acme", "read");
    const r = await rawPost(t.base, toolsCall("add_competitor", { website_url: "x.example" }), {
      authorization: `Bearer ${readOnly}`,
    });
    expect(r.status).toBe(403);
    expect(r.headers.get("www-authenticate")).toContain('scope="write"');
  });
});

describe("rename_competitor", () => {
  test("the new name shows at once on the competitor, its signals and its battlecard", async () => {
    const r = await call(acme, "rename_competitor", { competitor_id: ids.hooli, name: "  Hooli XYZ  " });
    expect(r.renamed).toBe(true);
    expect(r.competitor.name).toBe("Hooli XYZ");
    expect((await rest(t, acmeKey, `/api/v1/competitors/${ids.hooli}`)).json.data.name).toBe("Hooli XYZ");
    const sigs = (await rest(t, acmeKey, `/api/v1/signals?competitor_id=${ids.hooli}`)).json.data;
    expect(sigs[0].competitor_name).toBe("Hooli XYZ");
    const card = (await rest(t, acmeKey, `/api/v1/battlecards/${ids.hooli}`)).json.data;
    expect(card.competitor_name).toBe("Hooli XYZ");
    const again = await call(acme, "rename_competitor", { competitor_id: ids.hooli, name: "Hooli XYZ" });
    expect(again.renamed).toBe(false);
  });

  test("unknown id, other org's id, bad name, member", async () => {
    expect((await call(acme, "rename_competitor", { competitor_id: 999999, name: "X" })).error.code).toBe(
      "not_found",
    );
    expect(
      (await call(acme, "rename_competitor", { competitor_id: ids.umbrella, name: "X" })).error.code,
    ).toBe("not_found");
    expect(
      (await call(umbrella, "rename_competitor", { competitor_id: ids.hooli, name: "X" })).error.code,
    ).toBe("not_found");
    expect(
      (await call(acme, "rename_competitor", { competitor_id: ids.hooli, name: "   " })).error.code,
    ).toBe("invalid_argument");
    expect(
      (await call(acme, "rename_competitor", { competitor_id: ids.hooli, name: "x".repeat(201) })).error.code,
    ).toBe("invalid_argument");
    const member = await principalFor(t, "acme", "member");
    expect(
      (await callAs(t, member, "rename_competitor", { competitor_id: ids.hooli, name: "M" })).error.code,
    ).toBe("forbidden");
  });
});

describe("remove_competitor", () => {
  test("takes it off the watchlist: gone from lists and by-id in REST and tools; history back on re-add", async () => {
    const sig = (await rest(t, acmeKey, `/api/v1/signals?competitor_id=${ids.hooli}`)).json.data[0];
    const cardBefore = (await rest(t, acmeKey, `/api/v1/battlecards/${ids.hooli}`)).json.data;
    const r = await call(acme, "remove_competitor", { competitor_id: ids.hooli });
    expect(r.removed).toBe(true);
    expect(r.competitor_id).toBe(ids.hooli);
    expect((await rest(t, acmeKey, `/api/v1/competitors/${ids.hooli}`)).status).toBe(404);
    expect(
      (await rest(t, acmeKey, "/api/v1/competitors")).json.data.map((c: { id: number }) => c.id),
    ).not.toContain(ids.hooli);
    expect((await rest(t, acmeKey, `/api/v1/signals/${sig.id}`)).status).toBe(404);
    expect((await rest(t, acmeKey, `/api/v1/battlecards/${cardBefore.id}`)).status).toBe(404);
    expect((await call(acme, "get_competitor", { competitor_id: ids.hooli })).error.code).toBe("not_found");
    // Removing again: it is no longer tracked.
    expect((await call(acme, "remove_competitor", { competitor_id: ids.hooli })).error.code).toBe(
      "not_found",
    );

    const back = await call(acme, "add_competitor", { website_url: "HTTPS://hooli.example" });
    expect(back.restored).toBe(true);
    expect(back.competitor.id).toBe(ids.hooli);
    expect(back.competitor.name).toBe("Hooli XYZ");
    expect(back.competitor.links.battlecard_id).toBe(cardBefore.id);
    expect((await rest(t, acmeKey, `/api/v1/signals/${sig.id}`)).json.data.competitor_name).toBe("Hooli XYZ");
    expect((await rest(t, acmeKey, `/api/v1/battlecards/${cardBefore.id}`)).status).toBe(200);
  });

  test("re-adding with a name renames the restored record", async () => {
    await call(acme, "remove_competitor", { competitor_id: ids.initech });
    const back = await call(acme, "add_competitor", {
      website_url: "https://initech.example",
      name: "Initech",
    });
    expect(back.competitor.id).toBe(ids.initech);
    expect(back.competitor.name).toBe("Initech");
  });

  test("frees a core slot", async () => {
    const before = (await call(acme, "get_plan_and_limits", {})).usage.core_slots_used;
    const r = await call(acme, "remove_competitor", { competitor_id: ids.initech });
    expect(r.core_slots.used).toBe(before - 1);
    const again = await call(acme, "add_competitor", { website_url: "initech.example" });
    expect(again.core_slots.used).toBe(before);
  });

  test("wrong plan: the free plan gets plan_required naming the plan needed", async () => {
    const list = body(await freebie.callTool({ name: "list_competitors", arguments: {} })).competitors;
    const r = await call(freebie, "remove_competitor", { competitor_id: list[0].id });
    expect(r.error.code).toBe("plan_required");
    expect(r.error.plan_needed).toBe("starter");
    expect(r.error.message).toContain("Starter");
  });

  test("a horizon competitor is not on the core watchlist; unknown, other org, member", async () => {
    await t.load([{ kind: "competitor", org: "acme", key: "h2", name: "Horizon Two", watch: "horizon" }]);
    const h2 = (await rest(t, acmeKey, "/api/v1/competitors")).json.data.find(
      (c: { name: string }) => c.name === "Horizon Two",
    ).id;
    expect((await call(acme, "remove_competitor", { competitor_id: h2 })).error.code).toBe(
      "invalid_argument",
    );
    expect((await call(acme, "remove_competitor", { competitor_id: 424242 })).error.code).toBe("not_found");
    expect((await call(acme, "remove_competitor", { competitor_id: ids.umbrella })).error.code).toBe(
      "not_found",
    );
    const member = await principalFor(t, "acme", "member");
    expect((await callAs(t, member, "remove_competitor", { competitor_id: ids.globex })).error.code).toBe(
      "forbidden",
    );
  });
});

describe("monitored pages", () => {
  test("add, list, duplicate, remove by id and by url", async () => {
    const a = await call(acme, "add_monitored_page", {
      competitor_id: ids.globex,
      url: "https://globex-corp.example/pricing",
    });
    expect(a.page.url).toBe("https://globex-corp.example/pricing");
    expect(a.pages).toHaveLength(1);
    expect(a.limit).toBe(10);
    const b = await call(acme, "add_monitored_page", {
      competitor_id: ids.globex,
      url: "https://docs.globex-corp.example/changelog#latest",
    });
    expect(b.page.url).toBe("https://docs.globex-corp.example/changelog");
    expect(b.pages.map((p: { id: number }) => p.id)).toEqual([a.page.id, b.page.id]);

    const dup = await call(acme, "add_monitored_page", {
      competitor_id: ids.globex,
      url: "http://www.globex-corp.example/pricing/",
    });
    expect(dup.error.code).toBe("conflict");
    expect(dup.error.page_id).toBe(a.page.id);

    const byId = await call(acme, "remove_monitored_page", { competitor_id: ids.globex, page_id: a.page.id });
    expect(byId.removed.id).toBe(a.page.id);
    expect(byId.pages.map((p: { id: number }) => p.id)).toEqual([b.page.id]);
    const byUrl = await call(acme, "remove_monitored_page", {
      competitor_id: ids.globex,
      url: "https://docs.globex-corp.example/changelog",
    });
    expect(byUrl.removed.id).toBe(b.page.id);
    expect(byUrl.pages).toEqual([]);
    // Monitored pages are workspace state, not part of the REST dossier.
    expect(
      (await rest(t, acmeKey, `/api/v1/competitors/${ids.globex}`)).json.data.monitored_pages,
    ).toBeUndefined();
  });

  test("up to 10 pages per competitor: the 11th is limit_reached", async () => {
    for (let i = 1; i <= 10; i++) {
      const r = await call(acme, "add_monitored_page", {
        competitor_id: ids.initech,
        url: `https://initech.example/p${i}`,
      });
      expect(r.pages).toHaveLength(i);
    }
    const r = await call(acme, "add_monitored_page", {
      competitor_id: ids.initech,
      url: "https://initech.example/p11",
    });
    expect(r.error.code).toBe("limit_reached");
    expect(r.error.limit).toBe("monitored_pages_per_competitor");
    expect(r.error.allowed).toBe(10);
    expect(r.error.plan).toBe("growth");
  });

  test("failures: unknown page, both or neither of page_id/url, bad url, horizon, other org, member, free plan", async () => {
    expect(
      (await call(acme, "remove_monitored_page", { competitor_id: ids.globex, page_id: 1 })).error.code,
    ).toBe("not_found");
    expect(
      (
        await call(acme, "remove_monitored_page", {
          competitor_id: ids.globex,
          url: "https://nope.example/x",
        })
      ).error.code,
    ).toBe("not_found");
    expect((await call(acme, "remove_monitored_page", { competitor_id: ids.globex })).error.code).toBe(
      "invalid_argument",
    );
    expect(
      (
        await call(acme, "remove_monitored_page", {
          competitor_id: ids.globex,
          page_id: 5,
          url: "https://a.example",
        })
      ).error.code,
    ).toBe("invalid_argument");
    expect(
      (await call(acme, "add_monitored_page", { competitor_id: ids.globex, url: "file:///etc/passwd" })).error
        .code,
    ).toBe("invalid_argument");
    expect(
      (await call(acme, "add_monitored_page", { competitor_id: ids.globex, url: "http://10.0.0.1/" })).error
        .code,
    ).toBe("invalid_argument");
    await t.load([{ kind: "competitor", org: "acme", key: "h3", name: "Horizon Three", watch: "horizon" }]);
    const h3 = (await rest(t, acmeKey, "/api/v1/competitors")).json.data.find(
      (c: { name: string }) => c.name === "Horizon Three",
    ).id;
    expect(
      (await call(acme, "add_monitored_page", { competitor_id: h3, url: "https://h3.example/" })).error.code,
    ).toBe("invalid_argument");
    expect(
      (await call(acme, "add_monitored_page", { competitor_id: ids.umbrella, url: "https://u.example/" }))
        .error.code,
    ).toBe("not_found");
    expect(
      (await call(acme, "add_monitored_page", { competitor_id: 777777, url: "https://u.example/" })).error
        .code,
    ).toBe("not_found");
    const member = await principalFor(t, "acme", "member");
    for (const name of ["add_monitored_page", "remove_monitored_page"])
      expect(
        (await callAs(t, member, name, { competitor_id: ids.globex, url: "https://globex-corp.example/a" }))
          .error.code,
      ).toBe("forbidden");
    const list = body(await freebie.callTool({ name: "list_competitors", arguments: {} })).competitors;
    for (const name of ["add_monitored_page", "remove_monitored_page"]) {
      const r = await call(freebie, name, {
        competitor_id: list[0].id,
        url: "https://a-one.example/pricing",
      });
      expect(r.error.code).toBe("plan_required");
      expect(r.error.plan_needed).toBe("starter");
    }
  });
});

test("tools/list: the watchlist tools declare schemas and truthful annotations", async () => {
  const { tools } = await acme.listTools();
  const byName = new Map(tools.map((x) => [x.name, x]));
  const add = byName.get("add_competitor")!;
  expect(add.inputSchema.required).toEqual(["website_url"]);
  expect(add.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
  expect(byName.get("remove_competitor")!.annotations).toMatchObject({ destructiveHint: true });
  expect(byName.get("remove_monitored_page")!.description).toContain("page_id or by url");
  for (const n of [
    "add_competitor",
    "rename_competitor",
    "remove_competitor",
    "add_monitored_page",
    "remove_monitored_page",
  ])
    expect(byName.get(n)!.outputSchema?.type).toBe("object");
});

test("projections rebuild reproduces the watchlist tables", async () => {
  const before = await dumpReadTables(t);
  await rebuildProjections(t.services.store);
  expect(await dumpReadTables(t)).toEqual(before);
});
