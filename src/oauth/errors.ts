// RFC 6749 error bodies for the token, registration and revocation endpoints (docs/decisions.md): JSON with
// `error` and `error_description`, never cached.

export type OAuthErrorCode =
  | "invalid_request"
  | "invalid_client"
  | "invalid_grant"
  | "unauthorized_client"
  | "unsupported_grant_type"
  | "invalid_scope"
  | "invalid_target"
  | "unsupported_token_type"
  | "invalid_redirect_uri"
  | "invalid_client_metadata"
  | "server_error"
  | "temporarily_unavailable";

export class OAuthError extends Error {
  constructor(
    public code: OAuthErrorCode,
    public description: string,
    public status = 400,
    public headers: Record<string, string> = {},
  ) {
    super(description);
  }
}

export const NO_STORE = { "cache-control": "no-store", pragma: "no-cache" } as const;

export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...NO_STORE, ...headers },
  });
}

export function oauthErrorResponse(e: OAuthError): Response {
  return jsonResponse({ error: e.code, error_description: e.description }, e.status, e.headers);
}
