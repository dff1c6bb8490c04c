import type { Scope } from "../domain/apiKeys.ts";

/** Who is calling, however they authenticated. Tools and routes only ever see this. */
export interface Principal {
  orgId: number;
  orgSlug: string;
  orgName: string;
  orgWebsite: string | null;
  orgCreatedAt: string;
  plan: string;
  /** Stable actor reference for event metadata and per-caller state (saved signals, ratings). */
  actor: string;
  actorName: string;
  role: "admin" | "member";
  scopes: Scope[];
  via: "api_key" | "oauth";
  keyId?: number;
  memberId?: number;
}

export function hasScope(p: Principal, scope: Scope): boolean {
  return p.scopes.includes(scope);
}
