// Atom feeds on the integrations page (docs/feeds.md): any member makes a feed of the workspace's signals or of
// one competitor's, sees its secret URL once, and revokes feeds.
/** @jsxRuntime classic */
/** @jsx Html.createElement */
/** @jsxFrag Html.Fragment */
import type { Membership } from "../auth/session.ts";
import type { FeedView } from "../db/queries/feeds.ts";
import type { CreatedFeed } from "../domain/feeds.ts";
import { Csrf, DangerAction, Notice, Time } from "./components.tsx";
import { INTEGRATIONS_PATH } from "./connectedApps.tsx";
import { Html } from "./layout.tsx";

export const FEEDS_PATH = `${INTEGRATIONS_PATH}/feeds`;

export function FeedLinks(p: {
  feeds: FeedView[];
  competitors: { id: number; name: string }[];
  org: Membership;
  csrf: string;
  created?: CreatedFeed;
  notice?: string;
  error?: string;
}): JSX.Element {
  const whose = (f: { competitor_id?: number; competitor_name?: string }) =>
    f.competitor_id === undefined
      ? "All signals"
      : `Signals on ${f.competitor_name ?? "a removed competitor"}`;
  return (
    <>
      <h2 id="feeds">Feeds</h2>
      <p>
        An Atom feed of this workspace's open signals, newest first, for a feed reader: each entry links to
        its signal page and carries its evidence. Anyone with a feed's address can read it, so share it like a
        password; revoke it here when it should stop working.
      </p>
      {p.notice ? <Notice>{Html.escapeHtml(p.notice)}</Notice> : ""}
      {p.error ? <Notice kind="error">{Html.escapeHtml(p.error)}</Notice> : ""}
      {p.created ? (
        <section class="card created" aria-live="polite">
          <h3>New feed</h3>
          <p>
            <strong>Copy the address now: it is shown only once.</strong> Only a digest of it is stored.
          </p>
          <label for="new-feed-url">Feed address</label>
          <input id="new-feed-url" class="token" readonly value={p.created.url} size="60" />
        </section>
      ) : (
        ""
      )}
      {p.feeds.length ? (
        <div class="scroll">
          <table class="stack feeds">
            <thead>
              <tr>
                <th>Feed</th>
                <th>Created</th>
                <th>Status</th>
              </tr>
            </thead>
            <tbody>
              {p.feeds.map((f) => (
                <tr data-feed-id={String(f.id)}>
                  <td data-label="Feed" safe>
                    {whose(f)}
                  </td>
                  <td data-label="Created">
                    <Time ts={f.created_at} />
                  </td>
                  <td data-label="Status">
                    <DangerAction
                      action={`${FEEDS_PATH}/${f.id}/revoke`}
                      csrf={p.csrf}
                      org={p.org.orgSlug}
                      label="Revoke"
                      ariaLabel={`Revoke the feed: ${whose(f)}`}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p class="muted">No feeds yet.</p>
      )}
      <form method="post" action={FEEDS_PATH} class="card">
        <h3>Create a feed</h3>
        <Csrf token={p.csrf} />
        <input type="hidden" name="org" value={p.org.orgSlug} />
        <label for="feed-competitor">Signals</label>
        <select id="feed-competitor" name="competitor_id">
          <option value="">All competitors</option>
          {p.competitors.map((c) => (
            <option value={String(c.id)} safe>
              {c.name}
            </option>
          ))}
        </select>
        <button type="submit">Create feed</button>
      </form>
    </>
  );
}
