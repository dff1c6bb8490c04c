// Delivery channels: where a cycle's digest goes (email, team chat), and what actually happens given the stored
// choices, the plan and the chat connection.
import type { EventMetadata, NewEvent } from "../../events/catalog.ts";
import type { EventStore } from "../../events/store.ts";
import { DomainError } from "./errors.ts";
import { effectiveCadence, LOWEST_PAID, planOf } from "./plans.ts";
import { InvalidInput } from "./validate.ts";
import { loadSettings, orgStream, type WorkspaceSettings } from "./workspace.ts";

export interface DeliveryView {
  cadence: string;
  allowed_cadences: string[];
  email: boolean;
  slack: boolean;
  /** The server can send email (its operator configured a mail server). */
  email_delivery_available: boolean;
  chat_connected: boolean;
  chat_delivery_available: boolean;
  notes: string[];
}

/** What actually happens after a monitoring cycle, given the stored choices, the current plan and whether the
 * server can send email (`mail`: a mail server is configured). */
export function deliveryView(st: WorkspaceSettings, mail: boolean): DeliveryView {
  const plan = planOf(st.plan);
  const notes: string[] = [];
  const cadence = effectiveCadence(plan, st.cadence);
  if (st.cadence && st.cadence !== cadence)
    notes.push(
      `The ${st.cadence} cadence chosen earlier is not in the ${plan.label} plan; cycles run ${cadence} instead.`,
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
    email_delivery_available: mail,
    chat_connected: connected,
    chat_delivery_available: available,
    notes,
  };
}

export function decideSetDeliveryChannels(
  st: WorkspaceSettings,
  input: { email?: boolean; slack?: boolean },
): NewEvent[] {
  if (input.email === undefined && input.slack === undefined)
    throw new InvalidInput("send email, slack or both (true or false)");
  if (input.slack === true) {
    const plan = planOf(st.plan);
    const connected = st.chatConnectedAt !== null;
    const missing = [...(plan.paid ? [] : ["paid_plan"]), ...(connected ? [] : ["chat_connection"])];
    if (missing.length) {
      const what = [
        plan.paid ? "" : `a paid plan (this workspace is on ${plan.label})`,
        connected ? "" : "a team-chat connection, made by an admin in the app under Settings → Monitoring",
      ]
        .filter(Boolean)
        .join(" and ");
      throw new DomainError(
        plan.paid ? "chat_not_connected" : "plan_required",
        `Team-chat delivery needs ${what}.`,
        { missing, ...(plan.paid ? {} : { plan_needed: LOWEST_PAID, plan: plan.name }) },
      );
    }
  }
  const data: { email?: boolean; slack?: boolean } = {};
  if (input.email !== undefined && input.email !== (st.email ?? true)) data.email = input.email;
  if (input.slack !== undefined && input.slack !== (st.slack ?? false)) data.slack = input.slack;
  if (Object.keys(data).length === 0) return [];
  return [{ type: "DeliveryChannelsSet", ...orgStream(st.orgId), data }];
}

export async function setDeliveryChannels(
  store: EventStore,
  orgId: number,
  input: { email?: boolean; slack?: boolean },
  metadata: EventMetadata = {},
) {
  const { events } = await store.execute(async (w) => {
    const st = await loadSettings(w.tx, orgId);
    return { events: decideSetDeliveryChannels(st, input), result: null };
  }, metadata);
  return { changed: events.length > 0 };
}
