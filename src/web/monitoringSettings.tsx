// /app/settings/monitoring: an admin sets the monitoring cadence (as the plan allows), the delivery channels
// (email, team chat, Microsoft Teams), connects the team chat (a Slack incoming webhook) and Microsoft Teams (a
// Workflows webhook), sends each a test message through the one fetcher and disconnects it, and sees each channel's delivery status (src/engine/deliver/outbox.ts).
// The commands are the ones behind set_monitoring_cadence, set_delivery_channels and `rivals org connect-chat`.
// Members get 403.
/** @jsxRuntime classic */
/** @jsx Html.createElement */
/** @jsxFrag Html.Fragment */
import { Elysia } from "elysia";
import { type Issuer, runCommand } from "../../events/command.ts";
import type { Membership } from "../auth/session.ts";
import { competitorNames } from "../db/queries/competitors.ts";
import { listWebhooks } from "../db/queries/webhooks.ts";
import { setMonitoringCadence } from "../domain/cadence.ts";
import { connectChatCommand, disconnectChatCommand } from "../domain/chat.ts";
import {
  DELIVERY_CHANNELS,
  type DeliveryChannel,
  deliveryView,
  setDeliveryChannels,
} from "../domain/delivery.ts";
import { type DeliveryRules, describeRules } from "../domain/deliveryRules.ts";
import { DomainError } from "../domain/errors.ts";
import { planOf } from "../domain/plans.ts";
import { listOf } from "../domain/prose.ts";
import { InvalidInput } from "../domain/validate.ts";
import { CATEGORY_LABEL, label, labelInText } from "../domain/vocabulary.ts";
import { loadSettings } from "../domain/workspace.ts";
import { postToChat } from "../engine/deliver/chat.ts";
import { composeTeamsTest } from "../engine/deliver/compose.ts";
import { type ChannelStatus, deliveryStatus } from "../engine/deliver/outbox.ts";
import { slackEscape } from "../engine/deliver/slackText.ts";
import { mailConfigured } from "../mail/mailer.ts";
import type { Services } from "../services.ts";
import { AppPage, NoWorkspace } from "./appShell.tsx";
import { Csrf, Notice, Time } from "./components.tsx";
import { field, fields, redirect } from "./http.ts";
import { Html } from "./layout.tsx";
import { adminsOnly, formAdmin, type Member, member, privatePage } from "./member.ts";

export const MONITORING_PATH = "/app/settings/monitoring";
const PATH = MONITORING_PATH;

const DONE: Record<string, string> = {
  cadence: "The monitoring cadence was saved.",
  channels: "The delivery channels were saved.",
  rules: "The delivery rules were saved.",
  connected: "The team chat is connected.",
  disconnected: "The team chat was disconnected. Chat messages stop until it is connected again.",
  teams_connected: "Microsoft Teams is connected.",
  teams_disconnected: "Microsoft Teams was disconnected. Teams messages stop until it is connected again.",
};

const CHANNEL_LABEL = { email: "Email", slack: "Team chat", teams: "Microsoft Teams" } as const;
type Channel = keyof typeof CHANNEL_LABEL;

