// The official MCP SDK client's own OAuth flow against this server: StreamableHTTPClientTransport with an
// OAuthClientProvider, from a bare 401 on tools/call to a successful tool call. The provider's
// redirectToAuthorization plays the person: it opens the authorization URL, signs in and approves
// through the real pages, and keeps the code for transport.finishAuth().
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import { startTestServer, type TestServer } from "../support/helpers.ts";
import { authorizeInBrowser, Browser, type Member, member } from "../support/oauth-helpers.ts";

const REDIRECT = "http://127.0.0.1:53682/sdk-callback";

class PersonDrivenProvider implements OAuthClientProvider {
  info?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier?: string;
  code?: string;
  authorizationUrls: URL[] = [];
  constructor(
    private browser: Browser,
    private person: Member,
    preset?: OAuthClientInformationMixed,
  ) {
    this.info = preset;
  }
  get redirectUrl() {
    return REDIRECT;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "SDK test agent",
      redirect_uris: [REDIRECT],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  state() {
    return "sdk-state";
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  async redirectToAuthorization(url: URL) {
    this.authorizationUrls.push(url);
    const out = await authorizeInBrowser(this.browser, url.href, {}, this.person);
    const back = new URL(out.location!);
    expect(back.searchParams.get("state")).toBe("sdk-state");
    this.code = back.searchParams.get("code") ?? undefined;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier!;
  }
}

let t: TestServer;
let docs: ReturnType<typeof Bun.serve>;
let docUrl: string;
let alice: Member;

beforeAll(async () => {
  docs = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: () =>
      new Response(
        JSON.stringify({
          client_id: docUrl,
          client_name: "SDK metadata-document agent",
          redirect_uris: [REDIRECT],
          grant_types: ["authorization_code", "refresh_token"],
          response_types: ["code"],
          token_endpoint_auth_method: "none",
        }),
        { headers: { "content-type": "application/json", "cache-control": "max-age=300" } },
      ),
  });
  docUrl = `http://127.0.0.1:${docs.port}/oauth/client-metadata.json`;
  t = await startTestServer({ RIVALS_OAUTH_CIMD_ALLOW_HOSTS: `127.0.0.1:${docs.port}` });
  await t.org("acme", "growth");
  alice = await member(t, "acme", "admin");
});
afterAll(async () => {
  await t.close();
  docs.stop(true);
});

async function runFlow(provider: PersonDrivenProvider) {
  const transport = new StreamableHTTPClientTransport(new URL(`${t.base}/mcp`), { authProvider: provider });
  const client = new Client({ name: "sdk-oauth-test", version: "1.0.0" });
  await client.connect(transport); // initialize needs no credential
  // The bare call: 401 with resource_metadata → discovery → registration → authorization (person approves).
  await expect(client.callTool({ name: "list_competitors", arguments: {} })).rejects.toBeInstanceOf(
    UnauthorizedError,
  );
  expect(provider.code).toBeTruthy();
  await transport.finishAuth(provider.code!);
  expect(provider.saved?.access_token).toMatch(/^rvo_/);
  const result = await client.callTool({ name: "list_competitors", arguments: {} });
  expect(result.isError).toBeFalsy();
  return { client, transport };
}

describe("MCP SDK client OAuth", () => {
  test("dynamic registration, from a bare 401 to a successful tool call", async () => {
    const provider = new PersonDrivenProvider(new Browser(t), alice);
    const { client } = await runFlow(provider);
    expect(provider.info?.client_id).toMatch(/^rvc_/);
    const url = provider.authorizationUrls[0];
    expect(url.origin + url.pathname).toBe(`${t.base}/oauth/authorize`);
    expect(url.searchParams.get("resource")).toBe(`${t.base}/mcp`);
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("scope")).toBe("read write spend");
    // An expired access token: 401 invalid_token, the SDK refreshes (rotation) and retries by itself.
    t.clock.advance(3601_000);
    const before = provider.saved!;
    expect((await client.callTool({ name: "list_competitors", arguments: {} })).isError).toBeFalsy();
    expect(provider.saved!.access_token).not.toBe(before.access_token);
    expect(provider.saved!.refresh_token).not.toBe(before.refresh_token);
    expect(provider.authorizationUrls.length).toBe(1); // no second trip to the person
    await client.close();
  });

  test("client ID metadata document served on loopback (allow-listed)", async () => {
    // The SDK takes clientMetadataUrl only over https; this loopback document is plain http, which the
    // server accepts for an allow-listed loopback host only. The URL is handed to the SDK as the client's
    // information, so it is sent as client_id exactly as a metadata-document client id would be.
    const provider = new PersonDrivenProvider(new Browser(t), alice, { client_id: docUrl });
    await runFlow(provider);
    expect(provider.authorizationUrls[0].searchParams.get("client_id")).toBe(docUrl);
    const consents = await t.services.database.client.execute({
      sql: "SELECT scopes FROM oauth_consents WHERE client_id = ?",
      args: [docUrl],
    });
    expect(consents.rows.length).toBe(1);
  });
});
