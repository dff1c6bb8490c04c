// The signal feed (/app): filters by competitor, category, type, severity, date and words (or the reader's
// saved list), the team's pinned signals on top, and on each card the team's actions — pin, save, rate, note —
// as plain forms that call the same domain commands as the MCP tools (domain/engagement.ts).
/** @jsxRuntime classic */
/** @jsx Html.createElement */
/** @jsxFrag Html.Fragment */
import { Elysia } from "elysia";
import { listCompetitors } from "../db/queries/competitors.ts";
import { fundingSignals } from "../db/queries/conflicts.ts";
import { type CardEngagement, cardEngagement, pinnedSignals, signalFacets } from "../db/queries/feed.ts";
import { listSignals } from "../db/queries/signals.ts";
import { type Conflict, conflictsOf } from "../domain/conflicts.ts";
import { SEVERITY, SEVERITY_HIGH_FIRST } from "../domain/records.ts";
import { firstChars, searchText, withoutControls } from "../domain/searchText.ts";
import { label } from "../domain/vocabulary.ts";
import type { Services } from "../services.ts";
import { AppPage, NoWorkspace } from "./appShell.tsx";
import { Csrf, Notice, Pager, Prose, Severity, Time } from "./components.tsx";
import { DemoPanel } from "./demo.tsx";
import { decimalId, pageNumber } from "./http.ts";
import { Html } from "./layout.tsx";
import { member, privatePage } from "./member.ts";

type Obj = Record<string, unknown>;
export const FEED_PAGE_SIZE = 20;

export interface FeedFilter {
  competitorId?: number;
  severity?: string;
  category?: string;
  type?: string;
  /** Calendar days, YYYY-MM-DD, both inclusive. */
  from?: string;
  to?: string;
  q?: string;
  saved?: boolean;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const day = (v: string | null) =>
  v && DAY.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) ? v : undefined;
const nextDay = (d: string) => new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000).toISOString();
const filterValue = (v: string | null) => {
  const t = firstChars((v ?? "").trim(), 100);
  return t || undefined;
};

export function feedQuery(orgSlug: string, f: FeedFilter, page?: number): string {
  const u = new URLSearchParams({ org: orgSlug });
  const put = (k: string, v: string | number | undefined) => {
    if (v !== undefined && v !== "") u.set(k, String(v));
  };
  put("competitor", f.competitorId);
  put("category", f.category);
  put("type", f.type);
  put("severity", f.severity);
  put("from", f.from);
  put("to", f.to);
  put("q", f.q);
  if (f.saved) u.set("saved", "1");
  if (page && page > 1) u.set("page", String(page));
  return `/app?${u}`;
}

function Select(p: {
  id: string;
  name: string;
  text: string;
  any: string;
  value?: string;
  options: [string, string][];
}) {
  return (
    <div>
      <label for={p.id}>{Html.escapeHtml(p.text)}</label>
      <select id={p.id} name={p.name}>
        <option value="">{Html.escapeHtml(p.any)}</option>
        {p.options.map(([v, l]) => (
          <option value={v} selected={v === p.value} safe>
            {l}
          </option>
        ))}
      </select>
    </div>
  );
}

export function FeedFilters(p: {
  competitors: Obj[];
  facets: { categories: string[]; types: string[] };
  filter: FeedFilter;
  orgSlug: string;
}): JSX.Element {
  const f = p.filter;
  const any = Object.entries(f).some(([, v]) => v !== undefined && v !== false && v !== "");
  return (
    <form method="get" action="/app" class="filters" aria-label="Filter signals">
      <input type="hidden" name="org" value={p.orgSlug} />
      <Select
        id="f-competitor"
        name="competitor"
        text="Competitor"
        any="All competitors"
        value={f.competitorId === undefined ? undefined : String(f.competitorId)}
        options={p.competitors.map((c) => [String(c.id), String(c.name)])}
      />
      <Select
        id="f-category"
        name="category"
        text="Category"
        any="Any category"
        value={f.category}
        options={p.facets.categories.map((c) => [c, label(c)])}
      />
      <Select
        id="f-type"
        name="type"
        text="Type"
        any="Any type"
        value={f.type}
        options={p.facets.types.map((c) => [c, label(c)])}
      />
      <Select
        id="f-severity"
        name="severity"
        text="Severity"
        any="Any severity"
        value={f.severity}
        options={SEVERITY_HIGH_FIRST.map((v) => [v, v])}
      />
      <div>
        <label for="f-from">From</label>
        <input id="f-from" type="date" name="from" value={f.from ?? ""} />
      </div>
      <div>
        <label for="f-to">To</label>
        <input id="f-to" type="date" name="to" value={f.to ?? ""} />
      </div>
      <div>
        <label for="f-q">Words</label>
        <input id="f-q" type="search" name="q" value={f.q ?? ""} maxlength="200" />
      </div>
      <div>
        <label class="check" for="f-saved">
          <input id="f-saved" type="checkbox" name="saved" value="1" checked={f.saved === true} /> Saved by me
        </label>
      </div>
      <div class="actions">
        <button type="submit">Filter</button>
        {any ? <a href={`/app?org=${encodeURIComponent(p.orgSlug)}`}>Clear</a> : ""}
      </div>
    </form>
  );
}

