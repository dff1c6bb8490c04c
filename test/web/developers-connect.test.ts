// /developers shows copy-paste configuration for Claude Code, Claude Desktop, Cursor and VS Code, with OAuth and
// with an API key, pointing at this installation's endpoint; every JSON snippet parses as the client reads it.
// It lists the resource templates and prompts too.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../support/helpers.ts";

let t: TestServer;
let html: string;
beforeAll(async () => {
  t = await startTestServer();
  const r = await fetch(`${t.base}/developers`);
  expect(r.status).toBe(200);
  html = await r.text();
});
afterAll(() => t.close());

const fromHtml = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

/** The text of every code block of the connect section. */
function blocks(): string[] {
  const section = html.slice(html.indexOf('id="connect"'));
  return [...section.matchAll(/<pre[^>]*><code>([\s\S]*?)<\/code><\/pre>/g)].map((m) => fromHtml(m[1]!));
}

test("Claude Code, Claude Desktop, Cursor and VS Code, each with OAuth and with an API key", () => {
  expect(html).toContain('href="#connect"');
  for (const client of ["Claude Code", "Claude Desktop", "Cursor", "VS Code"])
    expect(html).toContain(`<h3>${client}</h3>`);
  const code = blocks();
  expect(code).toHaveLength(8);
  const url = `${t.base}/mcp`;
  expect(code[0]).toBe(`claude mcp add --transport http rivals ${url}`);
  expect(code[1]).toContain('--header "Authorization: Bearer $RIVALS_API_KEY"');
  expect(code[2]).toBe(url);
  const desktop = JSON.parse(code[3]!);
  expect(desktop.mcpServers.rivals.args).toEqual([
    "-y",
    "mcp-remote",
    url,
    "--header",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the client's own placeholder syntax
    "Authorization:${RIVALS_AUTH}",
  ]);
  expect(JSON.parse(code[4]!)).toEqual({ mcpServers: { rivals: { url } } });
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the client's own placeholder syntax
  expect(JSON.parse(code[5]!).mcpServers.rivals.headers.Authorization).toBe("Bearer ${env:RIVALS_API_KEY}");
  expect(JSON.parse(code[6]!)).toEqual({ servers: { rivals: { type: "http", url } } });
  const vscode = JSON.parse(code[7]!);
  expect(vscode.servers.rivals.headers.Authorization).toBe(`Bearer \${input:${vscode.inputs[0].id}}`);
  expect(vscode.inputs[0].password).toBe(true);
});

test("the resources and prompts are listed", () => {
  expect(html).toContain("rivals://competitors/{competitor_id}/dossier.md");
  expect(html).toContain("rivals://digests/{digest}.json");
  for (const p of ["prepare_call", "weekly_brief", "pricing_review", "what_to_watch"])
    expect(html).toContain(`<code>${p}</code>`);
});
