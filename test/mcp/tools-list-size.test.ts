// tools/list is read whole into every client's context window: its size is measured (and printed) in bytes of
// JSON as the official SDK client receives it, each tool keeps its annotations and an output schema, and
// nothing zod emits for its own sake ($schema, the ±2^53−1 bounds of .int()) reaches the list. JSON answers of
// /mcp and the read API are compressed when the client accepts it.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { gunzipSync } from "node:zlib";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { startTestServer, type TestServer } from "../support/helpers.ts";
import { mcpClient, rawPost } from "../support/mcp-helpers.ts";

/** The whole list's budget in bytes of JSON (UTF-8). */
const BUDGET = 32 * 1024;

let t: TestServer;
let client: Client;
let key: string;
beforeAll(async () => {
  t = await startTestServer();
  await t.org("acme", "growth");
  key = await t.key("acme", "read,write,spend");
  client = await mcpClient(t.base, key);
});
afterAll(async () => {
  await client.close();
  await t.close();
});

test("the full tools/list stays within its budget, every tool with annotations and an output schema", async () => {
  const list = await client.listTools();
  const json = JSON.stringify(list);
  const bytes = Buffer.byteLength(json);
  console.log(
    `tools/list: ${list.tools.length} tools, ${bytes} bytes of JSON (budget ${BUDGET}; about ${Math.round(bytes / 4)} tokens at 4 bytes a token)`,
  );
  expect(bytes).toBeLessThanOrEqual(BUDGET);
  expect(json).not.toContain("9007199254740991");
  expect(json).not.toContain("$schema");
  for (const tool of list.tools) {
    // Every hint the protocol gives a meaning: destructive and idempotent only for a tool that is not
    // read-only.
    const a = tool.annotations ?? {};
    expect({ name: tool.name, hints: Object.keys(a).sort() }).toEqual({
      name: tool.name,
      hints: a.readOnlyHint
        ? ["openWorldHint", "readOnlyHint"]
        : ["destructiveHint", "idempotentHint", "openWorldHint", "readOnlyHint"],
    });
    // An output schema names the result's fields and their types.
    expect(tool.outputSchema?.type).toBe("object");
    const fields = Object.values(tool.outputSchema?.properties ?? {}) as { type?: string; anyOf?: unknown }[];
    expect(fields.length).toBeGreaterThan(0);
    for (const f of fields) expect(f.type ?? f.anyOf).toBeDefined();
    // One or two sentences on when to use it, plus the access and untrusted-text notes.
    expect({ name: tool.name, long: (tool.description ?? "").length > 600 }).toEqual({
      name: tool.name,
      long: false,
    });
  }
  // An id is an integer; a count keeps its bounds, and optional integers lost only the bounds zod invents.
  const get = list.tools.find((x) => x.name === "get_competitor")!;
  expect((get.inputSchema.properties as Record<string, unknown>).competitor_id).toEqual({ type: "integer" });
  const search = list.tools.find((x) => x.name === "search_signals")!;
  expect((search.inputSchema.properties as Record<string, unknown>).limit).toEqual({
    default: 20,
    type: "integer",
    minimum: 1,
    maximum: 50,
  });
});

test("the server's instructions say once what every tool shares", async () => {
  const i = client.getInstructions() ?? "";
  expect(i).toContain("idempotency_key");
  expect(i).toContain("next_cursor");
  expect(i).toContain("read scope");
});

const listMessage = { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} };

