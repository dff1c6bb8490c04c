// MCP Inspector's CLI (the official debugging client, from npm) against a running server over Streamable
// HTTP: it lists and calls tools, lists, templates and reads resources, lists and gets prompts, as a developer
// checking the endpoint would.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestServer, type TestServer } from "../support/helpers.ts";

setDefaultTimeout(60_000);

const CLI = join(
  import.meta.dir,
  "../../node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js",
);

let t: TestServer;
let key: string;
let dir: string;
let globex: number;

beforeAll(async () => {
  t = await startTestServer();
  await t.org("acme", "growth");
  const r = await t.load([
    { kind: "competitor", org: "acme", key: "c1", name: "Globex", website_url: "https://globex.example" },
    {
      kind: "signal",
      org: "acme",
      key: "s1",
      competitor: "c1",
      title: "Globex raises prices",
      severity: "high",
      first_seen_at: "2026-11-18T00:00:00Z",
      evidence: [{ text: "Team $69", source_url: "https://globex.example/pricing" }],
    },
  ]);
  expect(r.errors).toEqual([]);
  key = await t.key("acme", "read");
  dir = mkdtempSync(join(tmpdir(), "rivals-inspector-"));
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs the Inspector's CLI with `args` against the server; its stdout parsed as JSON. */
async function inspect(...args: string[]): Promise<any> {
  const proc = Bun.spawn(
    [
      "node",
      CLI,
      "--cli",
      `${t.base}/mcp`,
      "--transport",
      "http",
      "--header",
      `Authorization: Bearer ${key}`,
      ...args,
    ],
    {
      stdout: "pipe",
      stderr: "pipe",
      // Its catalog file in a temporary folder, not the home directory.
      env: { ...process.env, MCP_CATALOG_PATH: join(dir, "mcp.json"), HOME: dir },
    },
  );
  const [out, err, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  expect({ args, code, err: code === 0 ? "" : err }).toEqual({ args, code: 0, err: "" });
  return JSON.parse(out);
}

test("the Inspector lists and calls tools", async () => {
  const list = await inspect("--method", "tools/list");
  const names = list.tools.map((x: { name: string }) => x.name);
  expect(names).toContain("what_changed");
  expect(names).toContain("get_signal");
  const r = await inspect(
    "--method",
    "tools/call",
    "--tool-name",
    "get_competitor",
    "--tool-arg",
    "competitor=Globex",
  );
  expect(r.isError ?? false).toBe(false);
  expect(r.structuredContent.competitor.name).toBe("Globex");
  globex = r.structuredContent.competitor.id;
});

test("the Inspector lists, templates and reads resources", async () => {
  const list = await inspect("--method", "resources/list");
  expect(list.resources.map((r: { uri: string }) => r.uri)).toContain(
    `rivals://competitors/${globex}/dossier.md`,
  );
  const templates = await inspect("--method", "resources/templates/list");
  expect(templates.resourceTemplates.length).toBe(6);
  const read = await inspect(
    "--method",
    "resources/read",
    "--uri",
    `rivals://competitors/${globex}/dossier.md`,
  );
  expect(read.contents[0].text).toContain("# Globex");
});

test("the Inspector lists and gets prompts", async () => {
  const list = await inspect("--method", "prompts/list");
  expect(list.prompts.map((p: { name: string }) => p.name)).toEqual([
    "prepare_call",
    "weekly_brief",
    "pricing_review",
    "what_to_watch",
  ]);
  const got = await inspect(
    "--method",
    "prompts/get",
    "--prompt-name",
    "prepare_call",
    "--prompt-args",
    "competitor=Globex",
  );
  expect(got.messages[0].content.text).toContain("get_battlecard");
});
