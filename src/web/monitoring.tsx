// The monitoring part of a competitor page: when its sources were last checked in a cycle, how many changed,
// and the sources failing now (the error, failed checks in a row, since when). From the dossier's `freshness`,
// which each cycle's CompetitorChecked event sets (docs/engine/cycles.md).
/** @jsxRuntime classic */
/** @jsx Html.createElement */
/** @jsxFrag Html.Fragment */
import type { WatchedSource } from "../db/queries/dossier.ts";
import { STRIKES } from "../engine/classify/presence.ts";
import { pageWord } from "../engine/classify/wording.ts";
import { sourceKind } from "../engine/sources/kinds/index.ts";
import { Time } from "./components.tsx";
import { Html } from "./layout.tsx";

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : {});

const ERRORS: Record<string, string> = {
  timeout: "did not answer in time",
  network: "could not be reached",
  robots_disallowed: "its robots.txt disallows our crawler",
  // One code for a name that does not resolve and one that resolves only to private addresses: the words
  // are true of both and tell nothing more about the network.
  blocked_address: "its name does not resolve to a public address",
  outside_sites: "not one of the demo's sites",
  too_large: "too large to read",
  too_many_redirects: "too many redirects",
  unsupported_content: "not a readable page",
  // A job board or feed whose answer is not its list (boards/read.ts, feeds.ts notAFeed).
  not_board_response: "answered with something other than its list of jobs",
  not_feed_response: "answered with something other than a feed",
  empty_response: "answered with an empty body",
  truncated_response: "answered with a body cut short",
  too_many_pages: "lists more jobs than are read",
};

function errorWords(e: string): string {
  const http = /^http_error (\d+)$/.exec(e);
  if (http) return `answered HTTP ${http[1]}`;
  return ERRORS[e] ?? e;
}

/** What a source is, as a reader names it: "pricing page", "GitHub releases", "job board (greenhouse)". */
function sourceLabel(kind: string): string {
  const k = sourceKind(kind);
  return k.name === "page" ? pageWord(kind) : k.label(kind);
}

/** Every source research chose to watch, with its last check and how it went. */
function SourcesTable({ sources }: { sources: WatchedSource[] }): JSX.Element {
  return (
    <details class="sources">
      <summary>
        {sources.length === 1 ? "The source watched" : `All ${sources.length} sources watched`}
      </summary>
      <div class="scroll" tabindex="0">
        <table>
          <thead>
            <tr>
              <th scope="col">Source</th>
              <th scope="col">Last checked</th>
              <th scope="col">Last change</th>
              <th scope="col">State</th>
            </tr>
          </thead>
          <tbody>
            {sources.map((x) => (
              <tr>
                <td>
                  <span safe>{sourceLabel(x.kind)}</span>:{" "}
                  <a href={x.url} rel="nofollow noopener" safe>
                    {x.url}
                  </a>
                </td>
                <td>{x.lastCheckedAt ? <Time ts={x.lastCheckedAt} /> : "not yet"}</td>
                <td>{x.lastChangedAt ? <Time ts={x.lastChangedAt} /> : "none seen"}</td>
                <td safe>
                  {x.failures > 0 && x.lastError
                    ? `failing: ${errorWords(x.lastError)}`
                    : x.lastCheckedAt
                      ? "read"
                      : "waiting for the first cycle"}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}

export function MonitoringPanel({ c, sources = [] }: { c: Obj; sources?: WatchedSource[] }): JSX.Element {
  const f = obj(c.freshness);
  const counts = obj(f.sources);
  const failing = Array.isArray(f.source_failures) ? (f.source_failures as Obj[]) : [];
  if (!f.last_checked_at)
    return sources.length ? (
      <section class="card monitoring" aria-label="Monitoring">
        <h2>Monitoring</h2>
        <p>No monitoring cycle has checked these sources yet.</p>
        <SourcesTable sources={sources} />
      </section>
    ) : (
      ""
    );
  return (
    <section class="card monitoring" aria-label="Monitoring">
      <h2>Monitoring</h2>
      <p>
        Sources last checked <Time ts={f.last_checked_at} />: {String(counts.checked ?? 0)} checked,{" "}
        {String(counts.changed ?? 0)} changed
        {failing.length ? `, ${failing.length} failing` : ""}.
        {f.last_changed_at ? (
          <>
            {" "}
            Last change seen <Time ts={f.last_changed_at} />.
          </>
        ) : (
          ""
        )}
      </p>
      {failing.length ? (
        <>
          <ul class="source-failures">
            {failing.map((x) => (
              <li data-failures={String(x.failures)}>
                <a href={String(x.url)} rel="nofollow noopener" safe>
                  {String(x.url)}
                </a>{" "}
                <span safe>{errorWords(String(x.error))}</span> — {String(x.failures)} failed{" "}
                {Number(x.failures) === 1 ? "check" : "checks in a row"}, since <Time ts={x.since} />
              </li>
            ))}
          </ul>
          <p class="muted small">
            Failing sources are retried every cycle. A page that answers "not found" is reported removed only
            after {String(STRIKES)} failed cycles in a row.
          </p>
        </>
      ) : (
        ""
      )}
      {sources.length ? <SourcesTable sources={sources} /> : ""}
    </section>
  );
}
