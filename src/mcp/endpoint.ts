// POST /mcp: MCP Streamable HTTP, stateless, one JSON answer per POST. Credentials and scopes are checked
// here, at the HTTP layer, because their failures are HTTP 401/403 with WWW-Authenticate (MCP auth spec).
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "@modelcontextprotocol/sdk/types.js";
import { Elysia } from "elysia";
import { presentedToken } from "../auth/apiKeys.ts";
import type { CredentialResolver } from "../auth/credentials.ts";
import type { Principal } from "../auth/principal.ts";
import type { Services } from "../services.ts";
import { callTool } from "./call.ts";
import { toolList, toolsByName } from "./registry.ts";

export const SERVER_INFO = { name: "rivals", title: "Rivals competitive intelligence", version: "1.0.0" };
export const MAX_BODY_BYTES = 1024 * 1024;
const SCOPES = ["read", "write", "spend"];

type Msg = { jsonrpc?: string; id?: string | number | null; method?: string; params?: { name?: unknown } };

function rpcError(
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
  id: Msg["id"] = null,
) {
  return new Response(JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } }), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

export function resourceMetadataUrl(base: string) {
  return `${base}/.well-known/oauth-protected-resource`;
}

function createMcpServer(s: Services, principal: Principal | null, requestId: string) {
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: { listChanged: false } },
    instructions:
      "Rivals holds a workspace's competitive intelligence: tracked competitors with dossiers, evidence-backed signals, digests and battlecards. Start with list_competitors or what_changed; write tools change the workspace for the whole team.",
  });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: toolList as never }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const tool = toolsByName.get(req.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${req.params.name}`);
    return callTool(
      tool,
      { s, principal, requestId, base: s.config.baseUrl, now: s.clock() },
      req.params.arguments,
    );
  });
  return server;
}

export function mcpEndpoint(s: Services, credentials: CredentialResolver) {
  const base = s.config.baseUrl;
  const resource = `${base}/mcp`;
  const allowedOrigins = new Set([
    new URL(base).origin,
    ...(process.env.RIVALS_ALLOWED_ORIGINS ?? "")
      .split(",")
      .map((o) => o.trim())
      .filter(Boolean),
  ]);
  const challenge = (extra = "") => `Bearer resource_metadata="${resourceMetadataUrl(base)}"${extra}`;

  const handle = async (request: Request, requestId: string): Promise<Response> => {
    const origin = request.headers.get("origin");
    if (origin !== null && !allowedOrigins.has(origin))
      return rpcError(403, -32000, `Origin ${origin} is not allowed.`);
    const version = request.headers.get("mcp-protocol-version");
    if (version !== null && !SUPPORTED_PROTOCOL_VERSIONS.includes(version))
      return rpcError(
        400,
        -32000,
        `Unsupported MCP-Protocol-Version ${version}; supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(", ")}.`,
      );
    const type = request.headers.get("content-type") ?? "";
    if (!/^application\/json\b/i.test(type))
      return rpcError(415, -32000, "Content-Type must be application/json.");
    const declared = Number(request.headers.get("content-length") ?? "0");
    if (declared > MAX_BODY_BYTES)
      return rpcError(413, -32600, `The request body is larger than ${MAX_BODY_BYTES} bytes.`);
    const bytes = await request.arrayBuffer();
    if (bytes.byteLength > MAX_BODY_BYTES)
      return rpcError(413, -32600, `The request body is larger than ${MAX_BODY_BYTES} bytes.`);
    let body: unknown;
    try {
      body = JSON.parse(new TextDecoder().decode(bytes));
    } catch {
      return rpcError(400, -32700, "Parse error: the body is not valid JSON.");
    }
    const msgs = (Array.isArray(body) ? body : [body]) as Msg[];
    if (msgs.length === 0 || msgs.some((m) => typeof m !== "object" || m === null))
      return rpcError(400, -32600, "Invalid request: expected a JSON-RPC message object.");

    // Which scopes the calls in this message need; public tools and unknown tools need none.
    const needed = new Set<string>();
    for (const m of msgs) {
      if (m.method !== "tools/call") continue;
      const tool = typeof m.params?.name === "string" ? toolsByName.get(m.params.name) : undefined;
      if (tool && tool.access !== "public") needed.add(tool.access);
    }
    const cred = await credentials.resolve(presentedToken(request.headers), resource);
    let principal: Principal | null = null;
    if (cred.kind === "ok") principal = cred.principal;
    if (needed.size > 0) {
      if (cred.kind === "none")
        return rpcError(401, -32001, "Authentication required: send an API key or an OAuth access token.", {
          "www-authenticate": challenge(),
        });
      if (cred.kind === "invalid")
        return rpcError(401, -32001, cred.reason, {
          "www-authenticate": challenge(
            `, error="invalid_token", error_description="${cred.reason.replaceAll('"', "'")}"`,
          ),
        });
      const missing = SCOPES.filter((sc) => needed.has(sc) && !principal!.scopes.includes(sc as never));
      if (missing.length)
        return rpcError(403, -32003, `Insufficient scope: this call needs ${missing.join(" ")}.`, {
          "www-authenticate": challenge(`, error="insufficient_scope", scope="${missing.join(" ")}"`),
        });
    }
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    const server = createMcpServer(s, principal, requestId);
    await server.connect(transport);
    try {
      return await transport.handleRequest(request, { parsedBody: body });
    } finally {
      void server.close();
    }
  };

  const notAllowed = () =>
    rpcError(
      405,
      -32000,
      "Method not allowed: this endpoint takes POST only (stateless, no server-sent events).",
      {
        allow: "POST",
      },
    );

  const serverCard = () =>
    new Response(
      JSON.stringify({
        $schema: "https://static.modelcontextprotocol.io/schemas/mcp-server-card/v1.json",
        name: SERVER_INFO.name,
        title: SERVER_INFO.title,
        version: SERVER_INFO.version,
        description:
          "Competitive intelligence for one workspace: tracked competitors, evidence-backed signals, digests and battlecards, with write tools for the team and four public tools.",
        websiteUrl: base,
        remotes: [
          { type: "streamable-http", url: resource, supportedProtocolVersions: SUPPORTED_PROTOCOL_VERSIONS },
        ],
        authentication: {
          required: false,
          schemes: ["bearer", "oauth2"],
          protectedResourceMetadata: resourceMetadataUrl(base),
        },
        capabilities: { tools: { listChanged: false } },
      }),
      {
        headers: {
          "content-type": "application/json",
          "access-control-allow-origin": "*",
          "access-control-allow-methods": "GET, OPTIONS",
          "cache-control": "public, max-age=3600",
        },
      },
    );

  const protectedResource = () =>
    new Response(
      JSON.stringify({
        resource,
        authorization_servers: [base],
        scopes_supported: SCOPES,
        bearer_methods_supported: ["header"],
        resource_name: "Rivals MCP tool server",
        resource_documentation: `${base}/developers`,
      }),
      {
        headers: {
          "content-type": "application/json",
          "access-control-allow-origin": "*",
          "cache-control": "public, max-age=3600",
        },
      },
    );

  return new Elysia()
    .post(
      "/mcp",
      ({ request, set }) => handle(request, String(set.headers["x-request-id"] ?? crypto.randomUUID())),
      {
        parse: "none",
      },
    )
    .get("/mcp", notAllowed)
    .delete("/mcp", notAllowed)
    .get("/.well-known/mcp/server-card.json", serverCard)
    .get("/mcp/server-card", serverCard)
    .get("/.well-known/oauth-protected-resource", protectedResource)
    .get("/.well-known/oauth-protected-resource/mcp", protectedResource);
}
