// Webhook tools: an admin adds, lists and removes the workspace's webhook endpoints (docs/webhooks.md). The
// signing secret is answered once, by add_webhook; list_webhooks shows only its masked hint.
import { z } from "zod";
import { runCommand } from "../../../events/command.ts";
import { listWebhooks } from "../../db/queries/webhooks.ts";
import { addWebhook, removeWebhook } from "../../domain/webhookEndpoints.ts";
import { MAX_WEBHOOKS, WEBHOOK_EVENT_TYPES } from "../../domain/webhooks.ts";
import { newWebhookSecret } from "../../engine/deliver/webhookSign.ts";
import { issuer } from "../issuer.ts";
import { rulesShape } from "../rulesShape.ts";
import { isoTime } from "../schemas.ts";
import { defineTool, READ_ONLY } from "../tool.ts";

const filterShape = rulesShape.describe(
  "Signals match all of it; battlecards and research the competitor; digests and cycles always.",
);

const webhookShape = z.object({
  id: z.number().int(),
  url: z.string(),
  event_types: z.array(z.string()),
  filter: filterShape.optional(),
  secret_hint: z.string().describe("The secret's last characters, to tell secrets apart; never the secret."),
  state: z.enum(["active", "disabled"]),
  disabled_at: isoTime.optional(),
  disabled_reason: z.string().optional(),
  created_at: isoTime,
  pending: z.number().int().describe("Messages waiting to be sent."),
});

export const addWebhookTool = defineTool({
  name: "add_webhook",
  title: "Add a webhook endpoint",
  description: `Adds an https endpoint that gets the workspace's events as signed JSON (Standard Webhooks). Its secret is shown once. At most ${MAX_WEBHOOKS}.`,
  input: {
    url: z.string().max(2048).describe("https, on a public host."),
    event_types: z
      .array(z.string().max(40))
      .min(1)
      .max(20)
      .describe(`Any of ${WEBHOOK_EVENT_TYPES.join(", ")}.`),
    filter: filterShape.optional(),
  },
  output: {
    id: z.number().int(),
    url: z.string(),
    event_types: z.array(z.string()),
    filter: filterShape.optional(),
    secret: z.string().describe("The signing secret: shown only now."),
    secret_hint: z.string(),
    created_at: isoTime,
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  access: "write",
  adminOnly: true,
  run: async (ctx, a) => {
    const added = await runCommand(
      ctx.s.store,
      addWebhook,
      {
        endpoint: { url: a.url, event_types: a.event_types, ...(a.filter ? { filter: a.filter } : {}) },
        secret: newWebhookSecret(),
        unsafe_origins: ctx.s.config.unsafeWebhookOrigins,
      },
      issuer(ctx),
    );
    return { ...added, filter: added.filter };
  },
});

export const listWebhooksTool = defineTool({
  name: "list_webhooks",
  title: "List webhook endpoints",
  description:
    "Webhook endpoints: address, events, filter, state (and why disabled), messages waiting, secret hint.",
  input: {},
  output: { webhooks: z.array(webhookShape) },
  annotations: READ_ONLY,
  access: "write",
  adminOnly: true,
  run: async (ctx) => ({ webhooks: await listWebhooks(ctx.s.database, ctx.principal.orgId) }),
});

export const removeWebhookTool = defineTool({
  name: "remove_webhook",
  title: "Remove a webhook endpoint",
  description: "Removes a webhook endpoint and its waiting messages.",
  input: { webhook_id: z.number().int().positive() },
  output: { id: z.number().int(), removed: z.boolean() },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  access: "write",
  adminOnly: true,
  run: (ctx, a) => runCommand(ctx.s.store, removeWebhook, { id: a.webhook_id }, issuer(ctx)),
});

export const webhookTools = [addWebhookTool, listWebhooksTool, removeWebhookTool];
