// /app/settings/integrations: an admin creates API keys (shown once), sees each key's name, prefix,
// scopes, creation and last use, and revokes keys. Members see that keys exist only for admins.
// Keys made here are the same as the CLI's (domain/apiKeys.ts): they read the API and call the tools.
// Below the keys, the webhook endpoints (src/web/webhooks.tsx) and the connected OAuth apps
// (src/web/connectedApps.tsx).
/** @jsxRuntime classic */
/** @jsx Html.createElement */
/** @jsxFrag Html.Fragment */
import { Elysia } from "elysia";
import { runCommand } from "../../events/command.ts";
import type { Membership } from "../auth/session.ts";
import { type ApiKeyView, listApiKeys } from "../db/queries/apiKeys.ts";
import { listCompetitors } from "../db/queries/competitors.ts";
import { listConnectedApps } from "../db/queries/connectedApps.ts";
import { listFeeds } from "../db/queries/feeds.ts";
import { listWebhooks, type WebhookLogEntry, webhookLog } from "../db/queries/webhooks.ts";
import {
  createApiKeyCommand,
  parseScopes,
  revokeApiKeyCommand,
  SCOPES,
  type Scope,
} from "../domain/apiKeys.ts";
import { DomainError } from "../domain/errors.ts";
import { type CreatedFeed, createFeed, revokeFeed } from "../domain/feeds.ts";
import { planOf } from "../domain/plans.ts";
import { InvalidInput } from "../domain/validate.ts";
import { type AddedWebhook, addWebhook, enableWebhook, removeWebhook } from "../domain/webhookEndpoints.ts";
import type { WebhookFilter } from "../domain/webhooks.ts";
import { newWebhookSecret } from "../engine/deliver/webhookSign.ts";
import { sendTestEvent } from "../engine/deliver/webhooks.ts";
import type { Services } from "../services.ts";
import { AppPage, NoWorkspace } from "./appShell.tsx";
import { Csrf, DangerAction, Notice, Time } from "./components.tsx";
import { ConnectedApps, INTEGRATIONS_PATH } from "./connectedApps.tsx";
import { FEEDS_PATH, FeedLinks } from "./feedLinks.tsx";
import { decimalId, field, fields, notFound, redirect } from "./http.ts";
import { Html } from "./layout.tsx";
import { formAdmin, formMember, type Member, member, privatePage } from "./member.ts";
import { WEBHOOKS_PATH, type WebhookFormInput, Webhooks } from "./webhooks.tsx";

const PATH = INTEGRATIONS_PATH;

const SCOPE_HELP: Record<Scope, string> = {
  read: "read the workspace (the read API and the read tools)",
  write: "change workspace state through tools (watchlist, pins, notes, ratings, settings)",
  spend: "use the weekly research allowance and the daily caps (research, battlecards, ICP, positioning)",
};

interface Created {
  name: string;
  scopes: string[];
  token: string;
}

