// Webhook endpoints on the integrations page (docs/webhooks.md): an admin adds one (address, event types,
// filter) and sees its signing secret once, sees each endpoint's state and its newest messages (status, time,
// tries), sends a test event, turns a disabled endpoint back on, and removes one.
/** @jsxRuntime classic */
/** @jsx Html.createElement */
/** @jsxFrag Html.Fragment */
import type { Membership } from "../auth/session.ts";
import type { WebhookLogEntry, WebhookView } from "../db/queries/webhooks.ts";
import { CATEGORY_LABEL } from "../domain/vocabulary.ts";
import type { AddedWebhook } from "../domain/webhookEndpoints.ts";
import { WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_TYPE } from "../domain/webhooks.ts";
import { Csrf, DangerAction, Notice, Time } from "./components.tsx";
import { INTEGRATIONS_PATH } from "./connectedApps.tsx";
import { Html } from "./layout.tsx";

export const WEBHOOKS_PATH = `${INTEGRATIONS_PATH}/webhooks`;

const EVENT_HELP: Record<string, string> = {
  "signal.opened": "a new signal",
  "signal.updated": "a signal seen again, with new evidence or a new severity",
  "signal.closed": "a signal reverted, superseded or expired",
  "digest.generated": "a digest written",
  "battlecard.updated": "a battlecard written, rewritten or edited",
  "competitor.researched": "a competitor's research finished",
  "cycle.finished": "a monitoring cycle ended (after its signal events)",
};

export interface WebhookFormInput {
  url?: string;
  event_types?: string[];
  watch?: string;
  min_severity?: string;
  categories?: string[];
}

