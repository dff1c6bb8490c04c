-- People (docs/members.md). A user is global by email and can belong to several workspaces.
-- users, memberships and invitations are projections of the User*, Membership* and Invitation* events;
-- sessions are operational (digests of browser session tokens, written on sign-in, deleted on sign-out)
-- and are left alone by `projections rebuild`.
CREATE TABLE users (
  id INTEGER PRIMARY KEY,
  email TEXT NOT NULL UNIQUE,
  name TEXT,
  password_hash TEXT,
  created_at TEXT NOT NULL
);

CREATE TABLE memberships (
  org_id INTEGER NOT NULL,
  user_id INTEGER NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('admin', 'member')),
  joined_at TEXT NOT NULL,
  PRIMARY KEY (org_id, user_id)
);
CREATE INDEX memberships_by_user ON memberships (user_id, org_id);

-- One row per invitation sent; a re-invitation revokes the earlier pending one (status 'replaced').
CREATE TABLE invitations (
  id INTEGER PRIMARY KEY,
  org_id INTEGER NOT NULL,
  email TEXT NOT NULL,
  role TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,
  invited_by TEXT,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'accepted', 'replaced', 'revoked')),
  accepted_at TEXT,
  user_id INTEGER
);
CREATE INDEX invitations_by_org_email ON invitations (org_id, email, status);

CREATE TABLE sessions (
  token_hash TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL,
  csrf_token TEXT NOT NULL,
  created_at TEXT NOT NULL,
  last_seen_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  via TEXT NOT NULL DEFAULT 'password'
);
CREATE INDEX sessions_by_user ON sessions (user_id);
