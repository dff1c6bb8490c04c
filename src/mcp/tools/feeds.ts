// create_feed: an Atom feed of the workspace's signals (or one competitor's) at a secret URL, answered once
// (docs/feeds.md). Revoked on the Integrations page.
import { z } from "zod";
import { runCommand } from "../../../events/command.ts";
import { createFeed } from "../../domain/feeds.ts";
import { issuer } from "../issuer.ts";
import { isoTime } from "../schemas.ts";
import { defineTool } from "../tool.ts";

export const createFeedTool = defineTool({
  name: "create_feed",
  title: "Create a feed",
  description:
    "Makes an Atom feed of open signals (all or one competitor's). Its secret URL is shown once; revoke it on the Integrations page.",
  input: {
    competitor_id: z.number().int().optional(),
  },
  output: {
    id: z.number().int(),
    url: z.string().describe("The feed's address: shown only now."),
    competitor_id: z.number().int().optional(),
    created_at: isoTime,
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  access: "write",
  run: async (ctx, a) => {
    const f = await runCommand(
      ctx.s.store,
      createFeed,
      { ...(a.competitor_id !== undefined ? { competitor_id: a.competitor_id } : {}), base: ctx.base },
      issuer(ctx),
    );
    return { ...f, competitor_id: f.competitor_id };
  },
});

export const feedTools = [createFeedTool];
