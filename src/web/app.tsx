// The app for signed-in members: the signal feed and the pages the API's `url` fields point at
// (/app/competitors/{id}, /app/signals/{id}, /app/digests/{slug or id}, /app/battlecards/{id}), plus the
// lists that lead to them. Reads go through src/db/queries, scoped to one of the member's workspaces.
/** @jsxRuntime classic */
/** @jsx Html.createElement */
/** @jsxFrag Html.Fragment */
import { Elysia } from "elysia";
import { getBattlecard, listBattlecards } from "../db/queries/battlecards.ts";
import { getCompetitor, listCompetitors } from "../db/queries/competitors.ts";
import { getDigest, listDigests } from "../db/queries/digests.ts";
import { getSignal, getSignals, listSignals } from "../db/queries/signals.ts";
import { SEVERITY } from "../domain/records.ts";
import { firstChars, searchText, withoutControls } from "../domain/searchText.ts";
import type { Services } from "../services.ts";
import { AppPage, NoWorkspace } from "./appShell.tsx";
import { CompetitorCharts, signalChange } from "./charts.tsx";
import { Notice, Pager } from "./components.tsx";
import { DemoPanel } from "./demo.tsx";
import { decimalId, notFound, pageNumber } from "./http.ts";
import { Html } from "./layout.tsx";
import { type Member, member, privatePage } from "./member.ts";
import { MonitoringPanel } from "./monitoring.tsx";
import { BattlecardRow, BattlecardView, CompetitorView, DigestRow, DigestView } from "./recordViews.tsx";
import { competitorsPage, ResearchPanel } from "./research.tsx";
import { type FeedFilter, FeedFilters, SignalCard, SignalView } from "./signalViews.tsx";
import { findInWorkspaces } from "./workspace.ts";

type Obj = Record<string, unknown>;
export const FEED_PAGE_SIZE = 20;
const DIGEST_PAGE_SIZE = 20;

const qs = (params: Record<string, string | number | undefined>) => {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== "") u.set(k, String(v));
  const s = u.toString();
  return s ? `?${s}` : "";
};

