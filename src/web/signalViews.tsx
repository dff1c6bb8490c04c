// Signals: the feed's cards, the feed filters and the signal page.
/** @jsxRuntime classic */
/** @jsx Html.createElement */
/** @jsxFrag Html.Fragment */
import type { Conflict } from "../domain/conflicts.ts";
import { formatDay } from "../domain/dates.ts";
import { label } from "../domain/vocabulary.ts";
import { ChangeDiff, type SignalChange } from "./charts.tsx";
import { EvidenceList, Facts, Prose, Severity, Time, text } from "./components.tsx";
import { Html } from "./layout.tsx";

type Obj = Record<string, unknown>;

export function SignalCard({ signal }: { signal: Obj }): JSX.Element {
  const evidence = Array.isArray(signal.evidence) ? signal.evidence.length : 0;
  return (
    <article class="card signal">
      <h3>
        <a href={`/app/signals/${signal.id}`} safe>
          {String(signal.title)}
        </a>
      </h3>
      <div class="meta muted small">
        <Severity level={signal.severity} />
        {signal.competitor_id !== undefined ? (
          <a href={`/app/competitors/${signal.competitor_id}`} safe>
            {String(signal.competitor_name ?? `Competitor ${signal.competitor_id}`)}
          </a>
        ) : (
          ""
        )}
        {signal.first_seen_at ? <Time ts={signal.first_seen_at} /> : ""}
        {signal.status === "closed" ? <span>closed</span> : ""}
        <span>{Html.escapeHtml(`${evidence} source${evidence === 1 ? "" : "s"}`)}</span>
      </div>
      {signal.summary ? <p safe>{String(signal.summary)}</p> : ""}
    </article>
  );
}

/** Other signals that report the same fact otherwise (domain/conflicts.ts): said once, as a disagreement. */
export function ConflictNote({ conflicts }: { conflicts: readonly Conflict[] }): JSX.Element {
  if (!conflicts.length) return "";
  return (
    <section class="notice conflict" aria-label="Sources disagree">
      <h2>Sources disagree</h2>
      {conflicts.map((c) => (
        <p>
          {Html.escapeHtml(`This signal reports the ${c.round} at ${c.says}; `)}
          <a href={`/app/signals/${c.signal.id}`} safe>
            {c.signal.title}
          </a>
          {Html.escapeHtml(
            `${c.signal.first_seen_at ? ` (${formatDay(c.signal.first_seen_at)})` : ""} reports ${c.other}. Check which is current before quoting either.`,
          )}
        </p>
      ))}
    </section>
  );
}

export function SignalView({
  signal,
  change,
  conflicts = [],
}: {
  signal: Obj;
  change?: SignalChange;
  conflicts?: readonly Conflict[];
}): JSX.Element {
  const topics = Array.isArray(signal.topics) ? (signal.topics as string[]) : [];
  return (
    <article>
      <p class="muted small">
        <a href="/app">Signals</a>
        {signal.competitor_id !== undefined ? (
          <>
            {" › "}
            <a href={`/app/competitors/${signal.competitor_id}`} safe>
              {String(signal.competitor_name ?? "Competitor")}
            </a>
          </>
        ) : (
          ""
        )}
      </p>
      <h1 safe>{String(signal.title)}</h1>
      <p class="meta">
        <Severity level={signal.severity} />
        <span safe>{signal.status === "closed" ? "Closed" : "Open"}</span>
      </p>
      {signal.summary ? (
        <p class="lead">
          <Prose text={signal.summary} />
        </p>
      ) : (
        ""
      )}
      <Facts
        rows={[
          [
            "Competitor",
            signal.competitor_id !== undefined ? (
              <a href={`/app/competitors/${signal.competitor_id}`} safe>
                {String(signal.competitor_name ?? signal.competitor_id)}
              </a>
            ) : undefined,
          ],
          ["Category", text(typeof signal.category === "string" ? label(signal.category) : undefined)],
          ["Type", text(typeof signal.type === "string" ? label(signal.type) : undefined)],
          ["First seen", signal.first_seen_at ? <Time ts={signal.first_seen_at} /> : undefined],
          ["Last seen", signal.last_seen_at ? <Time ts={signal.last_seen_at} /> : undefined],
          [
            "Confidence",
            typeof signal.confidence === "number" ? `${Math.round(signal.confidence * 100)}%` : undefined,
          ],
          ["Topics", topics.length ? Html.escapeHtml(topics.join(", ")) : undefined],
        ]}
      />
      <ConflictNote conflicts={conflicts} />
      <ChangeDiff change={change} />
      <h2>Evidence</h2>
      <EvidenceList items={signal.evidence} />
      <p class="muted small">
        API: <code safe>{`GET /api/v1/signals/${signal.id}`}</code>
      </p>
    </article>
  );
}
