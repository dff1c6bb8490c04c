// POST /mcp: MCP Streamable HTTP, stateless, one JSON answer per POST. Credentials and scopes are checked
// here, at the HTTP layer, because their failures are HTTP 401/403 with WWW-Authenticate (MCP auth spec).
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { Server as HttpServer } from "bun";
import { Elysia } from "elysia";
import { presentedToken } from "../auth/apiKeys.ts";
import type { CredentialResolver } from "../auth/credentials.ts";
import { hasScope, type Principal } from "../auth/principal.ts";
import { SCOPES } from "../domain/apiKeys.ts";
import { clientAddress } from "../http/address.ts";
import { limiterFor } from "../http/rateLeases.ts";
import {
  type Limiter,
  pauseBeforeRefusal,
  type RateDecision,
  rateLimit,
  rateLimitHeaders,
} from "../http/rateLimit.ts";
import type { Services } from "../services.ts";
import { callTool } from "./call.ts";
import { getPrompt, listPrompts } from "./prompts.ts";
import { toolCards, toolList, toolsByName } from "./registry.ts";
import { listResources, RESOURCE_TEMPLATES, readResource } from "./resources.ts";
import { UNTRUSTED_INSTRUCTIONS } from "./untrusted.ts";

/** What every tool shares, said once here rather than in each tool's schema (tools/list is read whole). */
const CONVENTIONS =
  "Every tool needs the read scope; a tool that needs write or spend says so. A list result carries next_cursor (notes: notes_next_cursor) when more follow: pass it back as cursor (notes_cursor) for the next page. idempotency_key (any unique string): a retry with the same key within 24 hours returns the first result and does no new work. Where a tool takes competitor_id, competitor (its name or domain) works too. Errors name the argument and the tool that lists valid values.";

const CAPABILITIES = {
  tools: { listChanged: false },
  resources: { listChanged: false, subscribe: false },
  prompts: { listChanged: false },
};

/** Methods that read the workspace outside tools/call, and the scope they need (as the read tools). */
const READ_METHODS = new Set(["resources/list", "resources/read"]);

export const SERVER_INFO = { name: "rivals", title: "Rivals competitive intelligence", version: "1.0.0" };
export const MAX_BODY_BYTES = 1024 * 1024;

type Credential = Awaited<ReturnType<CredentialResolver["resolve"]>>;
/** Where a request keeps its resolved credential (a property, as http/address.ts keeps the address). */
const CREDENTIAL = Symbol("rivals.mcpCredential");

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

/** JSON-RPC error code of a call refused by the rate limit (HTTP 429), in the implementation-defined
 * server-error range like the endpoint's other transport errors. */
export const RATE_LIMITED_CODE = -32029;

/** Whose budget a call spends: an API key's own, an OAuth member's in one workspace (all their connected
 * apps share it), or, without a valid credential (public tools, the handshake, a refused token), the client
 * address's. */
function budgetKey(principal: Principal | null, address: string): string {
  if (!principal) return `address:${address}`;
  if (principal.via === "api_key") return `api_key:${principal.keyId}`;
  return `oauth:${principal.orgId}:${principal.actor}`;
}

function rateLimited(d: RateDecision, who: "credential" | "address") {
  return rpcError(
    429,
    RATE_LIMITED_CODE,
    `Rate limit exceeded: more than ${d.limit} tool endpoint requests in one minute from this ${who}; retry after ${d.resetSeconds} s.`,
    rateLimitHeaders(d),
  );
}

export function resourceMetadataUrl(base: string) {
  return `${base}/.well-known/oauth-protected-resource`;
}

/** The SDK's JSON Schema validator (it checks elicitation answers, which Rivals never asks for). A Server made
 * without one builds its own Ajv instance, about a third of a tool call's CPU, per request. */
let validator: AjvJsonSchemaValidator | undefined;

