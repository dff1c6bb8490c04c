// Delivery channels: where a cycle's digest goes (email, team chat), and what actually happens given the stored
// choices, the plan and the chat connection.
import type { NewEvent } from "../../events/catalog.ts";
import type { Command } from "../../events/command.ts";
import { webhookFilters } from "../db/queries/webhooks.ts";
import { checkRules, type DeliveryRules } from "./deliveryRules.ts";
import { DomainError } from "./errors.ts";
import { effectiveCadence, LOWEST_PAID, planOf } from "./plans.ts";
import { InvalidInput } from "./validate.ts";
import { labelInText } from "./vocabulary.ts";
import { loadSettings, orgStream, type WorkspaceSettings } from "./workspace.ts";

export interface DeliveryView {
  cadence: string;
  allowed_cadences: string[];
  email: boolean;
  slack: boolean;
  /** Microsoft Teams delivery in effect (a Workflows webhook, beside Slack). */
  teams: boolean;
  /** The server can send email (its operator configured a mail server). */
  email_delivery_available: boolean;
  chat_connected: boolean;
  chat_delivery_available: boolean;
  teams_connected: boolean;
  teams_delivery_available: boolean;
  /** Which signals each channel gets; a channel not named gets every signal. */
  rules: Partial<Record<DeliveryChannel, DeliveryRules>>;
  notes: string[];
}

export const DELIVERY_CHANNELS = ["email", "slack", "teams"] as const;
export type DeliveryChannel = (typeof DELIVERY_CHANNELS)[number];

/** What actually happens after a monitoring cycle, given the stored choices, the current plan and whether the
 * server can send email (`mail`: a mail server is configured). */
export function deliveryView(st: WorkspaceSettings, mail: boolean): DeliveryView {
  const plan = planOf(st.plan);
  const notes: string[] = [];
  const cadence = effectiveCadence(plan, st.cadence);
  if (st.cadence && st.cadence !== cadence)
    notes.push(
      `Running cycles ${labelInText(st.cadence)}, as chosen earlier, is not in the ${plan.label} plan; cycles run ${labelInText(cadence)} instead.`,
    );
  const connected = st.chatConnectedAt !== null;
  const available = plan.paid && connected;
  if (st.slack === true && !available)
    notes.push(
      `Team-chat delivery is switched on but inactive: it needs ${[
        plan.paid ? "" : "a paid plan",
        connected ? "" : "a chat connection made in the app",
      ]
        .filter(Boolean)
        .join(" and ")}.`,
    );
  const teamsConnected = st.teamsConnectedAt !== null;
  const teamsAvailable = plan.paid && teamsConnected;
  if (st.teams === true && !teamsAvailable)
    notes.push(
      `Microsoft Teams delivery is switched on but inactive: it needs ${[
        plan.paid ? "" : "a paid plan",
        teamsConnected ? "" : "a Teams connection made in the app",
      ]
        .filter(Boolean)
        .join(" and ")}.`,
    );
  const emailChosen = st.email ?? true;
  if (emailChosen && !mail)
    notes.push(
      "Email delivery is switched on but inactive: this server has no mail server configured (its operator sets RIVALS_SMTP_URL).",
    );
  return {
    cadence,
    allowed_cadences: plan.cadences,
    email: emailChosen && mail,
    slack: st.slack === true && available,
    teams: st.teams === true && teamsAvailable,
    email_delivery_available: mail,
    chat_connected: connected,
    chat_delivery_available: available,
    teams_connected: teamsConnected,
    teams_delivery_available: teamsAvailable,
    rules: st.rules,
    notes,
  };
}

export interface DeliveryChoice {
  email?: boolean;
  slack?: boolean;
  teams?: boolean;
  /** Rules by channel: null (or rules that narrow nothing) clears a channel's rules. */
  rules?: Partial<Record<DeliveryChannel, DeliveryRules | null>>;
  /** Rules of webhook endpoints (their filter), by endpoint. */
  webhook_rules?: { webhook_id: number; rules: DeliveryRules | null }[];
}

