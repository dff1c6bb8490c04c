// What a person sees of the engine: a signal's change as a before/after word diff, and on the competitor page two
// server-rendered SVG charts (no script, no CDN; viewBox + width 100% so they scale down to a phone): signals per
// week by severity over the last 12 weeks, and each plan's monthly price over the stored pricing snapshots.
/** @jsxRuntime classic */
/** @jsx Html.createElement */
/** @jsxFrag Html.Fragment */
import { pricingSignals, signalCountsByWeek, signalValues } from "../db/queries/charts.ts";
import { formatDay } from "../domain/dates.ts";
import { formatAmount } from "../domain/money.ts";
import { SEVERITY_HIGH_FIRST, type Severity } from "../domain/records.ts";
import { withoutPlaceholders } from "../engine/compare/originals.ts";
import { wordDiff } from "../engine/compare/words.ts";
import { snapshotStoreFor } from "../engine/snapshots/index.ts";
import type { Services } from "../services.ts";
import { Html } from "./layout.tsx";

// ---- the change of a signal ----------------------------------------------------------------------------

/** Values that only say "present"/"absent" (a plan or page added or removed): nothing to diff. */
const MARKERS = new Set(["listed", "linked"]);

export interface SignalChange {
  before: string | null;
  after: string | null;
}

/** The recorded before/after values of an engine signal (undefined for imported signals). */
export async function signalChange(
  s: Services,
  orgId: number,
  signalId: number,
): Promise<SignalChange | undefined> {
  const row = await signalValues(s.database, orgId, signalId);
  if (!row) return undefined;
  // The values compared are the masked ones: a placeholder a person cannot read is left out of the view.
  const before = row.before === null ? null : withoutPlaceholders(row.before);
  const after = row.after === null ? null : withoutPlaceholders(row.after);
  return { before, after };
}

/** Before and after, each with its changed words marked (<del> removed, <ins> added). */
export function ChangeDiff({ change }: { change: SignalChange | undefined }): JSX.Element {
  if (!change) return "";
  const { before, after } = change;
  if (before === null || after === null || MARKERS.has(before) || MARKERS.has(after) || before === after)
    return "";
  const parts = wordDiff(before.slice(0, 4000), after.slice(0, 4000));
  return (
    <section class="change" aria-label="What changed">
      <h2>What changed</h2>
      <dl class="kv diff">
        <dt>Before</dt>
        <dd>
          {parts.map((p) =>
            p.op === "=" ? <span safe>{p.text}</span> : p.op === "-" ? <del safe>{p.text}</del> : "",
          )}
        </dd>
        <dt>After</dt>
        <dd>
          {parts.map((p) =>
            p.op === "=" ? <span safe>{p.text}</span> : p.op === "+" ? <ins safe>{p.text}</ins> : "",
          )}
        </dd>
      </dl>
    </section>
  );
}

// ---- signals per week by severity ----------------------------------------------------------------------

export const WEEKS = 12;
const DAY = 86_400_000;
const SEVERITIES = SEVERITY_HIGH_FIRST;
type Sev = Severity;
const COLOR: Record<Sev, string> = { high: "#b42318", medium: "#b54708", low: "#067647" };

export interface WeekCount {
  /** Monday (UTC) of the ISO week, YYYY-MM-DD. */
  week: string;
  high: number;
  medium: number;
  low: number;
}

/** Monday 00:00 UTC of the week of `d`. */
function mondayOf(d: Date): Date {
  const day = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
  const dow = (day.getUTCDay() + 6) % 7;
  return new Date(day.getTime() - dow * DAY);
}

/** Listed signals of one competitor per week (first seen) and severity, the last 12 weeks up to `now`. One
 * range read of the (org_id, competitor_id, first_seen_at) index, grouped in SQL. */
