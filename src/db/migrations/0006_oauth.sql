-- OAuth 2.1 authorization server (docs/oauth.md).
-- Operational tables, not projections: they hold protocol state (registrations from unauthenticated
-- callers, short-lived codes, token digests and their revocation) that is installation-wide or
-- expires within hours, is written on every token request and must not be replayed or exported.
-- `projections rebuild` leaves them alone. Only a member's approval (oauth_consents) is a workspace
-- fact: it comes from the OAuthConsentGranted event and is a projection.

-- Clients registered dynamically (RFC 7591). Clients identified by a metadata document URL are not
-- stored here: their document is fetched and cached in memory.
CREATE TABLE oauth_clients (
  client_id TEXT PRIMARY KEY,
  secret_hash TEXT,
  metadata TEXT NOT NULL,
  created_at TEXT NOT NULL
);

-- A grant family: everything issued from one authorization code (its access tokens and the chain of
-- rotated refresh tokens). Revoking the family revokes all of them at once.
CREATE TABLE oauth_families (
  id TEXT PRIMARY KEY,
  client_id TEXT NOT NULL,
  user_id INTEGER NOT NULL,
  org_id INTEGER NOT NULL,
  scopes TEXT NOT NULL,
  resource TEXT NOT NULL,
  created_at TEXT NOT NULL,
  revoked_at TEXT,
  revoked_reason TEXT
);
CREATE INDEX oauth_families_by_member ON oauth_families (user_id, org_id);
CREATE INDEX oauth_families_by_created ON oauth_families (created_at);

-- Authorization codes, by SHA-256 digest; single use, short-lived.
CREATE TABLE oauth_codes (
  code_hash TEXT PRIMARY KEY,
  family_id TEXT NOT NULL,
  client_id TEXT NOT NULL,
  redirect_uri TEXT NOT NULL,
  code_challenge TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  used_at TEXT
);
CREATE INDEX oauth_codes_by_expiry ON oauth_codes (expires_at);

-- Access and refresh tokens, by SHA-256 digest only.
CREATE TABLE oauth_tokens (
  token_hash TEXT PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('access', 'refresh')),
  family_id TEXT NOT NULL,
  scopes TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  created_at TEXT NOT NULL,
  rotated_at TEXT,
  revoked_at TEXT
);
CREATE INDEX oauth_tokens_by_family ON oauth_tokens (family_id);
CREATE INDEX oauth_tokens_by_expiry ON oauth_tokens (expires_at);

-- Remembered approvals: one row per member, workspace and client (projection of OAuthConsentGranted).
CREATE TABLE oauth_consents (
  user_id INTEGER NOT NULL,
  org_id INTEGER NOT NULL,
  client_id TEXT NOT NULL,
  scopes TEXT NOT NULL,
  granted_at TEXT NOT NULL,
  PRIMARY KEY (user_id, client_id, org_id)
);