/** A chat channel (Slack or Teams) turned on needs a paid plan and that channel's connection. */
function requireChat(st: WorkspaceSettings, channel: "slack" | "teams") {
  const plan = planOf(st.plan);
  const connected = (channel === "teams" ? st.teamsConnectedAt : st.chatConnectedAt) !== null;
  const missing = [...(plan.paid ? [] : ["paid_plan"]), ...(connected ? [] : [`${channel}_connection`])];
  if (missing.length === 0) return;
  const what = [
    plan.paid ? "" : `a paid plan (this workspace is on ${plan.label})`,
    connected
      ? ""
      : channel === "teams"
        ? "a Microsoft Teams connection, made by an admin in the app under Settings → Monitoring"
        : "a team-chat connection, made by an admin in the app under Settings → Monitoring",
  ]
    .filter(Boolean)
    .join(" and ");
  throw new DomainError(
    plan.paid ? "chat_not_connected" : "plan_required",
    `${channel === "teams" ? "Microsoft Teams" : "Team-chat"} delivery needs ${what}.`,
    {
      missing:
        channel === "slack"
          ? missing.map((m) => (m === "slack_connection" ? "chat_connection" : m))
          : missing,
      ...(plan.paid ? {} : { plan_needed: LOWEST_PAID, plan: plan.name }),
    },
  );
}

/** `webhooks`: the workspace's endpoints (not removed) with their rules, for `webhook_rules`. */
export function decideSetDeliveryChannels(
  st: WorkspaceSettings,
  input: DeliveryChoice,
  webhooks: ReadonlyMap<number, DeliveryRules | null> = new Map(),
): NewEvent[] {
  if (
    input.email === undefined &&
    input.slack === undefined &&
    input.teams === undefined &&
    input.rules === undefined &&
    input.webhook_rules === undefined
  )
    throw new InvalidInput("send email, slack or teams (true or false), rules, webhook_rules, or several");
  if (input.slack === true) requireChat(st, "slack");
  if (input.teams === true) requireChat(st, "teams");
  const data: { email?: boolean; slack?: boolean; teams?: boolean } = {};
  if (input.email !== undefined && input.email !== (st.email ?? true)) data.email = input.email;
  if (input.slack !== undefined && input.slack !== (st.slack ?? false)) data.slack = input.slack;
  if (input.teams !== undefined && input.teams !== (st.teams ?? false)) data.teams = input.teams;
  const events: NewEvent[] = [];
  if (Object.keys(data).length > 0)
    events.push({ type: "DeliveryChannelsSet", ...orgStream(st.orgId), data });
  for (const [channel, given] of Object.entries(input.rules ?? {})) {
    if (!(DELIVERY_CHANNELS as readonly string[]).includes(channel))
      throw new InvalidInput(
        `rules: unknown channel ${JSON.stringify(channel)}; the channels are ${DELIVERY_CHANNELS.join(", ")}`,
        "rules",
      );
    const c = channel as DeliveryChannel;
    const rules = checkRules(given, `rules.${c}`) ?? null;
    if (JSON.stringify(rules) === JSON.stringify(st.rules[c] ?? null)) continue;
    events.push({ type: "DeliveryRulesSet", ...orgStream(st.orgId), data: { channel: c, rules } });
  }
  for (const w of input.webhook_rules ?? []) {
    if (!webhooks.has(w.webhook_id))
      throw new DomainError("not_found", `No webhook endpoint ${w.webhook_id} in this workspace.`);
    const rules = checkRules(w.rules, "webhook_rules") ?? null;
    if (JSON.stringify(rules) === JSON.stringify(webhooks.get(w.webhook_id) ?? null)) continue;
    events.push({
      type: "WebhookFilterSet",
      orgId: st.orgId,
      streamType: "webhook",
      streamId: String(w.webhook_id),
      data: { id: w.webhook_id, filter: rules },
    });
  }
  return events;
}

export const setDeliveryChannels: Command<
  DeliveryChoice,
  { st: WorkspaceSettings; hooks: Map<number, DeliveryRules | null> },
  { changed: boolean }
> = {
  load: async (w, input, c) => {
    const st = await loadSettings(w.tx, c.orgId);
    const hooks = input.webhook_rules?.length
      ? await webhookFilters<DeliveryRules>(w.tx, c.orgId)
      : new Map<number, DeliveryRules | null>();
    return { st, hooks };
  },
  decide: (s, input) => {
    const events = decideSetDeliveryChannels(s.st, input, s.hooks);
    return { events, result: { changed: events.length > 0 } };
  },
};
