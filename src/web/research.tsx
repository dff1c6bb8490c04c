// The app's research actions for admins: "Add competitor" on the competitors page and "Research now" on a
// competitor page. They run the same commands as add_competitor and research_competitor (the domain's rules,
// refusals and the weekly allowance); the competitor page shows the research state and what was found.
/** @jsxRuntime classic */
/** @jsx Html.createElement */
/** @jsxFrag Html.Fragment */
import { Elysia } from "elysia";
import { runCommand } from "../../events/command.ts";
import type { Membership } from "../auth/session.ts";
import { listCompetitors } from "../db/queries/competitors.ts";
import { researchFinished } from "../domain/battlecardGeneration.ts";
import { DomainError } from "../domain/errors.ts";
import { InvalidInput } from "../domain/validate.ts";
import { addCompetitor, requireTrackedCompetitor } from "../domain/watchlist.ts";
import { startResearch, within } from "../engine/research/runner.ts";
import type { Services } from "../services.ts";
import { AppPage, NoWorkspace } from "./appShell.tsx";
import { Csrf, Notice, Time } from "./components.tsx";
import { refusalPage } from "./errors.tsx";
import { decimalId, field, notFound, redirect } from "./http.ts";
import { Html } from "./layout.tsx";
import { formAdmin, type Member, privatePage } from "./member.ts";
import { CompetitorList } from "./recordViews.tsx";

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : {});

const DONE: Record<string, string> = {
  added: "Competitor added. Run research to fill its dossier.",
  finished: "Research finished: the dossier below shows what the site states.",
  running: "Research is running; this page shows its state. Reload in a minute.",
};

