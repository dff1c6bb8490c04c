// tools/list is read whole into every client's context window: its size is measured (and printed) as the
// official SDK client receives it, each tool keeps its annotations and an output schema, and nothing zod emits
// for its own sake ($schema, the ±2^53−1 bounds of .int()) reaches the list. JSON answers of /mcp and the read
// API are compressed when the client accepts it.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { gunzipSync } from "node:zlib";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { startTestServer, type TestServer } from "../support/helpers.ts";
import { mcpClient, rawPost } from "../support/mcp-helpers.ts";

/** The whole list's budget in bytes of JSON. */
const BUDGET = 48 * 1024;

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
  console.log(
    `tools/list: ${list.tools.length} tools, ${json.length} bytes of JSON (about ${Math.round(json.length / 4)} tokens at 4 bytes a token)`,
  );
  expect(json.length).toBeLessThanOrEqual(BUDGET);
  expect(json).not.toContain("9007199254740991");
  expect(json).not.toContain("$schema");
  for (const tool of list.tools) {
    const a = tool.annotations ?? {};
    expect({ name: tool.name, hints: Object.keys(a).sort() }).toEqual({
      name: tool.name,
      hints: ["destructiveHint", "idempotentHint", "openWorldHint", "readOnlyHint"],
    });
    expect(tool.outputSchema?.type).toBe("object");
    expect(Object.keys(tool.outputSchema?.properties ?? {}).length).toBeGreaterThan(0);
    // One or two sentences on when to use it, plus the access and untrusted-text notes.
    expect({ name: tool.name, long: (tool.description ?? "").length > 600 }).toEqual({
      name: tool.name,
      long: false,
    });
  }
  // Ids still say they start at 1; optional integers lost only the bounds zod invents.
  const get = list.tools.find((x) => x.name === "get_competitor")!;
  expect((get.inputSchema.properties as Record<string, { minimum?: number }>).competitor_id?.minimum).toBe(1);
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
