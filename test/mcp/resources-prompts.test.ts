// Resources and prompts with the official SDK client: the workspace's dossiers, battlecards and digests as
// resources (listed, templated, read as Markdown and JSON) behind the same credential and scope as the read
// tools and only within the caller's workspace; the four prompts name the tools and resources they use; the
// server card lists them.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { startTestServer, type TestServer } from "../support/helpers.ts";
import { mcpClient, rawPost } from "../support/mcp-helpers.ts";

let t: TestServer;
let acme: Client;
let umbrella: Client;
let anon: Client;
let globex: number;

beforeAll(async () => {
  t = await startTestServer();
  await t.org("acme", "growth");
  await t.org("umbrella", "growth");
  const r = await t.load([
    {
      kind: "competitor",
      org: "acme",
      key: "c1",
      name: "Globex",
      website_url: "https://globex.example",
      description: "Product analytics for [finance](https://phish.example) teams.",
    },
    {
      kind: "digest",
      org: "acme",
      key: "d1",
      slug: "week-46",
      type: "weekly_tldr",
      title: "Week 46",
      coverage_period_end: "2026-11-15T00:00:00Z",
      generated_at: "2026-11-16T00:00:00Z",
      markdown: "# Week 46\n\nGlobex raised Team to $69.",
    },
    {
      kind: "battlecard",
      org: "acme",
      key: "b1",
      competitor: "c1",
      generated_at: "2026-11-17T00:00:00Z",
      sections: { overview: "Globex sells analytics.", talk_tracks: ["Ask about their seat minimums."] },
    },
    { kind: "competitor", org: "umbrella", key: "u1", name: "Hidden Corp" },
  ]);
  expect(r.errors).toEqual([]);
  acme = await mcpClient(t.base, await t.key("acme", "read"));
  umbrella = await mcpClient(t.base, await t.key("umbrella", "read"));
  anon = await mcpClient(t.base);
  const listed = await acme.callTool({ name: "list_competitors", arguments: {} });
  globex = (listed.structuredContent as { competitors: { id: number }[] }).competitors[0]!.id;
});
afterAll(async () => {
  await t.close();
});

test("the server offers resources and prompts", () => {
  const caps = acme.getServerCapabilities();
  expect(caps?.resources).toBeDefined();
  expect(caps?.prompts).toBeDefined();
});

test("resources/templates/list and resources/list name dossiers, battlecards and digests", async () => {
  const { resourceTemplates } = await acme.listResourceTemplates();
  expect(resourceTemplates.map((r) => r.uriTemplate)).toEqual([
    "rivals://competitors/{competitor_id}/dossier.md",
    "rivals://competitors/{competitor_id}/dossier.json",
    "rivals://competitors/{competitor_id}/battlecard.md",
    "rivals://competitors/{competitor_id}/battlecard.json",
    "rivals://digests/{digest}.md",
    "rivals://digests/{digest}.json",
  ]);
  const { resources } = await acme.listResources();
  expect(resources.map((r) => r.uri).sort()).toEqual(
    [
      `rivals://competitors/${globex}/battlecard.md`,
      `rivals://competitors/${globex}/dossier.md`,
      "rivals://digests/week-46.md",
    ].sort(),
  );
  expect(resources.find((r) => r.uri.endsWith("dossier.md"))?.title).toBe("Globex: dossier");
  // Another workspace sees only its own.
  const other = await umbrella.listResources();
  expect(other.resources.map((r) => r.title)).toEqual(["Hidden Corp: dossier"]);
});

test("resources/read answers Markdown and JSON, escaped and marked as quoted", async () => {
  const md = (await acme.readResource({ uri: `rivals://competitors/${globex}/dossier.md` })).contents[0] as {
    mimeType: string;
    text: string;
  };
  expect(md.mimeType).toBe("text/markdown");
  expect(md.text).toContain("# Globex");
  expect(md.text).toContain("never instructions");
  // A site's text never becomes a live link.
  expect(md.text).not.toMatch(/(?<!\\)\]\(https:\/\/phish\.example/);
  const json = (await acme.readResource({ uri: `rivals://competitors/${globex}/dossier.json` }))
    .contents[0] as {
    text: string;
  };
  const dossier = JSON.parse(json.text);
  expect(dossier.competitor.id).toBe(globex);
  expect(dossier.untrusted_content.fields).toEqual(["competitor"]);

  const card = (await acme.readResource({ uri: `rivals://competitors/${globex}/battlecard.md` }))
    .contents[0] as {
    text: string;
  };
  expect(card.text).toContain("# Battlecard: Globex");
  expect(card.text).toContain("Ask about their seat minimums.");
  const cardJson = (await acme.readResource({ uri: `rivals://competitors/${globex}/battlecard.json` }))
    .contents[0] as { text: string };
  expect(JSON.parse(cardJson.text).battlecard.sections.overview).toBe("Globex sells analytics.");

  const digest = (await acme.readResource({ uri: "rivals://digests/week-46.md" })).contents[0] as {
    text: string;
  };
  expect(digest.text).toContain("Globex raised Team to $69.");
  const latest = (await acme.readResource({ uri: "rivals://digests/latest.json" })).contents[0] as {
    text: string;
  };
  expect(JSON.parse(latest.text).digest.slug).toBe("week-46");
});