export function appPages(s: Services) {
  const db = s.database.db;
  const base = s.config.baseUrl;

  /** A record page: found in one of the member's workspaces, else 404 (another workspace's ids too). */
  async function recordPage<T>(
    request: Request,
    load: (orgId: number) => Promise<T | undefined>,
    render: (m: Member, found: { record: T; orgId: number }) => Promise<JSX.Element> | JSX.Element,
  ): Promise<Response> {
    const m = await member(s, request);
    if (m instanceof Response) return m;
    const found = await findInWorkspaces(m.session, m.ws.current, load);
    if (!found) notFound();
    const shown = { ...m, ws: { ...m.ws, current: found.membership } };
    return privatePage(await render(shown, { record: found.record, orgId: found.membership.orgId }), m.ws);
  }

  return new Elysia({ name: "web-app" })
    .get("/app", async ({ request }) => {
      const m = await member(s, request);
      if (m instanceof Response) return m;
      const current = m.ws.current;
      if (!current) return privatePage(<NoWorkspace session={m.session} />);
      const sp = new URL(request.url).searchParams;
      const severity = sp.get("severity") ?? "";
      const filter: FeedFilter = {
        competitorId: decimalId(sp.get("competitor")),
        severity: (SEVERITY as readonly string[]).includes(severity) ? severity : undefined,
        q: firstChars((sp.get("q") ?? "").trim(), 200) || undefined,
      };
      // The search rule (domain/searchText.ts): text with control characters is refused, with a notice.
      const checked = filter.q === undefined ? undefined : searchText(filter.q);
      const refused = checked?.ok === false ? `The search words ${checked.reason}.` : undefined;
      const page = pageNumber(sp.get("page"));
      const [competitors, rows] = await Promise.all([
        listCompetitors(db, current.orgId, base),
        checked?.ok === false
          ? []
          : listSignals(
              db,
              current.orgId,
              {
                competitorId: filter.competitorId,
                severity: filter.severity,
                q: checked?.text,
                limit: FEED_PAGE_SIZE + 1,
                offset: (page - 1) * FEED_PAGE_SIZE,
              },
              base,
            ),
      ]);
      // The refused text is shown back with each control character as U+FFFD (HTML cannot carry them).
      if (refused) filter.q = withoutControls(filter.q ?? "");
      const signals = rows.slice(0, FEED_PAGE_SIZE);
      const href = (p: number) =>
        `/app${qs({ org: current.orgSlug, competitor: filter.competitorId, severity: filter.severity, q: filter.q, page: p > 1 ? p : undefined })}`;
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
          <p class="muted">Open signals of the competitors you track, newest first.</p>
          <FeedFilters competitors={competitors as Obj[]} filter={filter} orgSlug={current.orgSlug} />
          {refused ? <Notice kind="error">{refused}</Notice> : ""}
          {refused ? (
            ""
          ) : signals.length ? (
            signals.map((x) => <SignalCard signal={x as Obj} />)
          ) : (
            <p class="muted">{page > 1 ? "No more signals." : "No open signals match."}</p>
          )}
          <Pager page={page} hasNext={rows.length > FEED_PAGE_SIZE} href={href} />
        </AppPage>,
        m.ws,
        refused ? 400 : 200,
      );
    })
    .get("/app/signals/:id", ({ request, params }) => {
      const id = decimalId(params.id) ?? notFound();
      return recordPage(
        request,
        (orgId) => getSignal(db, orgId, id, base),
        async (m, { record, orgId }) => (
          <AppPage session={m.session} current={m.ws.current} title={String(record.title)} section="feed">
            <SignalView signal={record as Obj} change={await signalChange(s, orgId, id)} />
          </AppPage>
        ),
      );
    })
    .get("/app/competitors", async ({ request }) => {
      const m = await member(s, request);
      if (m instanceof Response) return m;
      return competitorsPage(s, m, request);
    })
    .get("/app/competitors/:id", ({ request, params }) => {
      const id = decimalId(params.id) ?? notFound();
      return recordPage(
        request,
        (orgId) => getCompetitor(db, orgId, id, base),
        async (m, { record, orgId }) => {
          const signals = await listSignals(db, orgId, { competitorId: id, limit: 20, offset: 0 }, base);
          const charts = await CompetitorCharts({ s, orgId, competitor: record as Obj });
          return (
            <AppPage
              session={m.session}
              current={m.ws.current}
              title={String(record.name)}
              section="competitors"
            >
              <ResearchPanel
                c={record as Obj}
                org={m.ws.current!}
                csrf={m.session.csrfToken}
                done={new URL(request.url).searchParams.get("done") ?? undefined}
              />
              <MonitoringPanel c={record as Obj} />
              <CompetitorView c={record as Obj} signals={signals as Obj[]} />
              {charts}
            </AppPage>
          );
        },
      );
    })
    .get("/app/digests", async ({ request }) => {
      const m = await member(s, request);
      if (m instanceof Response) return m;
      const current = m.ws.current;
      if (!current) return privatePage(<NoWorkspace session={m.session} />);
      const page = pageNumber(new URL(request.url).searchParams.get("page"));
      const rows = await listDigests(
        db,
        current.orgId,
        { limit: DIGEST_PAGE_SIZE + 1, offset: (page - 1) * DIGEST_PAGE_SIZE },
        base,
      );
      return privatePage(
        <AppPage
          session={m.session}
          current={current}
          title="Digests"
          section="digests"
          switchTo="/app/digests"
        >
          <h1>Digests</h1>
          {rows.length ? (
            rows.slice(0, DIGEST_PAGE_SIZE).map((d) => <DigestRow d={d as Obj} />)
          ) : (
            <p class="muted">No digests yet.</p>
          )}
          <Pager
            page={page}
            hasNext={rows.length > DIGEST_PAGE_SIZE}
            href={(p) => `/app/digests${qs({ org: current.orgSlug, page: p > 1 ? p : undefined })}`}
          />
        </AppPage>,
        m.ws,
      );
    })
    .get("/app/digests/:id", ({ request, params }) => {
      const key = String(params.id);
      if (key.length > 200) notFound();
      return recordPage(
        request,
        (orgId) => getDigest(db, orgId, key, base),
        async (m, { record, orgId }) => {
          const ids = Array.isArray(record.signal_ids) ? (record.signal_ids as number[]) : [];
          const found = await getSignals(db, orgId, ids, base);
          const byId = new Map(found.map((x) => [x.id, x]));
          const signals = ids.map((i) => byId.get(i)).filter((x): x is Obj => x !== undefined);
          return (
            <AppPage
              session={m.session}
              current={m.ws.current}
              title={String(record.title ?? record.headline ?? "Digest")}
              section="digests"
            >
              <DigestView d={record as Obj} signals={signals} />
            </AppPage>
          );
        },
      );
    })
    .get("/app/battlecards", async ({ request }) => {
      const m = await member(s, request);
      if (m instanceof Response) return m;
      const current = m.ws.current;
      if (!current) return privatePage(<NoWorkspace session={m.session} />);
      const cards = await listBattlecards(db, current.orgId, base);
      return privatePage(
        <AppPage
          session={m.session}
          current={current}
          title="Battlecards"
          section="battlecards"
          switchTo="/app/battlecards"
        >
          <h1>Battlecards</h1>
          {cards.length ? (
            <div class="scroll">
              <table>
                <thead>
                  <tr>
                    <th>Competitor</th>
                    <th>Generated</th>
                  </tr>
                </thead>
                <tbody>
                  {cards.map((b) => (
                    <BattlecardRow b={b as Obj} />
                  ))}
                </tbody>
              </table>
            </div>
          ) : (
            <p class="muted">No battlecards yet.</p>
          )}
        </AppPage>,
        m.ws,
      );
    })
    .get("/app/battlecards/:id", ({ request, params }) => {
      const id = decimalId(params.id) ?? notFound();
      return recordPage(
        request,
        (orgId) => getBattlecard(db, orgId, id, base),
        (m, { record }) => (
          <AppPage
            session={m.session}
            current={m.ws.current}
            title={`Battlecard: ${record.competitor_name ?? record.competitor_id}`}
            section="battlecards"
          >
            <BattlecardView b={record as Obj} />
          </AppPage>
        ),
      );
    });
}
