// Per-client-network limits on the public forms that create something without an account — sign-up
// (a workspace, a user, an argon2id hash) and the free-brief request — so one network cannot flood them. A
// network is an IPv4 address or an IPv6 /64 (domain/network.ts): a host picks any address of its /64.
// The read API's sliding-window limiter (src/http/rateLimit.ts) over an hour; every submission with a valid
// form token counts, refused ones too (each costs the same work). Shared by every instance on one database
// server (src/http/rateLeases.ts), like sign-in's slow-down.
import type { Server } from "bun";
import { clientNetwork } from "../domain/network.ts";
import { clientAddress } from "../http/address.ts";
import { limiterFor } from "../http/rateLeases.ts";
import type { Services } from "../services.ts";
import { refusalPage } from "./errors.tsx";

/** Submissions per client network per hour. */
export const FORM_LIMITS = { signup: 10, freeBrief: 10 } as const;
const HOUR_MS = 60 * 60_000;

/** A check to call before a public form's work: undefined when the address may submit now, else the
 * 429 page with Retry-After. */
export function formLimit(s: Services, name: string, perHour: number) {
  const limiter = limiterFor(s, `form_${name}`, perHour, HOUR_MS);
  return async (request: Request, server: Server<unknown> | null): Promise<Response | undefined> => {
    const d = await limiter.take(clientNetwork(clientAddress(request, server, s.config.trustProxy)));
    if (d.allowed) return undefined;
    const minutes = Math.ceil(d.resetSeconds / 60);
    const res = refusalPage(
      "Too many requests",
      `This form was sent too often from your network (more than ${d.limit} times in an hour). Nothing was sent this time. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
      429,
    );
    res.headers.set("retry-after", String(d.resetSeconds));
    return res;
  };
}
