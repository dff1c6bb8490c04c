// The app for signed-in members: the signal feed and the pages the API's `url` fields point at
// (/app/competitors/{id}, /app/signals/{id}, /app/digests/{slug or id}, /app/battlecards/{id}), plus the
// lists that lead to them. Reads go through src/db/queries, scoped to one of the member's workspaces.
/** @jsxRuntime classic */
/** @jsx Html.createElement */
/** @jsxFrag Html.Fragment */

import { Elysia } from "elysia";
import {
  battlecardProposal,
  getBattlecard,
  listBattlecards,
  pendingProposals,
} from "../db/queries/battlecards.ts";
import { previousVersion } from "../db/queries/battlecardVersions.ts";
import { getCompetitor } from "../db/queries/competitors.ts";
import { fundingSignals } from "../db/queries/conflicts.ts";
import { getDigest, listDigests } from "../db/queries/digests.ts";
import { hiringTrend, lastCheckedAt, timeline, watchedSources } from "../db/queries/dossier.ts";
import { notesPage, signalEngagement } from "../db/queries/engagement.ts";
import { competitorIcon, hasIcon } from "../db/queries/icons.ts";
import { getSignal, getSignals } from "../db/queries/signals.ts";
import { conflictsOf } from "../domain/conflicts.ts";
import { firstChars } from "../domain/searchText.ts";
import type { Services } from "../services.ts";
import { AppPage, NoWorkspace } from "./appShell.tsx";
import { battlecardMarkdown, PAGE_SCRIPT } from "./battlecardExtras.tsx";
import { CompetitorCharts, signalChange } from "./charts.tsx";
import { Pager } from "./components.tsx";
import { HistoryPanel } from "./history.tsx";
import { decimalId, notFound, pageNumber } from "./http.ts";
import { Html } from "./layout.tsx";
import { type Member, member, privatePage } from "./member.ts";
import { MonitoringPanel } from "./monitoring.tsx";
import {
  type BattlecardExtras,
  BattlecardRow,
  BattlecardView,
  CompetitorView,
  DigestRow,
  DigestView,
} from "./recordViews.tsx";
import { competitorsPage, ResearchPanel } from "./research.tsx";
import { SignalEngagementPanel } from "./signalActions.tsx";
import { SignalView } from "./signalViews.tsx";
import { findInWorkspaces } from "./workspace.ts";