function KeyTable({ keys, org, csrf }: { keys: ApiKeyView[]; org: Membership; csrf: string }): JSX.Element {
  if (keys.length === 0) return <p class="muted">No API keys yet.</p>;
  return (
    <div class="scroll">
      <table class="keys stack">
        <thead>
          <tr>
            <th>Name</th>
            <th>Key</th>
            <th>Scopes</th>
            <th>Created</th>
            <th>Last used</th>
            <th>Status</th>
          </tr>
        </thead>
        <tbody>
          {keys.map((k) => (
            <tr data-key-id={String(k.id)}>
              <td data-label="Name" safe>
                {k.name}
              </td>
              <td data-label="Key">
                <code safe>{`${k.prefix}…`}</code>
              </td>
              <td data-label="Scopes" safe>
                {k.scopes.join(", ")}
              </td>
              <td data-label="Created">
                <Time ts={k.created_at} />
              </td>
              <td data-label="Last used">
                {k.last_used_at ? <Time ts={k.last_used_at} /> : <span class="muted">never</span>}
              </td>
              <td data-label="Status">
                {k.revoked_at ? (
                  <span class="muted">
                    Revoked <Time ts={k.revoked_at} />
                  </span>
                ) : (
                  <DangerAction
                    action={`${PATH}/keys/${k.id}/revoke`}
                    csrf={csrf}
                    org={org.orgSlug}
                    label="Revoke"
                    ariaLabel={`Revoke ${k.name}`}
                  />
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function CreateForm({
  org,
  csrf,
  name = "",
  scopes = [...SCOPES],
}: {
  org: Membership;
  csrf: string;
  name?: string;
  scopes?: string[];
}): JSX.Element {
  return (
    <form method="post" action={`${PATH}/keys`} class="card">
      <h3>Create an API key</h3>
      <Csrf token={csrf} />
      <input type="hidden" name="org" value={org.orgSlug} />
      <label for="key-name">Name</label>
      <input
        id="key-name"
        name="name"
        value={name}
        maxlength="100"
        required
        placeholder="CI export, Claude Desktop…"
      />
      <fieldset>
        <legend>Scopes</legend>
        {SCOPES.map((sc) => (
          <label class="check">
            <input type="checkbox" name="scopes" value={sc} checked={scopes.includes(sc)} />{" "}
            <strong>{Html.escapeHtml(sc)}</strong>{" "}
            <span class="muted small">— {Html.escapeHtml(SCOPE_HELP[sc])}</span>
          </label>
        ))}
      </fieldset>
      <button type="submit">Create key</button>
    </form>
  );
}

export function integrationsPages(s: Services) {
  const db = s.database.db;
  const base = s.config.baseUrl;

  async function render(
    m: Member,
    request: Request,
    opts: {
      org?: Membership;
      created?: Created;
      error?: string;
      name?: string;
      scopes?: string[];
      webhook?: { created?: AddedWebhook; error?: string; input?: WebhookFormInput };
      feed?: { created?: CreatedFeed; error?: string };
    } = {},
    status = 200,
  ): Promise<Response> {
    const org = opts.org ?? m.ws.current;
    if (!org) return privatePage(<NoWorkspace session={m.session} />);
    const plan = planOf(org.plan);
    const query = new URL(request.url).searchParams;
    const revoked = decimalId(query.get("revoked"));
    const isAdmin = org.role === "admin";
    const keys = isAdmin ? await listApiKeys(db, org.orgId) : [];
    // Admins see every member's apps; a member only their own.
    const apps = await listConnectedApps(
      s.database,
      org.orgId,
      s.clock(),
      isAdmin ? undefined : m.session.userId,
    );
    const revokedKey = revoked !== undefined ? keys.find((k) => k.id === revoked) : undefined;
    const hooks = isAdmin ? await listWebhooks(s.database, org.orgId) : [];
    const logs = new Map<number, WebhookLogEntry[]>();
    for (const h of hooks) logs.set(h.id, await webhookLog(s.database, org.orgId, h.id));
    const hookNotice = webhookNotice(query);
    const feeds = await listFeeds(s.database, org.orgId);
    const competitors = (await listCompetitors(db, org.orgId, base)).map((c) => ({
      id: Number(c.id),
      name: String(c.name),
    }));
    return privatePage(
      <AppPage session={m.session} current={org} title="Integrations" section="integrations" switchTo={PATH}>
        <h1>Integrations</h1>
        <h2>API keys</h2>
        <p>
          An API key reads this workspace through the <a href="/developers">read API</a> (
          <code safe>{`${base}/api/v1`}</code>) and calls the agent tools at <code safe>{`${base}/mcp`}</code>
          . Send it as <code safe>{"Authorization: Bearer <key>"}</code> or{" "}
          <code safe>{"X-API-Key: <key>"}</code>.
        </p>
        {!isAdmin ? (
          <Notice>
            <>
              Only admins of <strong safe>{org.orgName}</strong> can see, create and revoke API keys. Ask an
              admin for a key, or connect an AI assistant with OAuth through the MCP endpoint.
            </>
          </Notice>
        ) : (
          <>
            {plan.readApi ? (
              ""
            ) : (
              <Notice>
                <>
                  This workspace is on the <strong safe>{plan.label}</strong> plan: keys work with the MCP
                  tool endpoint, but the read API answers 402 until the workspace is on a{" "}
                  <a href="/pricing">paid plan</a>.
                </>
              </Notice>
            )}
            {revokedKey ? (
              <Notice>
                <>
                  Key <strong safe>{revokedKey.name}</strong> was revoked. Requests with it now get 401.
                </>
              </Notice>
            ) : (
              ""
            )}
            {opts.created ? (
              <section class="card created" aria-live="polite">
                <h3>
                  New key <span safe>{opts.created.name}</span>
                </h3>
                <p>
                  <strong>Copy it now: it is shown only once.</strong> Only a digest of it is stored.
                </p>
                <label for="new-token">API key</label>
                <input id="new-token" class="token" readonly value={opts.created.token} size="60" />
                <p class="muted small" safe>
                  {`Scopes: ${opts.created.scopes.join(", ")}`}
                </p>
                <pre class="wrap">
                  <code
                    safe
                  >{`curl -H "Authorization: Bearer ${opts.created.token}" ${base}/api/v1/competitors`}</code>
                </pre>
              </section>
            ) : (
              ""
            )}
            {opts.error ? <Notice kind="error">{Html.escapeHtml(opts.error)}</Notice> : ""}
            <CreateForm org={org} csrf={m.session.csrfToken} name={opts.name} scopes={opts.scopes} />
            <h3>Keys</h3>
            <KeyTable keys={keys} org={org} csrf={m.session.csrfToken} />
            <Webhooks
              hooks={hooks}
              logs={logs}
              org={org}
              csrf={m.session.csrfToken}
              created={opts.webhook?.created}
              error={opts.webhook?.error}
              input={opts.webhook?.input}
              notice={hookNotice}
            />
          </>
        )}
        <FeedLinks
          feeds={feeds}
          competitors={competitors}
          org={org}
          csrf={m.session.csrfToken}
          created={opts.feed?.created}
          error={opts.feed?.error}
          notice={
            query.get("feed_revoked") ? "The feed was revoked: its address now answers 404." : undefined
          }
        />
        <ConnectedApps
          apps={apps}
          org={org}
          csrf={m.session.csrfToken}
          disconnected={query.get("disconnected") === "1"}
        />
      </AppPage>,
      opts.org ? undefined : m.ws,
      status,
    );
  }

  /** The signed-in admin and the workspace a form names, or a refusal. */
  const adminOf = (request: Request, body: unknown) => formAdmin(s, request, body, "manage API keys");

  return new Elysia({ name: "web-integrations" })
    .get(PATH, async ({ request }) => {
      const m = await member(s, request);
      if (m instanceof Response) return m;
      return render(m, request);
    })
    .post(`${PATH}/keys`, async ({ request, body }) => {
      const admin = await adminOf(request, body);
      if (admin instanceof Response) return admin;
      const { m, org } = admin;
      const name = field(body, "name").trim();
      const chosen = fields(body, "scopes");
      if (chosen.length === 0)
        return render(m, request, { org, error: "Choose at least one scope.", name, scopes: [] }, 400);
      try {
        const scopes = parseScopes(chosen);
        const key = await runCommand(
          s.store,
          createApiKeyCommand,
          { org: org.orgSlug, name: name || undefined, scopes },
          { caller: { actor: `user:${m.session.userId}` } },
        );
        return render(m, request, {
          org,
          created: { name: key.name, scopes: key.scopes, token: key.token },
        });
      } catch (e) {
        if (e instanceof InvalidInput)
          return render(m, request, { org, error: `Not created: ${e.message}.`, name, scopes: chosen }, 400);
        throw e;
      }
    })
    .post(`${PATH}/keys/:id/revoke`, async ({ request, body, params }) => {
      const admin = await adminOf(request, body);
      if (admin instanceof Response) return admin;
      const { m, org } = admin;
      const id = decimalId(params.id) ?? notFound();
      try {
        await runCommand(
          s.store,
          revokeApiKeyCommand,
          { org: org.orgSlug, id },
          { caller: { actor: `user:${m.session.userId}` } },
        );
      } catch (e) {
        if (e instanceof DomainError && e.code === "not_found") notFound();
        throw e;
      }
      return redirect(`${PATH}?org=${encodeURIComponent(org.orgSlug)}&revoked=${id}`);
    })
    .post(FEEDS_PATH, async ({ request, body }) => {
      const f = await formMember(s, request, body);
      if (f instanceof Response) return f;
      const { m, org } = f;
      const raw = field(body, "competitor_id");
      const competitorId = raw ? (decimalId(raw) ?? notFound()) : undefined;
      try {
        const created = await runCommand(
          s.store,
          createFeed,
          { ...(competitorId !== undefined ? { competitor_id: competitorId } : {}), base },
          { caller: { orgId: org.orgId, actor: `user:${m.session.userId}` } },
        );
        return render(m, request, { org, feed: { created } });
      } catch (e) {
        if (e instanceof DomainError && (e.code === "limit_reached" || e.code === "not_found"))
          return render(m, request, { org, feed: { error: `Not created: ${e.message}` } }, 400);
        throw e;
      }
    })
    .post(`${FEEDS_PATH}/:id/revoke`, async ({ request, body, params }) => {
      const f = await formMember(s, request, body);
      if (f instanceof Response) return f;
      const { m, org } = f;
      const id = decimalId(params.id) ?? notFound();
      try {
        await runCommand(
          s.store,
          revokeFeed,
          { id },
          { caller: { orgId: org.orgId, actor: `user:${m.session.userId}` } },
        );
      } catch (e) {
        if (e instanceof DomainError && e.code === "not_found") notFound();
        throw e;
      }
      return redirect(`${PATH}?org=${encodeURIComponent(org.orgSlug)}&feed_revoked=${id}#feeds`);
    })
    .post(WEBHOOKS_PATH, async ({ request, body }) => {
      const admin = await formAdmin(s, request, body, "manage webhooks");
      if (admin instanceof Response) return admin;
      const { m, org } = admin;
      const input: WebhookFormInput = {
        url: field(body, "url").trim(),
        event_types: fields(body, "event_types"),
        watch: field(body, "watch"),
        min_severity: field(body, "min_severity"),
        categories: fields(body, "categories"),
      };
      const filter: WebhookFilter = {
        ...(input.watch ? { watch: input.watch as WebhookFilter["watch"] } : {}),
        ...(input.min_severity ? { min_severity: input.min_severity as WebhookFilter["min_severity"] } : {}),
        ...(input.categories?.length ? { categories: input.categories } : {}),
      };
      try {
        const created = await runCommand(
          s.store,
          addWebhook,
          {
            endpoint: { url: input.url ?? "", event_types: input.event_types ?? [], filter },
            secret: newWebhookSecret(),
            unsafe_origins: s.config.unsafeWebhookOrigins,
          },
          { caller: { orgId: org.orgId, actor: `user:${m.session.userId}` } },
        );
        return render(m, request, { org, webhook: { created } });
      } catch (e) {
        if (e instanceof InvalidInput || (e instanceof DomainError && e.code === "limit_reached"))
          return render(m, request, { org, webhook: { error: `Not added: ${e.message}`, input } }, 400);
        throw e;
      }
    })
    .post(`${WEBHOOKS_PATH}/:id/:action`, async ({ request, body, params }) => {
      const admin = await formAdmin(s, request, body, "manage webhooks");
      if (admin instanceof Response) return admin;
      const { m, org } = admin;
      const id = decimalId(params.id) ?? notFound();
      const by = { caller: { orgId: org.orgId, actor: `user:${m.session.userId}` } };
      try {
        if (params.action === "remove") await runCommand(s.store, removeWebhook, { id }, by);
        else if (params.action === "enable") await runCommand(s.store, enableWebhook, { id }, by);
        else if (params.action === "test") await sendTestEvent(s, org.orgId, id);
        else notFound();
      } catch (e) {
        if (e instanceof DomainError && e.code === "not_found") notFound();
        throw e;
      }
      return redirect(
        `${PATH}?org=${encodeURIComponent(org.orgSlug)}&webhook_${params.action}=${id}#webhooks`,
      );
    });
}

/** What the page says after an endpoint's button was used. */
function webhookNotice(query: URLSearchParams): string | undefined {
  if (query.get("webhook_remove")) return "The webhook endpoint was removed: nothing more is sent to it.";
  if (query.get("webhook_enable"))
    return "The webhook endpoint is on again: its waiting messages are sent, oldest first.";
  if (query.get("webhook_test"))
    return "A test event was sent (or queued behind the endpoint's waiting messages); its status is in the endpoint's recent messages.";
  return undefined;
}
