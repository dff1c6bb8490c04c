// RIVALS_FETCH_REWRITE: comma-separated FROM=TO origin pairs (FROM may be `*`). A request to a matching
// origin is sent to TO with the original Host header, path and query; results keep the original URL;
// a rewritten request is exempt from the address guard, and only a rewritten one: a request naming a TO
// origin itself is guarded like any other (docs/engine/fetch.md).

export interface RewriteRule {
  /** An origin (`https://example.com`, `http://host:8080`) or `*` for every origin. */
  from: string;
  /** The origin the request is sent to. */
  to: string;
}

function origin(value: string, what: string): string {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw new Error(
      `RIVALS_FETCH_REWRITE: ${what} ${JSON.stringify(value)} is not an origin (scheme://host[:port])`,
    );
  }
  if (u.protocol !== "http:" && u.protocol !== "https:")
    throw new Error(`RIVALS_FETCH_REWRITE: ${what} ${JSON.stringify(value)} must be http or https`);
  if (u.username || u.password || (u.pathname !== "/" && u.pathname !== "") || u.search || u.hash)
    throw new Error(
      `RIVALS_FETCH_REWRITE: ${what} ${JSON.stringify(value)} must be an origin without a path`,
    );
  return u.origin;
}

/** Parses the variable's value; throws with a message naming the bad pair. */
export function parseRewrite(value: string | undefined): RewriteRule[] {
  const rules: RewriteRule[] = [];
  for (const pair of (value ?? "").split(",")) {
    const p = pair.trim();
    if (!p) continue;
    const eq = p.indexOf("=");
    if (eq < 0) throw new Error(`RIVALS_FETCH_REWRITE: ${JSON.stringify(p)} is not a FROM=TO pair`);
    const from = p.slice(0, eq).trim();
    const to = p.slice(eq + 1).trim();
    rules.push({ from: from === "*" ? "*" : origin(from, "FROM"), to: origin(to, "TO") });
  }
  return rules;
}

export class RewriteTable {
  private exact = new Map<string, string>();
  private any?: string;

  constructor(rules: RewriteRule[]) {
    for (const r of rules) {
      if (r.from === "*") this.any ??= r.to;
      else if (!this.exact.has(r.from)) this.exact.set(r.from, r.to);
    }
  }

  /** The origin a request for `url` is sent to, when a rule matches. */
  target(url: URL): string | undefined {
    return this.exact.get(url.origin) ?? this.any;
  }
}
