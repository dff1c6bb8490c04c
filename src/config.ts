export interface Config {
  dbUrl: string;
  port: number;
  baseUrl: string;
  trustProxy: boolean;
  /** One JSON line per request on stdout (RIVALS_ACCESS_LOG). */
  accessLog: boolean;
  /** Requests per minute per client address on the read API. */
  rateLimitPerMinute: number;
  smtpUrl?: string;
  /** From address of the mails the service sends (RIVALS_MAIL_FROM). */
  mailFrom: string;
  /** Members' single sign-on with an OpenID Connect provider, when all three variables are set. */
  oidc?: { issuer: string; clientId: string; clientSecret: string };
}

function oidcConfig(env: Record<string, string | undefined>): Config["oidc"] {
  const issuer = env.RIVALS_OIDC_ISSUER;
  const clientId = env.RIVALS_OIDC_CLIENT_ID;
  const clientSecret = env.RIVALS_OIDC_CLIENT_SECRET;
  if (!issuer && !clientId && !clientSecret) return undefined;
  if (!issuer || !clientId || !clientSecret)
    throw new Error(
      "Single sign-on needs all of RIVALS_OIDC_ISSUER, RIVALS_OIDC_CLIENT_ID and RIVALS_OIDC_CLIENT_SECRET",
    );
  try {
    new URL(issuer);
  } catch {
    throw new Error(`RIVALS_OIDC_ISSUER must be an absolute URL, got ${issuer}`);
  }
  return { issuer, clientId, clientSecret };
}

const isOn = (v: string | undefined) => ["1", "true", "yes"].includes((v ?? "").toLowerCase());

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const port = env.PORT === undefined || env.PORT === "" ? 3000 : Number(env.PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT must be a port number, got ${env.PORT}`);
  const rate = env.RIVALS_RATE_LIMIT ? Number(env.RIVALS_RATE_LIMIT) : 600;
  if (!Number.isInteger(rate) || rate < 1) throw new Error("RIVALS_RATE_LIMIT must be a positive integer");
  const baseUrl = (env.RIVALS_BASE_URL || `http://localhost:${port}`).replace(/\/+$/, "");
  try {
    new URL(baseUrl);
  } catch {
    throw new Error(`RIVALS_BASE_URL must be an absolute URL, got ${baseUrl}`);
  }
  return {
    dbUrl: env.RIVALS_DB || "file:./data/rivals.db",
    port,
    baseUrl,
    trustProxy: isOn(env.RIVALS_TRUST_PROXY),
    accessLog: isOn(env.RIVALS_ACCESS_LOG),
    rateLimitPerMinute: rate,
    smtpUrl: env.RIVALS_SMTP_URL || undefined,
    mailFrom: env.RIVALS_MAIL_FROM || `Rivals <no-reply@${new URL(baseUrl).hostname}>`,
    oidc: oidcConfig(env),
  };
}
