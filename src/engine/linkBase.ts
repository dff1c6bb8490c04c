// The base URL of links a person or a system follows out of a message (emails, chat messages, webhooks, free
// briefs), whichever process writes them: RIVALS_BASE_URL when the operator set it; else the address the
// serving instance (`rivals serve`) recorded when it started (instance_settings), so a cycle run from a shell
// without the variable links where the service answers; else the default http://localhost:PORT.
import { servingBase, storeServingBase } from "../db/instanceSettings.ts";
import type { Services } from "../services.ts";

/** Records the address this serving instance answers at (at `rivals serve` start). */
export async function recordServingBase(s: Services, base: string): Promise<void> {
  await storeServingBase(s.database, base.replace(/\/+$/, ""), s.clock().toISOString());
}

/** The base URL links start with. */
export async function linkBase(s: Services): Promise<string> {
  if (s.config.baseUrlSet) return s.config.baseUrl;
  return (await servingBase(s.database)) ?? s.config.baseUrl;
}