function AddCompetitorForm(p: { org: Membership; csrf: string; website: string; name: string }) {
  return (
    <form method="post" action="/app/competitors/add" class="card">
      <h3>Add competitor</h3>
      <Csrf token={p.csrf} />
      <input type="hidden" name="org" value={p.org.orgSlug} />
      <label for="add-website">Website</label>
      <input
        id="add-website"
        name="website_url"
        type="text"
        value={p.website}
        maxlength="2048"
        required
        placeholder="globex.com"
        autocomplete="off"
      />
      <label for="add-name">Name (optional)</label>
      <input id="add-name" name="name" type="text" value={p.name} maxlength="200" autocomplete="off" />
      <p class="muted small">
        Adds it to the core watchlist (bounded by the plan's core slots). Then use "Research now" on its page.
      </p>
      <button type="submit">Add competitor</button>
    </form>
  );
}

/** The competitors page: the list, and for admins the add form (with a refusal or a notice). */
export async function competitorsPage(
  s: Services,
  m: Member,
  request: Request,
  opts: { org?: Membership; error?: string; website?: string; name?: string } = {},
  status = 200,
): Promise<Response> {
  const current = opts.org ?? m.ws.current;
  if (!current) return privatePage(<NoWorkspace session={m.session} />);
  const competitors = await listCompetitors(s.database.db, current.orgId, s.config.baseUrl);
  const done = DONE[new URL(request.url).searchParams.get("done") ?? ""];
  return privatePage(
    <AppPage
      session={m.session}
      current={current}
      title="Competitors"
      section="competitors"
      switchTo="/app/competitors"
    >
      <h1>Competitors</h1>
      {done ? <Notice>{Html.escapeHtml(done)}</Notice> : ""}
      <CompetitorList competitors={competitors as Obj[]} />
      {current.role === "admin" ? (
        <>
          {opts.error ? <Notice kind="error">{Html.escapeHtml(opts.error)}</Notice> : ""}
          <AddCompetitorForm
            org={current}
            csrf={m.session.csrfToken}
            website={opts.website ?? ""}
            name={opts.name ?? ""}
          />
        </>
      ) : (
        ""
      )}
    </AppPage>,
    opts.org ? undefined : m.ws,
    status,
  );
}

/** The research state line and, for admins, the "Research now" button of a competitor page. */
export function ResearchPanel(p: { c: Obj; org: Membership; csrf: string; done?: string }): JSX.Element {
  const f = obj(p.c.freshness);
  const state = typeof f.research_state === "string" ? f.research_state : undefined;
  const done = p.done ? DONE[p.done] : undefined;
  return (
    <section class="card research" aria-label="Research">
      <h2>Research</h2>
      {done ? <Notice>{Html.escapeHtml(done)}</Notice> : ""}
      <p data-research-state={state ?? "none"}>
        {state === "running" ? (
          <>
            Research is running (started <Time ts={f.research_started_at} />
            ).
          </>
        ) : state === "finished" ? (
          <>
            Last research finished <Time ts={f.research_finished_at} />.
          </>
        ) : state === "failed" ? (
          <>
            Last research failed <Time ts={f.research_finished_at} />:{" "}
            <span safe>{String(f.research_error ?? "")}</span>
          </>
        ) : (
          "No research yet."
        )}
      </p>
      {p.org.role === "admin" && state !== "running" && p.c.website_url ? (
        <form method="post" action={`/app/competitors/${p.c.id}/research`} class="inline">
          <Csrf token={p.csrf} />
          <input type="hidden" name="org" value={p.org.orgSlug} />
          <button type="submit">Research now</button>
          <span class="muted small"> Uses one update of the weekly research allowance.</span>
        </form>
      ) : (
        ""
      )}
    </section>
  );
}

export function researchPages(s: Services) {
  async function form(request: Request, body: unknown) {
    const f = await formAdmin(s, request, body);
    if (f instanceof Response) return { response: f };
    const { m, org } = f;
    const caller = {
      orgId: org.orgId,
      actor: `user:${m.session.userId}`,
      actorName: m.session.name ?? m.session.email,
    };
    return { m, org, caller };
  }

  return new Elysia({ name: "web-research" })
    .post("/app/competitors/add", async ({ request, body, set }) => {
      const f = await form(request, body);
      if ("response" in f) return f.response;
      const website = field(body, "website_url");
      const name = field(body, "name");
      try {
        const result = await runCommand(
          s.store,
          addCompetitor,
          { website_url: website, ...(name.trim() ? { name } : {}) },
          { caller: f.caller, metadata: { request_id: set.headers["x-request-id"] as string | undefined } },
        );
        if (field(body, "back") === "start")
          return redirect(`/app/start?org=${encodeURIComponent(f.org.orgSlug)}&done=added`);
        return redirect(`/app/competitors/${result.id}?org=${encodeURIComponent(f.org.orgSlug)}&done=added`);
      } catch (e) {
        if (!(e instanceof DomainError) && !(e instanceof InvalidInput)) throw e;
        const status =
          e instanceof InvalidInput
            ? 400
            : e.code === "limit_reached"
              ? 409
              : e.code === "conflict"
                ? 409
                : 400;
        return competitorsPage(s, f.m, request, { org: f.org, error: e.message, website, name }, status);
      }
    })
    .post("/app/competitors/:id/research", async ({ request, body, params, set }) => {
      const id = decimalId(params.id) ?? notFound();
      const f = await form(request, body);
      if ("response" in f) return f.response;
      // The first-run page's research buttons come back to it.
      const page = field(body, "back") === "start" ? "/app/start" : `/app/competitors/${id}`;
      const back = (done: string) =>
        redirect(`${page}?org=${encodeURIComponent(f.org.orgSlug)}&done=${done}`);
      try {
        const comp = await requireTrackedCompetitor(s.database, f.org.orgId, id);
        const { done } = await startResearch(
          s,
          f.caller,
          researchFinished(comp.record)
            ? { kind: "one", competitor_id: id }
            : { kind: "first", competitor_id: id },
          researchFinished(comp.record) ? "app" : "research_competitor",
          {
            usesAllowance: true,
            metadata: {
              actor: f.caller.actor,
              request_id: set.headers["x-request-id"] as string | undefined,
            },
          },
        );
        const reports = await within(done, s.config.researchWaitMs);
        if (!reports) return back("running");
        return back(reports[0].status === "failed" ? "failed" : "finished");
      } catch (e) {
        if (!(e instanceof DomainError)) throw e;
        if (e.code === "not_found") notFound();
        return refusalPage(
          "Research not started",
          e.message,
          e.code === "limit_reached" ? 409 : 400,
          f.m.session.email,
        );
      }
    });
}