function StatusTable({
  status,
  on,
}: {
  status: Record<Channel, ChannelStatus>;
  on: Record<Channel, boolean>;
}): JSX.Element {
  return (
    <div class="scroll">
      <table class="stack delivery-status">
        <thead>
          <tr>
            <th>Channel</th>
            <th>Delivery</th>
            <th>Last success</th>
            <th>Last failure</th>
            <th>Pending</th>
          </tr>
        </thead>
        <tbody>
          {(["email", "slack", "teams"] as const).map((c) => {
            const st = status[c];
            const f = st.last_failure;
            return (
              <tr data-channel={c}>
                <td data-label="Channel">{CHANNEL_LABEL[c]}</td>
                <td data-label="Delivery">{on[c] ? "on" : "off"}</td>
                <td data-label="Last success">
                  {st.last_success_at ? <Time ts={st.last_success_at} /> : <span class="muted">never</span>}
                </td>
                <td data-label="Last failure">
                  {f ? (
                    <>
                      <Time ts={f.at} />: <span safe>{f.error}</span>{" "}
                      <span class="muted small">
                        {`(${f.attempts} ${f.attempts === 1 ? "try" : "tries"}`}
                        {f.gave_up ? "; given up)" : ""}
                        {!f.gave_up && f.next_attempt_at ? (
                          <>
                            ; next try <Time ts={f.next_attempt_at} />)
                          </>
                        ) : (
                          ""
                        )}
                        {!f.gave_up && !f.next_attempt_at ? ")" : ""}
                      </span>
                    </>
                  ) : (
                    <span class="muted">none</span>
                  )}
                </td>
                <td data-label="Pending">{String(st.pending)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** A chat channel as the page offers it: the words of its section, the notices of its changes and its test. */
interface ChatSection {
  path: "chat" | "teams";
  /** Its provider, when it is not Slack (the chat commands' default). */
  provider?: "teams";
  heading: string;
  to: string;
  label: string;
  replace: string;
  inputId: string;
  placeholder: string;
  hint?: string;
  button: string;
  /** The `done` notices of connecting and disconnecting it (DONE). */
  done: { connected: string; disconnected: string };
  /** Where a refused form's URL is kept to show it again. */
  field: "webhook" | "teamsWebhook";
  /** The refusal of a test when it is not connected, and what the page calls its webhook. */
  notConnected: string;
  webhookName: string;
  test(orgName: string, baseUrl: string): unknown;
}

const CHAT_SECTIONS: readonly ChatSection[] = [
  {
    path: "chat",
    heading: "Team chat",
    to: "a Slack incoming webhook",
    label: "Slack incoming webhook URL",
    replace: "Replace the webhook URL",
    inputId: "webhook",
    placeholder: "https://hooks.slack.com/services/…",
    button: "Connect",
    done: { connected: "connected", disconnected: "disconnected" },
    field: "webhook",
    notConnected: "No team chat is connected: connect one first.",
    webhookName: "webhook",
    test: (orgName, baseUrl) => testMessage(orgName, baseUrl),
  },
  {
    path: "teams",
    provider: "teams",
    heading: "Microsoft Teams",
    to: "a Teams Workflows webhook",
    label: "Teams Workflows webhook URL",
    replace: "Replace the Teams webhook URL",
    inputId: "teams-webhook",
    placeholder: "https://…/workflows/…",
    hint: 'In Teams, add the workflow "Post to a channel when a webhook request is received" and paste its URL.',
    button: "Connect Teams",
    done: { connected: "teams_connected", disconnected: "teams_disconnected" },
    field: "teamsWebhook",
    notConnected: "Microsoft Teams is not connected: connect it first.",
    webhookName: "Teams webhook",
    test: (orgName, baseUrl) => composeTeamsTest(orgName, baseUrl, `${baseUrl}${PATH}`),
  },
];

/** A chat channel's section: its connection (test, disconnect) when there is one, and the form that connects
 * or replaces its webhook URL. */
function ChatChannel(p: {
  section: ChatSection;
  connected: boolean;
  at: unknown;
  value: string | undefined;
  hidden: JSX.Element;
}): JSX.Element {
  const c = p.section;
  return (
    <>
      <h2>{c.heading}</h2>
      {p.connected ? <ConnectedChannel path={c.path} at={p.at} to={c.to} hidden={p.hidden} /> : ""}
      <form method="post" action={`${PATH}/${c.path}`} class="card">
        {p.hidden}
        <label for={c.inputId}>{p.connected ? c.replace : c.label}</label>
        <input
          id={c.inputId}
          name="webhook"
          type="url"
          required
          maxlength="2000"
          value={p.value ?? ""}
          placeholder={c.placeholder}
        />
        {c.hint ? <p class="muted small">{c.hint}</p> : ""}
        <button type="submit">{c.button}</button>
      </form>
    </>
  );
}

/** A connected chat channel: since when, where to, and its test and disconnect buttons. */
function ConnectedChannel(p: {
  path: "chat" | "teams";
  at: unknown;
  to: string;
  hidden: JSX.Element;
}): JSX.Element {
  return (
    <div class="card">
      <p>
        Connected <Time ts={p.at} /> to {p.to}.
      </p>
      <form method="post" action={`${PATH}/${p.path}/test`} class="inline">
        {p.hidden}
        <button type="submit" class="secondary">
          Send a test message
        </button>
      </form>{" "}
      <form method="post" action={`${PATH}/${p.path}/disconnect`} class="inline">
        {p.hidden}
        <button type="submit" class="secondary danger">
          Disconnect
        </button>
      </form>
    </div>
  );
}

/** One channel's rules: its list of competitors, its categories and its least severity. */
function RulesForm(p: {
  channel: DeliveryChannel | `webhook:${number}`;
  title: string;
  rules: DeliveryRules | undefined;
  hidden: JSX.Element;
  describe: (r: DeliveryRules | undefined) => string;
}): JSX.Element {
  const r = p.rules;
  const id = (what: string) => `rules-${p.channel}-${what}`;
  return (
    <form method="post" action={`${PATH}/rules`} class="card" data-rules={p.channel}>
      {p.hidden}
      <input type="hidden" name="channel" value={p.channel} />
      <h3 safe>{p.title}</h3>
      <p class="small" safe>
        {`Gets ${p.describe(r)}.`}
      </p>
      <label for={id("watch")}>Competitors</label>
      <select id={id("watch")} name="watch">
        <option value="" selected={!r?.watch}>
          All competitors
        </option>
        <option value="core" selected={r?.watch === "core"}>
          Core watchlist
        </option>
        <option value="horizon" selected={r?.watch === "horizon"}>
          Horizon
        </option>
      </select>
      <label for={id("severity")}>Signals of at least</label>
      <select id={id("severity")} name="min_severity">
        <option value="" selected={!r?.min_severity}>
          any severity
        </option>
        {(["low", "medium", "high"] as const).map((v) => (
          <option value={v} selected={r?.min_severity === v}>
            {v}
          </option>
        ))}
      </select>
      <fieldset>
        <legend>Categories (none checked: all)</legend>
        {Object.entries(CATEGORY_LABEL).map(([slug, name]) => (
          <label class="check">
            <input type="checkbox" name="categories" value={slug} checked={r?.categories?.includes(slug)} />{" "}
            {Html.escapeHtml(name)}
          </label>
        ))}
      </fieldset>
      <button type="submit" safe>{`Save rules for ${p.title}`}</button>
    </form>
  );
}

/** A small Block Kit message that says where it came from. */
function testMessage(orgName: string, baseUrl: string) {
  const name = slackEscape(orgName);
  const text = `Test message from Rivals for ${name}: this channel will receive monitoring updates.`;
  return {
    text,
    blocks: [
      { type: "section", text: { type: "mrkdwn", text: `*Rivals test message* for ${name}` } },
      {
        type: "context",
        elements: [{ type: "mrkdwn", text: `Sent from the monitoring settings at ${baseUrl}${PATH}` }],
      },
    ],
  };
}

export function monitoringSettingsPages(s: Services) {
  const client = s.database;

  async function render(
    m: Member,
    org: Membership,
    opts: { notice?: string; error?: string; webhook?: string; teamsWebhook?: string } = {},
    status = 200,
    fromForm = false,
  ): Promise<Response> {
    const st = await loadSettings(client, org.orgId);
    const view = deliveryView(st, mailConfigured(s.config));
    const plan = planOf(st.plan);
    const delivery = await deliveryStatus(s, org.orgId);
    const hooks = await listWebhooks(client, org.orgId);
    const names = await competitorNames(s.database.db, org.orgId);
    const describe = (r: DeliveryRules | undefined) =>
      describeRules(r, (id) => names.get(id) ?? `competitor ${id}`);
    const csrf = m.session.csrfToken;
    const hidden = (
      <>
        <Csrf token={csrf} />
        <input type="hidden" name="org" value={org.orgSlug} />
      </>
    );
    return privatePage(
      <AppPage session={m.session} current={org} title="Monitoring" section="monitoring" switchTo={PATH}>
        <h1>Monitoring and delivery</h1>
        {opts.notice ? <Notice>{Html.escapeHtml(opts.notice)}</Notice> : ""}
        {opts.error ? <Notice kind="error">{Html.escapeHtml(opts.error)}</Notice> : ""}
        {view.notes.map((n) => (
          <Notice>{Html.escapeHtml(n)}</Notice>
        ))}

        <h2>Cadence</h2>
        <form method="post" action={`${PATH}/cadence`} class="card">
          {hidden}
          <label for="cadence">How often a monitoring cycle runs</label>
          <select id="cadence" name="cadence">
            {view.allowed_cadences.map((c) => (
              <option value={c} selected={c === view.cadence} safe>
                {label(c)}
              </option>
            ))}
          </select>
          <p class="muted small" safe>
            {plan.paid
              ? `The ${plan.label} plan allows ${listOf(view.allowed_cadences.map(labelInText), "or")}.`
              : `The ${plan.label} plan runs ${labelInText(view.cadence)}; choosing a cadence needs a paid plan.`}
          </p>
          <button type="submit">Save cadence</button>
        </form>

        <h2>Delivery channels</h2>
        <form method="post" action={`${PATH}/channels`} class="card">
          {hidden}
          <label class="check">
            <input type="checkbox" name="email" value="1" checked={st.email ?? true} /> Email to each admin
            {view.email_delivery_available ? (
              ""
            ) : (
              <span class="muted small"> — needs a mail server configured on this server</span>
            )}
          </label>
          <label class="check">
            <input type="checkbox" name="slack" value="1" checked={st.slack === true} /> Team chat
            {view.chat_delivery_available ? (
              ""
            ) : (
              <span class="muted small"> — needs {plan.paid ? "" : "a paid plan and "}a chat connection</span>
            )}
          </label>
          <label class="check">
            <input type="checkbox" name="teams" value="1" checked={st.teams === true} /> Microsoft Teams
            {view.teams_delivery_available ? (
              ""
            ) : (
              <span class="muted small">
                {" "}
                — needs {plan.paid ? "" : "a paid plan and "}a Teams connection
              </span>
            )}
          </label>
          <button type="submit">Save channels</button>
        </form>

        <h2>Delivery rules</h2>
        <p>Which of a cycle's new signals each channel gets. With no rules a channel gets every signal.</p>
        {DELIVERY_CHANNELS.map((c) => (
          <RulesForm
            channel={c}
            title={CHANNEL_LABEL[c]}
            rules={view.rules[c]}
            hidden={hidden}
            describe={describe}
          />
        ))}
        {hooks.map((h) => (
          <RulesForm
            channel={`webhook:${h.id}`}
            title={`Webhook ${h.url}`}
            rules={h.filter}
            hidden={hidden}
            describe={describe}
          />
        ))}
        {hooks.length ? (
          <p class="small">
            A webhook endpoint's rules apply to its signal events by competitor, category and severity, and to
            its battlecard and research events by competitor. Endpoints are added on the{" "}
            <a href="/app/settings/integrations#webhooks">Integrations</a> page.
          </p>
        ) : (
          ""
        )}

        {CHAT_SECTIONS.map((c) => {
          const teams = c.provider === "teams";
          return (
            <ChatChannel
              section={c}
              connected={teams ? view.teams_connected : view.chat_connected}
              at={teams ? st.teamsConnectedAt : st.chatConnectedAt}
              value={opts[c.field]}
              hidden={hidden}
            />
          );
        })}

        <h2>Delivery status</h2>
        <StatusTable status={delivery} on={{ email: view.email, slack: view.slack, teams: view.teams }} />
      </AppPage>,
      fromForm ? undefined : m.ws,
      status,
    );
  }

  const ONLY = "change monitoring and delivery settings";
  const refuse = (m: Member, org: Membership) => adminsOnly(m, org, ONLY);
  /** The signed-in admin and the workspace a form names, or a refusal. */
  const adminOf = (request: Request, body: unknown) => formAdmin(s, request, body, ONLY);

  /** The member running a command on the workspace, as the events record it. */
  const by = (m: Member, org: Membership): Issuer => ({
    caller: { orgId: org.orgId, actor: `user:${m.session.userId}` },
    metadata: { source: "web" },
  });
  const done = (org: Membership, what: string) =>
    redirect(`${PATH}?org=${encodeURIComponent(org.orgSlug)}&done=${what}`);

  /** Runs a change; refusals of the domain re-render the page with the reason. */
  async function change(
    request: Request,
    body: unknown,
    run: (m: Member, org: Membership) => Promise<Response>,
    opts: { webhook?: string; teamsWebhook?: string } = {},
  ): Promise<Response> {
    const admin = await adminOf(request, body);
    if (admin instanceof Response) return admin;
    const { m, org } = admin;
    try {
      return await run(m, org);
    } catch (e) {
      if (e instanceof InvalidInput)
        return render(m, org, { error: `Not saved: ${e.message}.`, ...opts }, 400, true);
      if (e instanceof DomainError)
        return render(
          m,
          org,
          { error: `Not saved: ${e.message}`, ...opts },
          e.code === "plan_required" ? 402 : 409,
          true,
        );
      throw e;
    }
  }

  /** A chat channel's forms: connect (or replace) its webhook, disconnect it, send it a test message. */
  const chatRoutes = (c: ChatSection) => {
    const provider = c.provider ? { provider: c.provider } : {};
    return new Elysia()
      .post(`${PATH}/${c.path}`, ({ request, body }) => {
        const webhook = field(body, "webhook").trim();
        return change(
          request,
          body,
          async (m, org) => {
            await runCommand(
              s.store,
              connectChatCommand,
              {
                org: org.orgSlug,
                webhook_url: webhook,
                unsafe_origins: s.config.unsafeWebhookOrigins,
                ...provider,
              },
              by(m, org),
            );
            return done(org, c.done.connected);
          },
          { [c.field]: webhook },
        );
      })
      .post(`${PATH}/${c.path}/disconnect`, ({ request, body }) =>
        change(request, body, async (m, org) => {
          await runCommand(s.store, disconnectChatCommand, provider, by(m, org));
          return done(org, c.done.disconnected);
        }),
      )
      .post(`${PATH}/${c.path}/test`, ({ request, body }) =>
        change(request, body, async (m, org) => {
          const res = await postToChat(s, org.orgId, c.test(org.orgName, s.config.baseUrl), c.provider);
          if (!res) return render(m, org, { error: c.notConnected }, 409, true);
          if (res.ok)
            return render(
              m,
              org,
              { notice: `Test message sent: the ${c.webhookName} answered ${res.status}.` },
              200,
              true,
            );
          return render(
            m,
            org,
            {
              error: `The test message failed: the ${c.webhookName} answered ${res.status ?? res.error}: ${res.message}`,
            },
            502,
            true,
          );
        }),
      );
  };

  return new Elysia({ name: "web-monitoring-settings" })
    .get(PATH, async ({ request }) => {
      const m = await member(s, request);
      if (m instanceof Response) return m;
      const org = m.ws.current;
      if (!org) return privatePage(<NoWorkspace session={m.session} />);
      if (org.role !== "admin") return refuse(m, org);
      const what = new URL(request.url).searchParams.get("done") ?? "";
      return render(m, org, { notice: DONE[what] });
    })
    .post(`${PATH}/cadence`, ({ request, body }) =>
      change(request, body, async (m, org) => {
        await runCommand(s.store, setMonitoringCadence, { cadence: field(body, "cadence") }, by(m, org));
        return done(org, "cadence");
      }),
    )
    .post(`${PATH}/channels`, ({ request, body }) =>
      change(request, body, async (m, org) => {
        await runCommand(
          s.store,
          setDeliveryChannels,
          {
            email: field(body, "email") === "1",
            slack: field(body, "slack") === "1",
            teams: field(body, "teams") === "1",
          },
          by(m, org),
        );
        return done(org, "channels");
      }),
    )
    .post(`${PATH}/rules`, ({ request, body }) =>
      change(request, body, async (m, org) => {
        const channel = field(body, "channel");
        const watch = field(body, "watch");
        const min = field(body, "min_severity");
        const categories = fields(body, "categories");
        const rules = {
          ...(watch ? { watch } : {}),
          ...(min ? { min_severity: min } : {}),
          ...(categories.length ? { categories } : {}),
        } as DeliveryRules;
        const hook = /^webhook:(\d{1,15})$/.exec(channel);
        await runCommand(
          s.store,
          setDeliveryChannels,
          hook
            ? { webhook_rules: [{ webhook_id: Number(hook[1]), rules }] }
            : { rules: { [channel]: rules } },
          by(m, org),
        );
        return done(org, "rules");
      }),
    )
    .use(chatRoutes(CHAT_SECTIONS[0]))
    .use(chatRoutes(CHAT_SECTIONS[1]));
}
