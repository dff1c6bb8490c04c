// The competitor page's web-archive history: how far reading it has got ("reading history: 34 of 96 captures"), and
// the signals it found — closed ones too, newest first — each linking to the signal (docs/engine/archive.md).
/** @jsxRuntime classic */
/** @jsx Html.createElement */
/** @jsxFrag Html.Fragment */
import { type HistoryProgress, historyProgress } from "../engine/archive/state.ts";
import type { Services } from "../services.ts";
import { Time } from "./components.tsx";
import { Html } from "./layout.tsx";

/** At most this many of history's signals are listed on the page. */
const LISTED = 50;

interface Found {
  id: number;
  title: string;
  status: string;
  severity: string | null;
  firstSeenAt: string;
}

async function found(s: Services, orgId: number, competitorId: number): Promise<Found[]> {
  const r = await s.database.client.execute({
    sql: `SELECT g.id, g.title, g.status, g.severity, g.first_seen_at FROM archive_signals a
          JOIN signals g ON g.id = a.signal_id AND g.org_id = a.org_id
          WHERE a.org_id = ? AND a.competitor_id = ? AND g.visible = 1
          ORDER BY g.first_seen_at DESC, g.id DESC LIMIT ?`,
    args: [orgId, competitorId, LISTED],
  });
  return r.rows.map((x) => ({
    id: Number(x.id),
    title: String(x.title),
    status: String(x.status),
    severity: x.severity === null ? null : String(x.severity),
    firstSeenAt: String(x.first_seen_at),
  }));
}

export async function HistoryPanel(p: {
  s: Services;
  orgId: number;
  competitorId: number;
}): Promise<JSX.Element> {
  const progress: HistoryProgress | null = await historyProgress(p.s, p.orgId, p.competitorId);
  if (!progress) return "";
  const items = await found(p.s, p.orgId, p.competitorId);
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