/** A one-button form posting one engagement change, back to the page it was pressed on. */
function Action(p: {
  id: unknown;
  what: "pin" | "save" | "rate";
  field: string;
  value: string;
  text: string;
  label: string;
  pressed: boolean;
  csrf: string;
  org: string;
  back: string;
}): JSX.Element {
  return (
    <form method="post" action={`/app/signals/${p.id}/${p.what}`} class="inline">
      <Csrf token={p.csrf} />
      <input type="hidden" name="org" value={p.org} />
      <input type="hidden" name="back" value={p.back} />
      <input type="hidden" name={p.field} value={p.value} />
      <button
        type="submit"
        class="secondary small"
        aria-label={p.label}
        aria-pressed={p.pressed ? "true" : "false"}
      >
        {Html.escapeHtml(p.text)}
      </button>
    </form>
  );
}

export function SignalActions(p: {
  signal: Obj;
  e: CardEngagement;
  csrf: string;
  org: string;
  back: string;
}): JSX.Element {
  const { signal, e } = p;
  const title = String(signal.title);
  const common = { id: signal.id, csrf: p.csrf, org: p.org, back: p.back };
  const notes = e.notes ? `${e.notes} note${e.notes === 1 ? "" : "s"}` : "Add a note";
  return (
    <div class="actions signal-actions">
      <Action
        {...common}
        what="pin"
        field="pinned"
        value={e.pinned ? "0" : "1"}
        text={e.pinned ? "Pinned" : "Pin"}
        label={`${e.pinned ? "Pinned" : "Pin"} for the team: ${title}`}
        pressed={e.pinned}
      />
      <Action
        {...common}
        what="save"
        field="saved"
        value={e.saved ? "0" : "1"}
        text={e.saved ? "Saved" : "Save"}
        label={`${e.saved ? "Saved" : "Save"} for me: ${title}`}
        pressed={e.saved}
      />
      <Action
        {...common}
        what="rate"
        field="useful"
        value="1"
        text="Useful"
        label={`Useful: ${title}`}
        pressed={e.useful === true}
      />
      <Action
        {...common}
        what="rate"
        field="useful"
        value="0"
        text="Not useful"
        label={`Not useful: ${title}`}
        pressed={e.useful === false}
      />
      <a href={`/app/signals/${signal.id}#notes`} aria-label={`${notes}: ${title}`}>
        {Html.escapeHtml(notes)}
      </a>
    </div>
  );
}

export function FeedCard(p: {
  signal: Obj;
  conflicts?: readonly Conflict[];
  e: CardEngagement;
  csrf: string;
  org: string;
  back: string;
}): JSX.Element {
  const s = p.signal;
  const evidence = Array.isArray(s.evidence) ? s.evidence.length : 0;
  return (
    <article class={`card signal${p.e.pinned ? " pinned" : ""}`} aria-labelledby={`sig-${s.id}`}>
      <h3 id={`sig-${s.id}`}>
        <a href={`/app/signals/${s.id}`} safe>
          {String(s.title)}
        </a>
      </h3>
      <div class="meta muted small">
        <Severity level={s.severity} />
        {s.competitor_id !== undefined ? (
          <a href={`/app/competitors/${s.competitor_id}`} safe>
            {String(s.competitor_name ?? `Competitor ${s.competitor_id}`)}
          </a>
        ) : (
          ""
        )}
        {typeof s.category === "string" ? <span safe>{label(s.category)}</span> : ""}
        {typeof s.type === "string" ? <span safe>{label(s.type)}</span> : ""}
        {s.first_seen_at ? <Time ts={s.first_seen_at} /> : ""}
        {s.status === "closed" ? <span>closed</span> : ""}
        <span>{Html.escapeHtml(`${evidence} source${evidence === 1 ? "" : "s"}`)}</span>
        {p.e.pinned ? <span class="badge">Pinned</span> : ""}
      </div>
      {s.summary ? (
        <p>
          <Prose text={s.summary} />
        </p>
      ) : (
        ""
      )}
      {(p.conflicts ?? []).map((c) => (
        <p class="conflict small">
          <strong>Sources disagree:</strong>{" "}
          <a href={`/app/signals/${c.signal.id}`} safe>
            {c.signal.title}
          </a>
          {Html.escapeHtml(` reports the ${c.round} at ${c.other}, this one at ${c.says}.`)}
        </p>
      ))}
      <SignalActions {...p} />
    </article>
  );
}

