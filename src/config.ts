export interface Config {
  dbUrl: string;
  port: number;
  baseUrl: string;
  trustProxy: boolean;
  /** Requests per minute per client address on the read API. */
  rateLimitPerMinute: number;
  smtpUrl?: string;
}

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
    trustProxy: ["1", "true", "yes"].includes((env.RIVALS_TRUST_PROXY ?? "").toLowerCase()),
    rateLimitPerMinute: rate,
    smtpUrl: env.RIVALS_SMTP_URL || undefined,
  };
}