function createMcpServer(s: Services, principal: Principal | null, requestId: string, address: string) {
  validator ??= new AjvJsonSchemaValidator();
  const server = new Server(SERVER_INFO, {
    jsonSchemaValidator: validator,
    capabilities: CAPABILITIES,
    instructions: `Rivals holds a workspace's competitive intelligence: tracked competitors with dossiers, evidence-backed signals, digests and battlecards. Start with list_competitors or what_changed; write tools change the workspace for the whole team. ${CONVENTIONS} ${UNTRUSTED_INSTRUCTIONS}`,
  });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: toolList as never }));
  // The endpoint has asked for the read scope before resources/list and resources/read get here.
  const authed = () => {
    if (!principal) throw new McpError(ErrorCode.InvalidRequest, "This method needs a credential.");
    return { s, principal, requestId, base: s.config.baseUrl, now: s.clock(), address };
  };
  server.setRequestHandler(ListResourcesRequestSchema, async (req) =>
    listResources(authed(), req.params?.cursor),
  );
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: RESOURCE_TEMPLATES,
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (req) => readResource(authed(), req.params.uri));
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: listPrompts() }));
  server.setRequestHandler(GetPromptRequestSchema, async (req) =>
    getPrompt(req.params.name, req.params.arguments),
  );
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const tool = toolsByName.get(req.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${req.params.name}`);
    return callTool(
      tool,
      { s, principal, requestId, base: s.config.baseUrl, now: s.clock(), address },
      req.params.arguments,
    );
  });
  return server;
}

export function mcpEndpoint(
  s: Services,
  credentials: CredentialResolver,
  limiter: Limiter = limiterFor(s, "mcp", s.config.mcpRateLimitPerMinute),
) {
  const base = s.config.baseUrl;
  const resource = `${base}/mcp`;
  const allowedOrigins = new Set([new URL(base).origin, ...s.config.mcpAllowedOrigins]);
  const challenge = (extra = "") => `Bearer resource_metadata="${resourceMetadataUrl(base)}"${extra}`;

  // The credential a POST presents, resolved once: its budget is spent before anything else is looked at (the
  // rate limit below), then the call is answered with it.
  const credentialOf = (request: Request): Promise<Credential> => {
    const r = request as Request & { [CREDENTIAL]?: Promise<Credential> };
    r[CREDENTIAL] ??= credentials.resolve(presentedToken(request.headers), resource);
    return r[CREDENTIAL];
  };
  const principalOf = (cred: Credential): Principal | null => (cred.kind === "ok" ? cred.principal : null);
  const whoOf = (principal: Principal | null) => (principal ? "credential" : "address");
  // Every POST spends one unit of a budget first: the credential's when it is valid, otherwise the address's.
  const limit = rateLimit(limiter, s.config.trustProxy, {
    key: async (request, address) => budgetKey(principalOf(await credentialOf(request)), address),
    refuse: async (d, request) => {
      await pauseBeforeRefusal();
      return rateLimited(d, whoOf(principalOf(await credentialOf(request))));
    },
  });

  const handle = async (
    request: Request,
    headers: Record<string, string>,
    requestId: string,
    address: string,
  ): Promise<Response> => {
    const cred = await credentialOf(request);
    const principal = principalOf(cred);
    const budget = budgetKey(principal, address);
    return answer(request, requestId, address, cred, principal, async (extra) => {
      // A batch spends one unit per message; the first was spent by the rate limit. The answer's RateLimit-*
      // headers say the budget after the whole batch.
      const rate = await limiter.take(budget, extra);
      if (rate.allowed) {
        rateLimitHeaders(rate, headers);
        return undefined;
      }
      await pauseBeforeRefusal();
      return rateLimited(rate, whoOf(principal));
    });
  };

  const answer = async (
    request: Request,
    requestId: string,
    address: string,
    cred: Credential,
    principal: Principal | null,
    spend: (extra: number) => Promise<Response | undefined>,
  ): Promise<Response> => {
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
    if (msgs.length > 1) {
      const refused = await spend(msgs.length - 1);
      if (refused) return refused;
    }

    // Which scopes the calls in this message need; public tools and unknown tools need none.
    const needed = new Set<string>();
    for (const m of msgs) {
      if (m.method !== undefined && READ_METHODS.has(m.method)) needed.add("read");
      if (m.method !== "tools/call") continue;
      const tool = typeof m.params?.name === "string" ? toolsByName.get(m.params.name) : undefined;
      if (tool && tool.access !== "public") needed.add(tool.access);
    }
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
      const missing = SCOPES.filter((sc) => needed.has(sc) && !hasScope(principal!, sc));
      if (missing.length)
        return rpcError(403, -32003, `Insufficient scope: this call needs ${missing.join(" ")}.`, {
          "www-authenticate": challenge(`, error="insufficient_scope", scope="${missing.join(" ")}"`),
        });
    }
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    const server = createMcpServer(s, principal, requestId, address);
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
          "Competitive intelligence for one workspace: tracked competitors, evidence-backed signals, digests and battlecards, with write tools for the team and four public tools; dossiers, battlecards and digests as resources (Markdown and JSON); prompts for a sales call, the weekly brief, a pricing review and what to watch.",
        websiteUrl: base,
        remotes: [
          { type: "streamable-http", url: resource, supportedProtocolVersions: SUPPORTED_PROTOCOL_VERSIONS },
        ],
        authentication: {
          required: false,
          schemes: ["bearer", "oauth2"],
          protectedResourceMetadata: resourceMetadataUrl(base),
        },
        capabilities: CAPABILITIES,
        // What tools/list, resources/templates/list and prompts/list answer, with each tool's title and all
        // four hints: a registry or a person reads the card without connecting.
        tools: toolCards,
        resourceTemplates: RESOURCE_TEMPLATES,
        prompts: listPrompts().map((p) => ({ ...p, arguments: p.arguments ?? [] })),
        _meta: {
          "rivals/documentation": `${base}/developers`,
          "rivals/rate-limits": {
            window_seconds: 60,
            requests_per_credential: s.config.mcpRateLimitPerMinute,
            requests_per_address_without_credential: s.config.mcpRateLimitPerMinute,
            exceeded:
              "HTTP 429 with Retry-After (seconds) and a JSON-RPC error with code -32029, sent after a one-second pause; a JSON-RPC batch counts each message",
          },
        },
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
    .use(
      new Elysia()
        .use(limit)
        .post(
          "/mcp",
          ({ request, set, server }) =>
            handle(
              request,
              set.headers as Record<string, string>,
              String(set.headers["x-request-id"] ?? crypto.randomUUID()),
              clientAddress(request, server as HttpServer<unknown> | null, s.config.trustProxy),
            ),
          { parse: "none" },
        ),
    )
    .get("/mcp", notAllowed)
    .delete("/mcp", notAllowed)
    .get("/.well-known/mcp/server-card.json", serverCard)
    .get("/mcp/server-card", serverCard)
    .get("/.well-known/oauth-protected-resource", protectedResource)
    .get("/.well-known/oauth-protected-resource/mcp", protectedResource);
}