export async function signalsPerWeek(
  s: Services,
  orgId: number,
  competitorId: number,
  now: Date,
): Promise<WeekCount[]> {
  const thisWeek = mondayOf(now);
  const start = new Date(thisWeek.getTime() - (WEEKS - 1) * 7 * DAY);
  const counts = await signalCountsByWeek(s.database, orgId, competitorId, start);
  const weeks: WeekCount[] = Array.from({ length: WEEKS }, (_, i) => ({
    week: new Date(start.getTime() + i * 7 * DAY).toISOString().slice(0, 10),
    high: 0,
    medium: 0,
    low: 0,
  }));
  for (const { severity, week: w, count } of counts) {
    const sev = severity as Sev;
    if (w >= 0 && w < WEEKS && SEVERITIES.includes(sev)) weeks[w][sev] += count;
  }
  return weeks;
}

const W = 600;
const H = 220;
const PAD = { l: 36, r: 12, t: 12, b: 34 };

function niceMax(v: number): number {
  if (v <= 4) return 4;
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= v) return m * p;
  return 10 * p;
}

function shortDate(iso: string): string {
  const d = new Date(iso);
  return `${d.toLocaleString("en", { month: "short", timeZone: "UTC" })} ${d.getUTCDate()}`;
}

/** A chart's SVG: its accessible label, grid lines at 0, half and the top with their tick labels, then the
 * marks. */
function Plot({
  label,
  max,
  y,
  tick,
  children,
}: {
  label: string;
  max: number;
  y: (v: number) => number;
  tick: (v: number) => string;
  children?: JSX.Element | (JSX.Element | JSX.Element[])[];
}): JSX.Element {
  return (
    <svg
      viewBox={`0 0 ${W} ${H}`}
      width="100%"
      role="img"
      aria-label={label}
      xmlns="http://www.w3.org/2000/svg"
      font-family="system-ui,sans-serif"
      font-size="11"
    >
      <title safe>{label}</title>
      {[0, max / 2, max].map((v) => (
        <g>
          <line x1={PAD.l} x2={W - PAD.r} y1={y(v)} y2={y(v)} stroke="#d0d7de" stroke-width="1" />
          <text x={PAD.l - 6} y={y(v) + 4} text-anchor="end" fill="#57606a" safe>
            {tick(v)}
          </text>
        </g>
      ))}
      {children}
    </svg>
  );
}

export function WeeklySignalsChart({ weeks }: { weeks: WeekCount[] }): JSX.Element {
  const total = weeks.reduce((n, w) => n + w.high + w.medium + w.low, 0);
  const max = niceMax(Math.max(1, ...weeks.map((w) => w.high + w.medium + w.low)));
  const iw = W - PAD.l - PAD.r;
  const ih = H - PAD.t - PAD.b;
  const slot = iw / weeks.length;
  const bw = Math.max(4, slot * 0.7);
  const y = (v: number) => PAD.t + ih - (v / max) * ih;
  const label = `Signals per week by severity, last ${WEEKS} weeks: ${total} in all`;
  return (
    <figure class="chart">
      <Plot label={label} max={max} y={y} tick={String}>
        {weeks.map((w, i) => {
          const x = PAD.l + i * slot + (slot - bw) / 2;
          let acc = 0;
          return (
            <g>
              {SEVERITIES.map((sev) => {
                const n = w[sev];
                if (!n) return "";
                const y0 = y(acc + n);
                const h = y(acc) - y0;
                acc += n;
                return (
                  <rect
                    x={x.toFixed(1)}
                    y={y0.toFixed(1)}
                    width={bw.toFixed(1)}
                    height={h.toFixed(1)}
                    fill={COLOR[sev]}
                  >
                    <title safe>{`Week of ${formatDay(w.week)}: ${n} ${sev}`}</title>
                  </rect>
                );
              })}
              {i % 2 === 0 || weeks.length <= 6 ? (
                <text x={(x + bw / 2).toFixed(1)} y={H - PAD.b + 16} text-anchor="middle" fill="#57606a" safe>
                  {shortDate(w.week)}
                </text>
              ) : (
                ""
              )}
            </g>
          );
        })}
      </Plot>
      <figcaption class="small muted">
        {SEVERITIES.map((sev) => (
          <span class="legend">
            <svg viewBox="0 0 10 10" width="10" height="10" aria-hidden="true">
              <rect width="10" height="10" fill={COLOR[sev]} />
            </svg>{" "}
            {Html.escapeHtml(sev)}{" "}
          </span>
        ))}
        <span safe>{` · ${total} signal${total === 1 ? "" : "s"} in ${WEEKS} weeks`}</span>
      </figcaption>
    </figure>
  );
}

