// The competitor page's web-archive history: how far reading it has got ("reading history: 34 of 96 captures"), and
// the signals it found — closed ones too, newest first — each linking to the signal (docs/engine/archive.md).
/** @jsxRuntime classic */
/** @jsx Html.createElement */
/** @jsxFrag Html.Fragment */
import { type HistoryProgress, historyProgress } from "../db/archiveHistory.ts";
import { archiveSignals } from "../db/queries/archive.ts";
import type { Services } from "../services.ts";
import { Time } from "./components.tsx";
import { Html } from "./layout.tsx";

/** At most this many of history's signals are listed on the page. */
const LISTED = 50;

export async function HistoryPanel(p: {
  s: Services;
  orgId: number;
  competitorId: number;
}): Promise<JSX.Element> {
  const progress: HistoryProgress | null = await historyProgress(p.s, p.orgId, p.competitorId);
  if (!progress) return "";
  const items = await archiveSignals(p.s.database, p.orgId, p.competitorId, LISTED);
  return (
    <section class="card history" aria-label="History">
      <h2>History from the web archive</h2>
      <p data-history-state={progress.state} safe>
        {progress.text}
      </p>
      {items.length ? (
        <ol class="timeline">
          {items.map((x) => (
            <li data-status={x.status}>
              <Time ts={x.firstSeenAt} />{" "}
              <a href={`/app/signals/${x.id}`} safe>
                {x.title}
              </a>
              {x.status === "open" ? "" : <span class="muted small"> ({Html.escapeHtml(x.status)})</span>}
            </li>
          ))}
        </ol>
      ) : (
        ""
      )}
    </section>
  );
}
