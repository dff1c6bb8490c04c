// Clients: dynamic registration (RFC 7591) into the oauth_clients table, look-up by id (registered
// ids, or metadata-document URLs through the cache), and client authentication at the token endpoint.
import { randomBytes } from "node:crypto";
import { digestsEqual, randomSecret, sha256 } from "../auth/tokens.ts";
import { insertClient, registeredClient } from "../db/oauth.ts";
import type { Services } from "../services.ts";
import { type ClientMetadataDocuments, looksLikeUrlClientId } from "./cimd.ts";
import { checkClientMetadata, type OAuthClient, publicMetadata } from "./clientMetadata.ts";
import { OAuthError } from "./errors.ts";

export class Clients {
  constructor(
    private s: Services,
    private documents: ClientMetadataDocuments,
  ) {}

  /** RFC 7591 3: registers a client and returns the response body (with the secret, once). */
  async register(body: unknown): Promise<Record<string, unknown>> {
    const meta = checkClientMetadata(body, "registered");
    const client_id = `rvc_${randomBytes(16).toString("base64url")}`;
    const confidential = meta.token_endpoint_auth_method !== "none";
    const secret = confidential ? randomSecret("rvs_") : undefined;
    const issuedAt = Math.floor(this.s.clock().getTime() / 1000);
    const client: OAuthClient = {
      client_id,
      source: "registered",
      client_id_issued_at: issuedAt,
      ...meta,
    };
    const stored = publicMetadata(client);
    await this.s.store.writeTables(({ later, now }) =>
      insertClient(later, {
        clientId: client_id,
        secretHash: secret ? sha256(secret) : null,
        metadata: JSON.stringify(stored),
        createdAt: now.toISOString(),
      }),
    );
    return secret ? { ...stored, client_secret: secret, client_secret_expires_at: 0 } : stored;
  }

  /** The client with this id, or undefined when there is none (a metadata-document URL that cannot be
   * fetched or is not acceptable throws an OAuthError saying why). */
  async find(clientId: string): Promise<OAuthClient | undefined> {
    if (!clientId || clientId.length > 2000) return undefined;
    if (looksLikeUrlClientId(clientId)) return this.documents.get(clientId);
    const row = await registeredClient(this.s.database, clientId);
    if (!row) return undefined;
    const m = JSON.parse(row.metadata) as Record<string, unknown>;
    return {
      client_id: clientId,
      source: "registered",
      client_name: m.client_name as string | undefined,
      client_uri: m.client_uri as string | undefined,
      logo_uri: m.logo_uri as string | undefined,
      redirect_uris: m.redirect_uris as string[],
      grant_types: m.grant_types as string[],
      response_types: m.response_types as string[],
      token_endpoint_auth_method: m.token_endpoint_auth_method as OAuthClient["token_endpoint_auth_method"],
      scope: typeof m.scope === "string" ? (m.scope.split(" ") as OAuthClient["scope"]) : undefined,
      client_id_issued_at: m.client_id_issued_at as number | undefined,
      secret_hash: row.secretHash ?? undefined,
    };
  }

  /** RFC 6749 2.3 / 3.2.1: identifies and authenticates the client of a token or revocation request.
   * Confidential clients authenticate with HTTP Basic or with client_secret in the body; public clients
   * send only client_id. Failures are `invalid_client`, 401 with a Basic challenge when Basic was used. */
  async authenticate(headers: Headers, params: URLSearchParams): Promise<OAuthClient> {
    const auth = headers.get("authorization");
    let id: string | undefined;
    let secret: string | undefined;
    let basic = false;
    if (auth !== null && /^basic\s/i.test(auth)) {
      basic = true;
      let decoded: string;
      try {
        decoded = Buffer.from(auth.slice(6).trim(), "base64").toString("utf8");
      } catch {
        decoded = "";
      }
      const i = decoded.indexOf(":");
      if (i < 0) throw invalidClient("the Basic credentials are malformed", true);
      try {
        id = decodeURIComponent(decoded.slice(0, i).replaceAll("+", " "));
        secret = decodeURIComponent(decoded.slice(i + 1).replaceAll("+", " "));
      } catch {
        throw invalidClient("the Basic credentials are malformed", true);
      }
      if (params.has("client_secret"))
        throw new OAuthError("invalid_request", "use one client authentication method, not two");
      const bodyId = params.get("client_id");
      if (bodyId !== null && bodyId !== id)
        throw invalidClient("client_id differs from the Basic credentials", true);
    } else {
      id = params.get("client_id") ?? undefined;
      secret = params.get("client_secret") ?? undefined;
    }
    if (!id) throw invalidClient("the client is not identified: send client_id", false);
    let client: OAuthClient | undefined;
    try {
      client = await this.find(id);
    } catch (e) {
      if (e instanceof OAuthError) throw invalidClient(e.description, basic);
      throw e;
    }
    if (!client) throw invalidClient("unknown client", basic);
    if (client.token_endpoint_auth_method === "none") {
      if (secret !== undefined) throw invalidClient("this client is public and has no secret", basic);
      return client;
    }
    if (secret === undefined || !client.secret_hash)
      throw invalidClient("this client must authenticate with its client secret", basic);
    if (!digestsEqual(sha256(secret), client.secret_hash)) throw invalidClient("wrong client secret", basic);
    return client;
  }
}

function invalidClient(why: string, basic: boolean): OAuthError {
  return new OAuthError(
    "invalid_client",
    `Client authentication failed: ${why}.`,
    401,
    basic ? { "www-authenticate": 'Basic realm="rivals-oauth", charset="UTF-8"' } : {},
  );
}