// ---- plan prices over time -----------------------------------------------------------------------------

export interface PriceSeries {
  plan: string;
  currency?: string;
  points: { at: string; price: number }[];
  /** The first stored version of the page that no longer lists the plan (the table no longer shows it). */
  endedAt?: string;
}

/** Each plan's monthly price at every stored version of the pricing page (at most the kept versions). */
export async function planPriceHistory(
  s: Services,
  orgId: number,
  competitorId: number,
  pricingUrl: string,
): Promise<PriceSeries[]> {
  const versions = await snapshotStoreFor(s).latest({ orgId, competitorId, url: pricingUrl, kind: "page" });
  const byPlan = new Map<string, PriceSeries>();
  for (const v of [...versions].reverse()) {
    const listed = new Set<string>();
    for (const p of v.snapshot.plans ?? []) {
      if (typeof p.price !== "number") continue;
      listed.add(p.name);
      let series = byPlan.get(p.name);
      if (!series) {
        series = { plan: p.name, currency: p.currency, points: [] };
        byPlan.set(p.name, series);
      }
      // A plan listed again after a gap starts again there.
      delete series.endedAt;
      series.points.push({ at: v.observedAt, price: p.price });
    }
    for (const series of byPlan.values()) if (!listed.has(series.plan)) series.endedAt ??= v.observedAt;
  }
  return [...byPlan.values()];
}

/** A pricing signal on the price chart's time axis: the change the line shows, as the signal words it. */
export interface PriceMark {
  at: string;
  title: string;
}

const LINE_COLORS = ["#0b5cad", "#b42318", "#067647", "#b54708", "#6e40c9", "#1b7c83", "#57606a", "#bf3989"];

