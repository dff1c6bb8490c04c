// The HTTP application, composed: the HTTP kit's plugins (src/http/) for every surface, then the surfaces —
// the read API, the OpenAPI document, the pages, sign-in, the tool endpoint, the shared pages and OAuth —
// after the client log and sessions plugins, which the read API (its errors go to the error hook; API keys, no
// cookies) does without, compiled before they are added.
import { Elysia } from "elysia";
import { openApi } from "./api/openapi.ts";
import { readApi } from "./api/routes.ts";
import { ApiKeyResolver } from "./auth/apiKeys.ts";
import { CredentialResolver } from "./auth/credentials.ts";
import { accessLog } from "./http/accessLog.ts";
import { clientAddresses } from "./http/address.ts";
import { clientLog } from "./http/clientLog.ts";
import { compression } from "./http/compression.ts";
import { problemDetails } from "./http/errors.ts";
import { healthRoute } from "./http/health.ts";
import { limiterFor } from "./http/rateLeases.ts";
import type { Limiter } from "./http/rateLimit.ts";
import { requestIds } from "./http/requestId.ts";
import { mcpEndpoint, SERVER_INFO } from "./mcp/endpoint.ts";
import { oauthRoutes } from "./oauth/routes.ts";
import type { Services } from "./services.ts";
import { htmlErrorPage } from "./web/errorPages.tsx";
import { memberSessions } from "./web/member.ts";
import { webPages } from "./web/pages.tsx";
import { sharePage } from "./web/share.tsx";
import { memberPages } from "./web/signin.tsx";

export interface AppParts {
  limiter: Limiter;
  keys: ApiKeyResolver;
  credentials: CredentialResolver;
}

/** Compiles the handlers of the routes under `prefix` now, instead of at their first request. Elysia builds each
 * handler to prepare only what the hooks and handlers it knows of read (cookies, the headers as an object,
 * the parsed query …), and it compiles lazily, with what the whole application reads by then: the sign-in
 * pages' cookies included. Compiled here, before the pages are added, the read API's handlers skip that work
 * (bench/read-api.ts, docs/read-path.md). */
function compileNow(app: { routes: { path: string }[] }, prefix: string): void {
  for (const route of app.routes)
    if (route.path.startsWith(prefix)) (route as { compile?: () => unknown }).compile?.();
}

export function createApp(s: Services, extra: (app: Elysia) => Elysia = (a) => a) {
  const parts: AppParts = {
    limiter: limiterFor(s, "read_api", s.config.rateLimitPerMinute),
    keys: new ApiKeyResolver(s.database, s.clock),
    credentials: new CredentialResolver(),
  };
  parts.credentials.addResolver(parts.keys.asTokenResolver());
  const app = new Elysia()
    .use(clientAddresses(s.config.trustProxy))
    .use(accessLog(s.config.accessLog, s.clock))
    .use(compression())
    .use(requestIds(s.config.baseUrl))
    .use(problemDetails(s, (request, status, requestId) => htmlErrorPage(s, request, status, requestId)))
    .use(readApi(s, parts.limiter, parts.keys));
  compileNow(app, "/api/v1/");
  app
    .use(clientLog(s))
    .use(memberSessions(s))
    .use(healthRoute(s, SERVER_INFO.version))
    .use(openApi(s))
    .use(webPages(s))
    .use(memberPages(s))
    .use(mcpEndpoint(s, parts.credentials))
    .use(sharePage(s))
    // OAuth 2.1 authorization server; registers its access-token resolver on parts.credentials.
    .use(oauthRoutes(s, parts.credentials));
  return { app: extra(app as unknown as Elysia), parts };
}