function MessageLog({ log }: { log: WebhookLogEntry[] }): JSX.Element {
  if (log.length === 0) return <p class="muted small">No messages yet.</p>;
  return (
    <div class="scroll">
      <table class="stack webhook-log">
        <thead>
          <tr>
            <th>Event</th>
            <th>Status</th>
            <th>Queued</th>
            <th>Last try</th>
            <th>Tries</th>
          </tr>
        </thead>
        <tbody>
          {log.map((m) => (
            <tr data-message={m.msg_id}>
              <td data-label="Event">
                <code safe>{m.type === WEBHOOK_TEST_TYPE ? "test event" : m.type}</code>
              </td>
              <td data-label="Status">
                {m.state === "sent" ? (
                  <span safe>{`Delivered${m.last_status ? ` (${m.last_status})` : ""}`}</span>
                ) : m.state === "failed" ? (
                  <span safe>{`Gave up: ${m.last_error ?? "failed"}`}</span>
                ) : m.last_error ? (
                  <span>
                    <span safe>{`Failed: ${m.last_error}`}</span>
                    {m.next_attempt_at ? (
                      <>
                        ; next try <Time ts={m.next_attempt_at} />
                      </>
                    ) : (
                      ""
                    )}
                  </span>
                ) : (
                  <span>Waiting</span>
                )}
              </td>
              <td data-label="Queued">
                <Time ts={m.queued_at} />
              </td>
              <td data-label="Last try">
                {m.last_attempt_at ? <Time ts={m.last_attempt_at} /> : <span class="muted">not yet</span>}
              </td>
              <td data-label="Tries">{String(m.attempts)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Endpoint(p: { hook: WebhookView; log: WebhookLogEntry[]; org: Membership; csrf: string }) {
  const h = p.hook;
  const f = h.filter;
  const filter = [
    f?.watch ? `${f.watch} competitors` : "",
    f?.competitor_ids?.length ? `competitors ${f.competitor_ids.join(", ")}` : "",
    f?.categories?.length ? `categories ${f.categories.join(", ")}` : "",
    f?.min_severity ? `severity ${f.min_severity} or higher` : "",
  ].filter(Boolean);
  return (
    <section class="card webhook" data-webhook-id={String(h.id)}>
      <h4>
        <code safe>{h.url}</code>
      </h4>
      {h.state === "disabled" ? (
        <Notice kind="error">
          <>
            Disabled <Time ts={h.disabled_at} />: <span safe>{h.disabled_reason ?? ""}</span> Nothing is sent
            to it until it is turned on again; its {String(h.pending)} waiting message
            {h.pending === 1 ? " is" : "s are"} kept.
          </>
        </Notice>
      ) : (
        ""
      )}
      <p class="small">
        Events: <span safe>{h.event_types.join(", ")}</span>
        {filter.length ? (
          <>
            {" "}
            — only <span safe>{filter.join("; ")}</span>
          </>
        ) : (
          ""
        )}
        . Secret <code safe>{h.secret_hint}</code>. Added <Time ts={h.created_at} />.
      </p>
      <div class="actions">
        <form method="post" action={`${WEBHOOKS_PATH}/${h.id}/test`} class="inline">
          <Csrf token={p.csrf} />
          <input type="hidden" name="org" value={p.org.orgSlug} />
          <button type="submit" aria-label={`Send a test event to ${h.url}`}>
            Send a test event
          </button>
        </form>
        {h.state === "disabled" ? (
          <form method="post" action={`${WEBHOOKS_PATH}/${h.id}/enable`} class="inline">
            <Csrf token={p.csrf} />
            <input type="hidden" name="org" value={p.org.orgSlug} />
            <button type="submit" aria-label={`Turn on ${h.url}`}>
              Turn on again
            </button>
          </form>
        ) : (
          ""
        )}
        <DangerAction
          action={`${WEBHOOKS_PATH}/${h.id}/remove`}
          csrf={p.csrf}
          org={p.org.orgSlug}
          label="Remove"
          ariaLabel={`Remove ${h.url}`}
        />
      </div>
      <h5>Recent messages</h5>
      <MessageLog log={p.log} />
    </section>
  );
}

function AddForm({ org, csrf, input }: { org: Membership; csrf: string; input: WebhookFormInput }) {
  const types = input.event_types ?? ["signal.opened", "cycle.finished"];
  return (
    <form method="post" action={WEBHOOKS_PATH} class="card">
      <h3>Add a webhook endpoint</h3>
      <Csrf token={csrf} />
      <input type="hidden" name="org" value={org.orgSlug} />
      <label for="webhook-url">Address (https)</label>
      <input
        id="webhook-url"
        name="url"
        type="url"
        value={input.url ?? ""}
        maxlength="2048"
        required
        placeholder="https://hooks.zapier.com/hooks/catch/…"
      />
      <fieldset>
        <legend>Events</legend>
        {WEBHOOK_EVENT_TYPES.map((t) => (
          <label class="check">
            <input type="checkbox" name="event_types" value={t} checked={types.includes(t)} />{" "}
            <code safe>{t}</code> <span class="muted small">— {Html.escapeHtml(EVENT_HELP[t])}</span>
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>Only (optional)</legend>
        <label for="webhook-watch">Competitors</label>
        <select id="webhook-watch" name="watch">
          <option value="" selected={!input.watch}>
            All competitors
          </option>
          <option value="core" selected={input.watch === "core"}>
            Core watchlist
          </option>
          <option value="horizon" selected={input.watch === "horizon"}>
            Horizon
          </option>
        </select>
        <label for="webhook-severity">Signals of at least</label>
        <select id="webhook-severity" name="min_severity">
          <option value="" selected={!input.min_severity}>
            any severity
          </option>
          {["low", "medium", "high"].map((v) => (
            <option value={v} selected={input.min_severity === v}>
              {v}
            </option>
          ))}
        </select>
        <p class="small">Signal categories (none checked: all)</p>
        {Object.entries(CATEGORY_LABEL).map(([slug, label]) => (
          <label class="check">
            <input
              type="checkbox"
              name="categories"
              value={slug}
              checked={input.categories?.includes(slug)}
            />{" "}
            {Html.escapeHtml(label)}
          </label>
        ))}
      </fieldset>
      <button type="submit">Add endpoint</button>
    </form>
  );
}

export function Webhooks(p: {
  hooks: WebhookView[];
  logs: Map<number, WebhookLogEntry[]>;
  org: Membership;
  csrf: string;
  created?: AddedWebhook;
  error?: string;
  input?: WebhookFormInput;
  notice?: string;
}): JSX.Element {
  return (
    <>
      <h2 id="webhooks">Webhooks</h2>
      <p>
        A webhook endpoint receives this workspace's events as signed JSON POSTs (new, updated and closed
        signals, digests, battlecards, research and finished cycles), each with the same object the read API
        serves. Messages are signed as the <a href="https://www.standardwebhooks.com/">Standard Webhooks</a>{" "}
        specification says (<code>webhook-id</code>, <code>webhook-timestamp</code> and{" "}
        <code>webhook-signature</code> headers), so its libraries verify them with the endpoint's secret.
      </p>
      {p.notice ? <Notice>{Html.escapeHtml(p.notice)}</Notice> : ""}
      {p.created ? (
        <section class="card created" aria-live="polite">
          <h3>
            Endpoint added: <code safe>{p.created.url}</code>
          </h3>
          <p>
            <strong>Copy the signing secret now: it is shown only once.</strong> Your receiver verifies each
            message's <code>webhook-signature</code> with it.
          </p>
          <label for="new-webhook-secret">Signing secret</label>
          <input id="new-webhook-secret" class="token" readonly value={p.created.secret} size="60" />
        </section>
      ) : (
        ""
      )}
      {p.error ? <Notice kind="error">{Html.escapeHtml(p.error)}</Notice> : ""}
      {p.hooks.map((h) => (
        <Endpoint hook={h} log={p.logs.get(h.id) ?? []} org={p.org} csrf={p.csrf} />
      ))}
      <AddForm org={p.org} csrf={p.csrf} input={p.input ?? {}} />
    </>
  );
}