export function PriceChart({
  series,
  marks = [],
  now,
}: {
  series: PriceSeries[];
  marks?: PriceMark[];
  now: Date;
}): JSX.Element {
  if (!series.length)
    return <p class="muted small">No priced plans in the stored pricing page versions yet.</p>;
  // The axis reaches back to the oldest pricing signal (imported history included), so each is on its day.
  const times = [
    ...series.flatMap((x) => x.points.map((p) => Date.parse(p.at))),
    ...marks.map((m) => Date.parse(m.at)).filter(Number.isFinite),
  ];
  const t0 = Math.min(...times);
  const t1 = Math.max(now.getTime(), ...times);
  const span = Math.max(DAY, t1 - t0);
  const max = niceMax(Math.max(1, ...series.flatMap((x) => x.points.map((p) => p.price))) * 1.1);
  const iw = W - PAD.l - PAD.r - 90;
  const ih = H - PAD.t - PAD.b;
  const x = (t: number) => PAD.l + 8 + ((t - t0) / span) * iw;
  const y = (v: number) => PAD.t + ih - (v / max) * ih;
  const currency = series[0].currency;
  const label = `Plan prices per month over time: ${series
    .map(
      (s0) =>
        `${s0.plan} ${formatAmount(s0.points[s0.points.length - 1].price, s0.currency)}${s0.endedAt ? " until it was no longer listed" : ""}`,
    )
    .join(", ")}`;
  return (
    <figure class="chart">
      <Plot label={label} max={max} y={y} tick={(v) => formatAmount(v, currency)}>
        <text x={PAD.l + 8} y={H - PAD.b + 16} fill="#57606a" safe>
          {shortDate(new Date(t0).toISOString())}
        </text>
        <text x={PAD.l + 8 + iw} y={H - PAD.b + 16} text-anchor="end" fill="#57606a" safe>
          {shortDate(new Date(t1).toISOString())}
        </text>
        {marks.map((m) => {
          const mx = x(Date.parse(m.at)).toFixed(1);
          return (
            <g>
              <line x1={mx} x2={mx} y1={PAD.t} y2={PAD.t + ih} stroke="#8c959f" stroke-dasharray="2 3" />
              <path d={`M${mx} ${PAD.t + ih - 7} l5 7 h-10 z`} fill="#57606a">
                <title safe>{`${formatDay(m.at)}: ${m.title}`}</title>
              </path>
            </g>
          );
        })}
        {series.map((s0, i) => {
          const color = LINE_COLORS[i % LINE_COLORS.length];
          // A step line: a price holds until the next version that changes it, and up to now.
          const pts: string[] = [];
          s0.points.forEach((p, j) => {
            const px = x(Date.parse(p.at));
            if (j > 0) pts.push(`${px.toFixed(1)},${y(s0.points[j - 1].price).toFixed(1)}`);
            pts.push(`${px.toFixed(1)},${y(p.price).toFixed(1)}`);
          });
          const last = s0.points[s0.points.length - 1];
          // A plan the page no longer lists ends there, as it has left the table.
          const end = s0.endedAt ? Date.parse(s0.endedAt) : t1;
          pts.push(`${x(end).toFixed(1)},${y(last.price).toFixed(1)}`);
          return (
            <g>
              <polyline points={pts.join(" ")} fill="none" stroke={color} stroke-width="2" />
              {s0.points.map((p) => (
                <circle cx={x(Date.parse(p.at)).toFixed(1)} cy={y(p.price).toFixed(1)} r="3" fill={color}>
                  <title
                    safe
                  >{`${s0.plan}: ${formatAmount(p.price, s0.currency)}/month from ${formatDay(p.at)}`}</title>
                </circle>
              ))}
              {s0.endedAt ? (
                ""
              ) : (
                <text x={(x(t1) + 6).toFixed(1)} y={(y(last.price) + 4).toFixed(1)} fill={color} safe>
                  {`${s0.plan} ${formatAmount(last.price, s0.currency)}`}
                </text>
              )}
            </g>
          );
        })}
      </Plot>
      <figcaption class="small muted">
        {`Monthly price of each plan, from the stored versions of the pricing page${
          marks.length ? "; each ▲ is a pricing signal on the day it was first seen" : ""
        }.`}
      </figcaption>
    </figure>
  );
}

/** The competitor page's engine panel: both charts. */
export async function CompetitorCharts({
  s,
  orgId,
  competitor,
}: {
  s: Services;
  orgId: number;
  competitor: Record<string, unknown>;
}): Promise<JSX.Element> {
  const id = Number(competitor.id);
  const now = s.clock();
  const urls = (competitor.urls ?? {}) as Record<string, unknown>;
  // The page the price table was read from (research and every cycle keep it), else the page research named.
  const reads = (competitor.reads ?? {}) as { pricing?: { page?: unknown; plans?: unknown } };
  const read = typeof reads.pricing?.page === "string" ? reads.pricing.page : undefined;
  const pricing = read ?? (typeof urls.pricing === "string" ? urls.pricing : undefined);
  const [weeks, prices, marks] = await Promise.all([
    signalsPerWeek(s, orgId, id, now),
    pricing ? planPriceHistory(s, orgId, id, pricing) : Promise.resolve([]),
    pricing ? pricingSignals(s.database, orgId, id) : Promise.resolve([]),
  ]);
  // The series in the price table's order (the page's); plans it no longer lists after them.
  const order = (Array.isArray(reads.pricing?.plans) ? reads.pricing.plans : []).map((p) =>
    String((p as { name?: unknown }).name ?? "").toLowerCase(),
  );
  const rank = (plan: string) => {
    const i = order.indexOf(plan.toLowerCase());
    return i < 0 ? order.length : i;
  };
  prices.sort((a, b) => rank(a.plan) - rank(b.plan));
  return (
    <section class="charts" aria-label="Activity">
      <h2>Signals per week</h2>
      <WeeklySignalsChart weeks={weeks} />
      {pricing ? (
        <>
          <h2>Plan prices over time</h2>
          <PriceChart series={prices} marks={marks} now={now} />
        </>
      ) : (
        ""
      )}
    </section>
  );
}
