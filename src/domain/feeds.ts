// Atom feeds of a workspace's signals (docs/feeds.md): a member makes one — of every signal, or of one
// competitor's — at a secret URL shown once (only its token's SHA-256 is stored, as API keys are), and any member
// revokes one. The feed itself is served by src/web/atomFeed.ts.
import type { NewEvent } from "../../events/catalog.ts";
import type { Command } from "../../events/command.ts";
import { randomSecret, sha256 } from "../auth/tokens.ts";
import { competitorExists } from "../db/queries/competitorUsage.ts";
import { activeFeedCount, activeFeedExists } from "../db/queries/feeds.ts";
import { DomainError } from "./errors.ts";

/** Feeds a workspace may have at once (not revoked). */
export const MAX_FEEDS = 20;
export const FEED_TOKEN_RE = /^rvf_[A-Za-z0-9_-]{43}$/;

const stream = (orgId: number, id: number) => ({ orgId, streamType: "feed" as const, streamId: String(id) });

export function decideCreateFeed(
  orgId: number,
  id: number,
  tokenHash: string,
  competitor: { id: number; known: boolean } | undefined,
  active: number,
  by: string,
  now: Date,
): NewEvent[] {
  if (competitor && !competitor.known)
    throw new DomainError("not_found", `No competitor ${competitor.id} in this workspace.`);
  if (active >= MAX_FEEDS)
    throw new DomainError("limit_reached", `A workspace has at most ${MAX_FEEDS} feeds; revoke one first.`, {
      limit: MAX_FEEDS,
    });
  return [
    {
      type: "FeedCreated",
      ...stream(orgId, id),
      data: {
        id,
        token_hash: tokenHash,
        ...(competitor ? { competitor_id: competitor.id } : {}),
        created_by: by,
        created_at: now.toISOString(),
      },
    },
  ];
}

export function decideRevokeFeed(orgId: number, id: number, active: boolean, now: Date): NewEvent[] {
  if (!active) throw new DomainError("not_found", `No feed ${id} in this workspace.`);
  return [{ type: "FeedRevoked", ...stream(orgId, id), data: { id, revoked_at: now.toISOString() } }];
}

export interface CreatedFeed {
  id: number;
  /** The feed's address: shown this once. */
  url: string;
  competitor_id?: number;
  created_at: string;
}

/** Makes a feed; its URL (`{base}/feeds/{token}`) is answered once. The new feed's id and token are taken at
 * load. */
export const createFeed: Command<
  { competitor_id?: number; base: string },
  { active: number; competitor?: { id: number; known: boolean }; id: number; token: string },
  CreatedFeed
> = {
  load: async (w, input, c) => {
    const [active, known] = await Promise.all([
      activeFeedCount(w.tx, c.orgId),
      input.competitor_id === undefined ? false : competitorExists(w.tx, c.orgId, input.competitor_id),
    ]);
    return {
      active,
      ...(input.competitor_id === undefined ? {} : { competitor: { id: input.competitor_id, known } }),
      id: await w.nextId(),
      token: randomSecret("rvf_"),
    };
  },
  decide: (st, input, { caller, now }) => ({
    events: decideCreateFeed(
      caller.orgId,
      st.id,
      sha256(st.token),
      st.competitor,
      st.active,
      caller.actor,
      now,
    ),
    result: {
      id: st.id,
      url: `${input.base}/feeds/${st.token}`,
      ...(st.competitor ? { competitor_id: st.competitor.id } : {}),
      created_at: now.toISOString(),
    },
  }),
};

export const revokeFeed: Command<{ id: number }, { active: boolean }, { id: number; revoked: true }> = {
  load: async (w, input, c) => {
    return { active: await activeFeedExists(w.tx, c.orgId, input.id) };
  },
  decide: (st, input, { caller, now }) => ({
    events: decideRevokeFeed(caller.orgId, input.id, st.active, now),
    result: { id: input.id, revoked: true },
  }),
};
