// Public share links to one signal: `{base_url}/share/{token}`. The token is random and only its SHA-256 is
// stored; a new link for a signal replaces the old one, which stops working at once. Lifetimes come from
// the plan table (shareLinkHours).
import type { NewEvent } from "../../events/catalog.ts";
import type { Command } from "../../events/command.ts";
import type { Tx } from "../../events/store.ts";
import { randomSecret, sha256 } from "../auth/tokens.ts";
import { shareableSignal } from "../db/queries/shareLinks.ts";
import { DomainError } from "./errors.ts";
import { cheapestPaidPlan, PLAN_NAMES, PLANS, planOf } from "./plans.ts";
import { InvalidInput, parseTimestamp } from "./validate.ts";
import { type Caller, loadOrg } from "./watchlist.ts";

type Exec = Pick<Tx, "execute">;

const HOUR = 3_600_000;
/** An absolute expiry may overshoot the plan's lifetime by this much (clock skew); it is then clamped. */
const GRACE_MS = 5 * 60_000;
export const DEFAULT_EXPIRY = "24h";
export const TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;

/** `expiry` is a duration (`30m` is not accepted; `1h`…`720h`, `1d`…`30d`, `1w`…`4w`) or an ISO 8601 time in
 * the future. Returns the requested expiry time. */
export function parseExpiry(expiry: string, now: Date): Date {
  const v = expiry.trim();
  const m = /^(\d{1,5})\s*([hdw])$/i.exec(v);
  if (m) {
    const n = Number(m[1]);
    if (n < 1) throw new InvalidInput("expiry must be at least 1h", "expiry");
    const hours = n * { h: 1, d: 24, w: 168 }[m[2].toLowerCase() as "h" | "d" | "w"];
    return new Date(now.getTime() + hours * HOUR);
  }
  const t = parseTimestamp(v);
  if (t === null)
    throw new InvalidInput(
      'expiry must be a duration such as "24h", "7d" or "2w", or an ISO 8601 time such as 2026-12-01T00:00:00Z',
      "expiry",
    );
  const at = new Date(t);
  if (at.getTime() <= now.getTime()) throw new InvalidInput("expiry must be in the future", "expiry");
  return at;
}

export interface ShareLinkCreated {
  url: string;
  signal_id: number;
  expires_at: string;
  include_notes: boolean;
  replaced_previous: boolean;
  /** Set on the stored copy a retry with the same idempotency_key gets (the URL is not stored). */
  url_redacted: boolean | undefined;
}

/** What creating a link needs to know: the workspace's plan, whether it can see the signal, and when the
 * signal's current link (if any) expires. */
export interface ShareLinkState {
  plan: string;
  signalVisible: boolean;
  previousExpiresAt: string | undefined;
}

export async function loadShareLinkState(tx: Exec, c: Caller, signalId: number): Promise<ShareLinkState> {
  const { plan } = await loadOrg(tx, c.orgId);
  const signal = await shareableSignal(tx, c.orgId, signalId);
  return { plan, signalVisible: Boolean(signal), previousExpiresAt: signal?.expiresAt };
}

/** A new link for the signal (replacing its current one); `token` and `id` are fresh, `base` the public URL. */
export function decideCreateShareLink(
  state: ShareLinkState,
  cmd: { signal_id: number; expiry: string; include_notes: boolean },
  c: Caller,
  now: Date,
  fresh: { id: number; token: string; base: string },
): { events: NewEvent[]; result: ShareLinkCreated } {
  let expires = parseExpiry(cmd.expiry, now);
  const plan = planOf(state.plan);
  const max = plan.shareLinkHours * HOUR;
  const asked = expires.getTime() - now.getTime();
  if (asked > max + GRACE_MS) {
    const up = cheapestPaidPlan((p) => p.shareLinkHours * HOUR + GRACE_MS >= asked);
    const hours = (h: number) => (h % 24 === 0 ? `${h / 24} day${h === 24 ? "" : "s"}` : `${h} hours`);
    if (!up) {
      const longest = Math.max(...PLAN_NAMES.map((n) => PLANS[n].shareLinkHours));
      throw new InvalidInput(`A share link can last at most ${hours(longest)} on any plan.`, "expiry");
    }
    throw new DomainError(
      "plan_required",
      `Share links last at most ${hours(plan.shareLinkHours)} on the ${plan.label} plan; a link for that long needs the ${up.label} plan (up to ${hours(up.shareLinkHours)}).`,
      { plan: plan.name, plan_needed: up.name, max_hours: plan.shareLinkHours },
    );
  }
  if (asked > max) expires = new Date(now.getTime() + max);
  if (!state.signalVisible) throw new DomainError("not_found", "No signal with that id in this workspace.");
  const data = {
    id: fresh.id,
    signal_id: cmd.signal_id,
    token_hash: sha256(fresh.token),
    include_notes: cmd.include_notes,
    expires_at: expires.toISOString(),
    created_at: now.toISOString(),
    created_by: c.actor,
  };
  return {
    events: [
      {
        type: "ShareLinkCreated",
        orgId: c.orgId,
        streamType: "signal",
        streamId: String(cmd.signal_id),
        data,
      },
    ],
    result: {
      url: `${fresh.base}/share/${fresh.token}`,
      signal_id: cmd.signal_id,
      expires_at: data.expires_at,
      include_notes: cmd.include_notes,
      replaced_previous: state.previousExpiresAt !== undefined && state.previousExpiresAt > data.created_at,
      url_redacted: undefined,
    },
  };
}

/** create_share_link; `base` is the public URL the link is under. The new link's id and token are taken at
 * load. Its state is the workspace's plan besides the signal: no one stream. */
export const createShareLink: Command<
  { signal_id: number; expiry: string; include_notes: boolean; base: string },
  ShareLinkState & { id: number; token: string },
  ShareLinkCreated
> = {
  load: async (w, cmd, c) => ({
    ...(await loadShareLinkState(w.tx, c, cmd.signal_id)),
    id: await w.nextId(),
    token: randomSecret(),
  }),
  decide: (st, cmd, { caller, now }) =>
    decideCreateShareLink(st, cmd, caller, now, { id: st.id, token: st.token, base: cmd.base }),
};