type Obj = Record<string, unknown>;
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
    /** Answers with something other than a page (a download); default: the page. */
    respond?: (body: string, record: T) => Response,
  ): Promise<Response> {
    const m = await member(s, request);
    if (m instanceof Response) return m;
    const found = await findInWorkspaces(m.session, m.ws.current, load);
    if (!found) notFound();
    const shown = { ...m, ws: { ...m.ws, current: found.membership } };
    const body = await render(shown, { record: found.record, orgId: found.membership.orgId });
    return respond ? respond(String(body), found.record) : privatePage(body, m.ws);
  }

  /** A battlecard's notes (the competitor's battlecard notes), previous version and Markdown. */
  async function battlecardExtras(orgId: number, b: Obj, m: Member): Promise<BattlecardExtras> {
    const [notes, previous, proposal] = await Promise.all([
      notesPage(s.database, orgId, "battlecard", Number(b.competitor_id)),
      previousVersion(s.database, orgId, Number(b.id), b),
      battlecardProposal(db, orgId, Number(b.id)),
    ]);
    return {
      org: m.ws.current?.orgSlug ?? "",
      csrf: m.session.csrfToken,
      notes: notes.notes,
      notesTotal: notes.notes_total,
      previous,
      markdown: battlecardMarkdown(b, notes.notes, base),
      ...(proposal ? { proposal } : {}),
    };
  }

  /** The other open signals that report this signal's fact otherwise (a funding round's amount). */
  async function signalConflicts(orgId: number, id: number, record: Obj) {
    const cid = typeof record.competitor_id === "number" ? record.competitor_id : undefined;
    if (record.type !== "funding" || cid === undefined) return [];
    const others = (await fundingSignals(s.database, orgId, [cid])).get(cid) ?? [];
    return conflictsOf({ id, title: String(record.title), summary: String(record.summary ?? "") }, others);
  }

  return (
    new Elysia({ name: "web-app" })
      .get("/app/signals/:id", ({ request, params }) => {
        const id = decimalId(params.id) ?? notFound();
        return recordPage(
          request,
          (orgId) => getSignal(db, orgId, id, base),
          async (m, { record, orgId }) => (
            <AppPage session={m.session} current={m.ws.current} title={String(record.title)} section="feed">
              <SignalView
                signal={record as Obj}
                change={await signalChange(s, orgId, id)}
                conflicts={await signalConflicts(orgId, id, record as Obj)}
              />
              <SignalEngagementPanel
                id={id}
                e={await signalEngagement(s.database, orgId, id, `user:${m.session.userId}`, s.clock())}
                csrf={m.session.csrfToken}
                org={m.ws.current!.orgSlug}
              />
            </AppPage>
          ),
        );
      })
      .get("/app/competitors", async ({ request }) => {
        const m = await member(s, request);
        if (m instanceof Response) return m;
        return competitorsPage(s, m, request);
      })
      // The competitor's icon as research stored it: the member's own workspaces only, a sandboxing policy and
      // no sniffing (an SVG cannot run anything on our origin).
      .get("/app/competitors/:id/icon", async ({ request, params }) => {
        const id = decimalId(params.id) ?? notFound();
        const m = await member(s, request);
        if (m instanceof Response) return m;
        const found = await findInWorkspaces(m.session, m.ws.current, (orgId) =>
          competitorIcon(s.database, orgId, id),
        );
        if (!found) notFound();
        return new Response(new Blob([found.record.data as Uint8Array<ArrayBuffer>]), {
          headers: {
            "content-type": found.record.contentType,
            "cache-control": "private, max-age=86400",
            "x-content-type-options": "nosniff",
            "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox",
          },
        });
      })
      .get("/app/competitors/:id", ({ request, params }) => {
        const id = decimalId(params.id) ?? notFound();
        return recordPage(
          request,
          (orgId) => getCompetitor(db, orgId, id, base),
          async (m, { record, orgId }) => {
            const tcat =
              firstChars((new URL(request.url).searchParams.get("tcat") ?? "").trim(), 100) || undefined;
            const [charts, checkedAt, trendSignal, signals, icon, sources] = await Promise.all([
              CompetitorCharts({ s, orgId, competitor: record as Obj }),
              lastCheckedAt(s.database, orgId, id),
              hiringTrend(s.database, orgId, id),
              timeline(s.database, orgId, id, tcat, base),
              hasIcon(s.database, orgId, id),
              watchedSources(s.database, orgId, id),
            ]);
            const x = {
              now: s.clock(),
              org: m.ws.current!.orgSlug,
              checkedAt,
              ...(icon
                ? { iconUrl: `/app/competitors/${id}/icon?org=${encodeURIComponent(m.ws.current!.orgSlug)}` }
                : {}),
              trendSignal,
              timeline: signals,
              tcat,
            };
            return (
              <AppPage
                session={m.session}
                current={m.ws.current}
                title={String(record.name)}
                section="competitors"
              >
                <CompetitorView c={record as Obj} x={x}>
                  <ResearchPanel
                    c={record as Obj}
                    org={m.ws.current!}
                    csrf={m.session.csrfToken}
                    done={new URL(request.url).searchParams.get("done") ?? undefined}
                  />
                  {await HistoryPanel({ s, orgId, competitorId: id })}
                  <MonitoringPanel c={record as Obj} sources={sources} />
                </CompetitorView>
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
        const [cards, proposals] = await Promise.all([
          listBattlecards(db, current.orgId, base),
          pendingProposals(db, current.orgId),
        ]);
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
                      <th>Proposed update</th>
                    </tr>
                  </thead>
                  <tbody>
                    {cards.map((b) => (
                      <BattlecardRow b={b as Obj} proposedAt={proposals.get(Number(b.id))} />
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
      .get(
        "/assets/page.js",
        () =>
          new Response(PAGE_SCRIPT, {
            headers: {
              "content-type": "text/javascript; charset=utf-8",
              "cache-control": "public, max-age=3600",
              "x-content-type-options": "nosniff",
            },
          }),
      )
      .get("/app/battlecards/:id/markdown", ({ request, params }) => {
        const id = decimalId(params.id) ?? notFound();
        return recordPage(
          request,
          (orgId) => getBattlecard(db, orgId, id, base),
          async (m, { record, orgId }) => (await battlecardExtras(orgId, record as Obj, m)).markdown,
          (markdown, record) =>
            new Response(markdown, {
              headers: {
                "content-type": "text/markdown; charset=utf-8",
                "content-disposition": `attachment; filename="battlecard-${record.id}.md"`,
                "cache-control": "no-store",
                "x-content-type-options": "nosniff",
              },
            }),
        );
      })
      .get("/app/battlecards/:id", ({ request, params }) => {
        const id = decimalId(params.id) ?? notFound();
        return recordPage(
          request,
          (orgId) => getBattlecard(db, orgId, id, base),
          async (m, { record, orgId }) => (
            <AppPage
              session={m.session}
              current={m.ws.current}
              title={`Battlecard: ${record.competitor_name ?? record.competitor_id}`}
              section="battlecards"
            >
              <BattlecardView b={record as Obj} extras={await battlecardExtras(orgId, record as Obj, m)} />
            </AppPage>
          ),
        );
      })
  );
}
