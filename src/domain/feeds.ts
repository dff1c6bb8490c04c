// Atom feeds of a workspace's signals (docs/feeds.md): a member makes one — of every signal, or of one
// competitor's — at a secret URL shown once (only its token's SHA-256 is stored, as API keys are), and any member
// revokes one. The feed itself is served by src/web/atomFeed.ts.
import type { EventMetadata, NewEvent } from "../../events/catalog.ts";
import type { EventStore } from "../../events/store.ts";
import { randomSecret, sha256 } from "../auth/tokens.ts";
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

/** Makes a feed; its URL (`{base}/feeds/{token}`) is answered once. */
export async function createFeed(
  store: EventStore,
  orgId: number,
  input: { competitor_id?: number },
  base: string,
  metadata: EventMetadata & { actor: string },
): Promise<CreatedFeed> {
  const token = randomSecret("rvf_");
  const { result } = await store.execute(async (w) => {
    const [count, comp] = await Promise.all([
      w.tx.execute({
        sql: "SELECT COUNT(*) AS n FROM feeds WHERE org_id = ? AND revoked_at IS NULL",
        args: [orgId],
      }),
      input.competitor_id === undefined
        ? undefined
        : w.tx.execute({
            sql: "SELECT 1 FROM competitors WHERE id = ? AND org_id = ?",
            args: [input.competitor_id, orgId],
          }),
    ]);
    const id = await w.nextId();
    const competitor =
      input.competitor_id === undefined ? undefined : { id: input.competitor_id, known: !!comp?.rows[0] };
    const events = decideCreateFeed(
      orgId,
      id,
      sha256(token),
      competitor,
      Number(count.rows[0].n),
      metadata.actor,
      w.now,
    );
    return {
      events,
      result: {
        id,
        url: `${base}/feeds/${token}`,
        ...(competitor ? { competitor_id: competitor.id } : {}),
        created_at: w.now.toISOString(),
      },
    };
  }, metadata);
  return result;
}

export async function revokeFeed(store: EventStore, orgId: number, id: number, metadata: EventMetadata = {}) {
  await store.execute(async (w) => {
    const r = await w.tx.execute({
      sql: "SELECT 1 FROM feeds WHERE id = ? AND org_id = ? AND revoked_at IS NULL",
      args: [id, orgId],
    });
    return { events: decideRevokeFeed(orgId, id, !!r.rows[0], w.now), result: null };
  }, metadata);
  return { id, revoked: true };
}
