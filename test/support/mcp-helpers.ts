// Connects the official MCP SDK client over HTTP to a running test server.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

export async function mcpClient(base: string, token?: string): Promise<Client> {
  const client = new Client({ name: "rivals-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
    requestInit: token ? { headers: { authorization: `Bearer ${token}` } } : undefined,
  });
  await client.connect(transport);
  return client;
}

/** The structured body of a tool result: the data on success, `{ error: {code, message} }` on failure. */
export function body(result: unknown): any {
  const r = result as {
    isError?: boolean;
    structuredContent?: unknown;
    content: { type: string; text: string }[];
  };
  if (r.isError) return JSON.parse(r.content[0].text);
  return r.structuredContent;
}

/** The JSON-RPC `tools/call` message, for rawPost. */
export function toolsCall(name: string, args: object = {}, id = 1) {
  return { jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } };
}

/** POSTs one raw JSON-RPC message, for transport-level cases the SDK client cannot produce. */
export function rawPost(
  base: string,
  message: unknown,
  headers: Record<string, string> = {},
  signal?: AbortSignal,
) {
  return fetch(`${base}/mcp`, {
    signal,
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body: typeof message === "string" ? message : JSON.stringify(message),
  });
}
