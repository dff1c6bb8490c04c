// One resolution of "who is calling" for every surface that accepts bearer credentials. API keys are
// resolved here; other credential kinds (OAuth access tokens) register a resolver with `addResolver`.
import type { Principal } from "./principal.ts";

export type CredentialResult =
  | { kind: "none" }
  | { kind: "ok"; principal: Principal }
  | { kind: "invalid"; reason: string };

/** Returns undefined when the token is not of its kind, so the next resolver may try. */
export type TokenResolver = (
  token: string,
  ctx: { resource: string },
) => Promise<CredentialResult | undefined>;

export class CredentialResolver {
  private resolvers: TokenResolver[] = [];

  addResolver(r: TokenResolver): void {
    this.resolvers.push(r);
  }

  async resolve(token: string | undefined, resource: string): Promise<CredentialResult> {
    if (token === undefined) return { kind: "none" };
    if (token === "") return { kind: "invalid", reason: "The credential is empty or not a Bearer token." };
    for (const r of this.resolvers) {
      const res = await r(token, { resource });
      if (res) return res;
    }
    return { kind: "invalid", reason: "The credential is not valid." };
  }
}