test("/mcp answers gzip or br when accepted, plain JSON otherwise", async () => {
  const plain = await rawPost(t.base, listMessage, {
    authorization: `Bearer ${key}`,
    "accept-encoding": "identity",
  });
  expect(plain.headers.get("content-encoding")).toBeNull();
  const text = await plain.text();
  expect(JSON.parse(text).result.tools.length).toBeGreaterThan(30);

  const gz = await fetch(`${t.base}/mcp`, {
    method: "POST",
    decompress: false,
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      authorization: `Bearer ${key}`,
      "accept-encoding": "gzip",
    },
    body: JSON.stringify(listMessage),
  } as RequestInit);
  expect(gz.headers.get("content-encoding")).toBe("gzip");
  expect(gz.headers.get("vary")).toContain("Accept-Encoding");
  const raw = new Uint8Array(await gz.arrayBuffer());
  expect(raw.byteLength).toBeLessThan(text.length / 3);
  expect(new TextDecoder().decode(gunzipSync(raw))).toBe(text);

  const br = await fetch(`${t.base}/mcp`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      authorization: `Bearer ${key}`,
      "accept-encoding": "gzip, br",
    },
    body: JSON.stringify(listMessage),
  });
  expect(br.headers.get("content-encoding")).toBe("br");
  // fetch decodes it: the same JSON-RPC answer.
  expect(await br.text()).toBe(text);
});

test("the read API's JSON is compressed too; errors stay problem details", async () => {
  const r = await fetch(`${t.base}/api/v1/competitors`, {
    headers: { authorization: `Bearer ${key}`, "accept-encoding": "gzip" },
  });
  expect(r.status).toBe(200);
  // One competitor is under a kilobyte: sent as it is.
  expect(r.headers.get("content-encoding")).toBeNull();
  expect(Array.isArray((await r.json()).data)).toBe(true);
  // A page of competitors is small; a page of signals is compressed, with the page's entity tag, which
  // answers 304.
  await t.load(
    Array.from({ length: 30 }, (_, i) => ({
      kind: "signal",
      org: "acme",
      key: `s${i}`,
      title: `Signal number ${i} about a price change on the pricing page`,
      first_seen_at: "2026-11-18T00:00:00Z",
      evidence: [{ text: `Team plan now $${50 + i}`, source_url: "https://globex.example/pricing" }],
    })),
  );
  const sig = await fetch(`${t.base}/api/v1/signals`, {
    decompress: false,
    headers: { authorization: `Bearer ${key}`, "accept-encoding": "gzip" },
  } as RequestInit);
  expect(sig.headers.get("content-encoding")).toBe("gzip");
  expect(sig.headers.get("vary")).toContain("Accept-Encoding");
  const etag = sig.headers.get("etag")!;
  expect(etag).toMatch(/^"[0-9a-z-]+"$/);
  expect(
    JSON.parse(new TextDecoder().decode(gunzipSync(new Uint8Array(await sig.arrayBuffer())))).data,
  ).toHaveLength(30);
  const again = await fetch(`${t.base}/api/v1/signals`, {
    headers: { authorization: `Bearer ${key}`, "accept-encoding": "gzip", "if-none-match": etag },
  });
  expect(again.status).toBe(304);
  const missing = await fetch(`${t.base}/api/v1/nothing-here`, {
    headers: { authorization: `Bearer ${key}`, "accept-encoding": "gzip" },
  });
  expect(missing.status).toBe(404);
  expect((await missing.json()).code).toBe("not_found");
});

test("shared parts ($defs, $ref) resolve in the SDK's own validator", async () => {
  const { AjvJsonSchemaValidator } = await import("@modelcontextprotocol/sdk/validation/ajv");
  const v = new AjvJsonSchemaValidator();
  const { tools } = await client.listTools();
  // Every schema compiles as a client compiles it.
  for (const tool of tools) {
    v.getValidator(tool.inputSchema as never);
    v.getValidator(tool.outputSchema as never);
  }
  const channels = tools.find((x) => x.name === "set_delivery_channels")!;
  expect(JSON.stringify(channels.inputSchema)).toContain('"$ref":"#/$defs/');
  const check = v.getValidator(channels.inputSchema as never);
  expect(check({ rules: { email: { min_severity: "high", watch: "core" }, slack: null } }).valid).toBe(true);
  // The rule's shape is read through the reference: a wrong severity is refused there.
  expect(check({ rules: { email: { min_severity: "extreme" } } }).valid).toBe(false);
  expect(check({ webhook_rules: [{ webhook_id: 1, rules: { watch: "nowhere" } }] }).valid).toBe(false);
});