test("resources are scoped like the tools: another workspace's ids are not found, no credential is 401", async () => {
  await expect(umbrella.readResource({ uri: `rivals://competitors/${globex}/dossier.md` })).rejects.toThrow(
    /not found/i,
  );
  await expect(acme.readResource({ uri: "rivals://nothing/1" })).rejects.toThrow(/templates/);
  await expect(anon.listResources()).rejects.toThrow();
  const r = await rawPost(t.base, {
    jsonrpc: "2.0",
    id: 1,
    method: "resources/read",
    params: { uri: `rivals://competitors/${globex}/dossier.md` },
  });
  expect(r.status).toBe(401);
  expect(r.headers.get("www-authenticate")).toContain("resource_metadata");
  // Templates and prompts hold no workspace data: no credential needed.
  expect((await anon.listResourceTemplates()).resourceTemplates.length).toBe(6);
});

test("prompts name the tools and resources they use", async () => {
  const { prompts } = await anon.listPrompts();
  expect(prompts.map((p) => p.name)).toEqual([
    "prepare_call",
    "weekly_brief",
    "pricing_review",
    "what_to_watch",
  ]);
  expect(prompts[0]!.arguments).toEqual([
    {
      name: "competitor",
      description: "The competitor's name or domain, e.g. Globex or globex.com.",
      required: true,
    },
  ]);
  const call = await acme.getPrompt({ name: "prepare_call", arguments: { competitor: "Globex" } });
  const text = (call.messages[0]!.content as { text: string }).text;
  for (const used of ["get_battlecard", "get_competitor", "search_signals", "battlecard.md"])
    expect(text).toContain(used);
  expect(text).toContain('competitor "Globex"');
  const weekly = await acme.getPrompt({ name: "weekly_brief" });
  expect((weekly.messages[0]!.content as { text: string }).text).toContain("what_changed");
  const pricing = await acme.getPrompt({ name: "pricing_review", arguments: {} });
  expect((pricing.messages[0]!.content as { text: string }).text).toContain("reads.pricing.plans");
  const watch = await acme.getPrompt({ name: "what_to_watch" });
  expect((watch.messages[0]!.content as { text: string }).text).toContain("add_monitored_page");
  await expect(acme.getPrompt({ name: "prepare_call", arguments: {} })).rejects.toThrow(/competitor/);
});

test("the server card lists tools, resource templates and prompts", async () => {
  const card = await (await fetch(`${t.base}/.well-known/mcp/server-card.json`)).json();
  expect(card.capabilities.resources).toBeDefined();
  expect(card.capabilities.prompts).toBeDefined();
  // Every tool the list has, as listed, with its title and all four hints.
  const { tools } = await acme.listTools();
  expect(card.tools.map((x: { name: string }) => x.name)).toEqual(tools.map((x) => x.name));
  for (const tool of card.tools) {
    const listed = tools.find((x) => x.name === tool.name)!;
    expect(tool.description).toBe(listed.description);
    expect(tool.inputSchema).toEqual(listed.inputSchema);
    expect(tool.outputSchema).toEqual(listed.outputSchema);
    expect(tool.title.length).toBeGreaterThan(3);
    expect(Object.keys(tool.annotations).sort()).toEqual([
      "destructiveHint",
      "idempotentHint",
      "openWorldHint",
      "readOnlyHint",
    ]);
    expect(tool.annotations).toMatchObject(listed.annotations ?? {});
  }
  const { resourceTemplates } = await acme.listResourceTemplates();
  expect(card.resourceTemplates).toEqual(resourceTemplates);
  expect(card.resourceTemplates).toHaveLength(6);
  const { prompts } = await acme.listPrompts();
  expect(card.prompts.map((p: { name: string }) => p.name)).toEqual(prompts.map((p) => p.name));
  for (const p of card.prompts) expect(p.description.length).toBeGreaterThan(20);
  expect(card.prompts.map((p: { name: string }) => p.name)).toEqual([
    "prepare_call",
    "weekly_brief",
    "pricing_review",
    "what_to_watch",
  ]);
});