export function feedPages(s: Services) {
  const db = s.database.db;
  const client = s.database;
  const base = s.config.baseUrl;

  return new Elysia({ name: "web-feed" }).get("/app", async ({ request }) => {
    const m = await member(s, request);
    if (m instanceof Response) return m;
    const current = m.ws.current;
    if (!current) return privatePage(<NoWorkspace session={m.session} />);
    const actor = `user:${m.session.userId}`;
    const url = new URL(request.url);
    const sp = url.searchParams;
    const severity = sp.get("severity") ?? "";
    const filter: FeedFilter = {
      competitorId: decimalId(sp.get("competitor")),
      severity: (SEVERITY as readonly string[]).includes(severity) ? severity : undefined,
      category: filterValue(sp.get("category")),
      type: filterValue(sp.get("type")),
      from: day(sp.get("from")),
      to: day(sp.get("to")),
      q: firstChars((sp.get("q") ?? "").trim(), 200) || undefined,
      saved: sp.get("saved") === "1" || undefined,
    };
    // The search rule (domain/searchText.ts): text with control characters is refused, with a notice.
    const checked = filter.q === undefined ? undefined : searchText(filter.q);
    const refused = checked?.ok === false ? `The search words ${checked.reason}.` : undefined;
    const page = pageNumber(sp.get("page"));
    const [competitors, facets, pinned, rows] = await Promise.all([
      listCompetitors(db, current.orgId, base),
      signalFacets(db, client, current.orgId),
      page === 1 ? pinnedSignals(client, current.orgId, base) : Promise.resolve([]),
      checked?.ok === false
        ? []
        : listSignals(
            db,
            current.orgId,
            {
              competitorId: filter.competitorId,
              severity: filter.severity,
              category: filter.category,
              type: filter.type,
              since: filter.from ? `${filter.from}T00:00:00.000Z` : undefined,
              until: filter.to ? nextDay(filter.to) : undefined,
              q: checked?.text,
              savedBy: filter.saved ? actor : undefined,
              limit: FEED_PAGE_SIZE + 1,
              offset: (page - 1) * FEED_PAGE_SIZE,
            },
            base,
          ),
    ]);
    // The refused text is shown back with each control character as U+FFFD (HTML cannot carry them).
    if (refused) filter.q = withoutControls(filter.q ?? "");
    const signals = rows.slice(0, FEED_PAGE_SIZE);
    const engagement = await cardEngagement(
      client,
      current.orgId,
      [...new Set([...pinned, ...signals].map((x) => Number(x.id)))],
      actor,
    );
    // A funding round reported twice with two amounts is said to disagree on both cards.
    const funded = [...pinned, ...signals].filter(
      (x) => x.type === "funding" && typeof x.competitor_id === "number",
    );
    const rounds = await fundingSignals(
      client,
      current.orgId,
      funded.map((x) => Number(x.competitor_id)),
    );
    const back = `${url.pathname}${url.search}`;
    const card = (x: Obj) => (
      <FeedCard
        signal={x}
        conflicts={
          x.type === "funding"
            ? conflictsOf(
                { id: Number(x.id), title: String(x.title), summary: String(x.summary ?? "") },
                rounds.get(Number(x.competitor_id)) ?? [],
              )
            : []
        }
        e={engagement.get(Number(x.id)) ?? { pinned: false, saved: false, notes: 0 }}
        csrf={m.session.csrfToken}
        org={current.orgSlug}
        back={back}
      />
    );
    const demo = await DemoPanel({
      s,
      org: current,
      csrf: m.session.csrfToken,
      done: sp.get("done") ?? undefined,
    });
    return privatePage(
      <AppPage session={m.session} current={current} title="Signals" section="feed" switchTo="/app">
        <h1>Signals</h1>
        {demo}
        {competitors.length === 0 ? (
          <p class="notice" role="status">
            New here? <a href={`/app/start?org=${encodeURIComponent(current.orgSlug)}`}>Get started</a>: your
            profile, your customers, the competitors to track and their research, step by step.
          </p>
        ) : (
          ""
        )}
        {pinned.length ? (
          <section class="pinned" aria-labelledby="pinned-h">
            <h2 id="pinned-h">Pinned for the team</h2>
            {pinned.map(card)}
          </section>
        ) : (
          ""
        )}
        <h2 class="feed-h">{filter.saved ? "Your saved signals" : "Open signals"}</h2>
        <p class="muted">Open signals of the competitors you track, newest first.</p>
        <FeedFilters
          competitors={competitors as Obj[]}
          facets={facets}
          filter={filter}
          orgSlug={current.orgSlug}
        />
        {refused ? <Notice kind="error">{refused}</Notice> : ""}
        {refused ? (
          ""
        ) : signals.length ? (
          <section aria-label="Signals" class="feed">
            {signals.map(card)}
          </section>
        ) : (
          <p class="muted">{page > 1 ? "No more signals." : "No open signals match."}</p>
        )}
        <Pager
          page={page}
          hasNext={rows.length > FEED_PAGE_SIZE}
          href={(p) => feedQuery(current.orgSlug, filter, p)}
        />
      </AppPage>,
      m.ws,
      refused ? 400 : 200,
    );
  });
}
