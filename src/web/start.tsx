// /app/start: a new workspace's first run, one page of steps — the company profile (with a positioning draft read
// from the company's own website), the ideal customer profile, the competitors to track, their research with its
// progress, and what happens next (monitoring cycles, digests, delivery). The forms run the tools' commands:
// updateCompanyProfile (update_company_profile), draftPositioning (draft_positioning), updateIcp (update_icp); the
// competitor forms post to the competitors page's actions (add_competitor, research_competitor) and come back here.
/** @jsxRuntime classic */
/** @jsx Html.createElement */
/** @jsxFrag Html.Fragment */
import { Elysia } from "elysia";
import { runCommand } from "../../events/command.ts";
import type { Membership } from "../auth/session.ts";
import { researchStates } from "../db/queries/dossier.ts";
import { type ProfileInput, updateCompanyProfile } from "../domain/companyProfile.ts";
import { deliveryView } from "../domain/delivery.ts";
import { DomainError } from "../domain/errors.ts";
import { updateIcp } from "../domain/icp.ts";
import { effectiveCadence, planOf } from "../domain/plans.ts";
import { InvalidInput } from "../domain/validate.ts";
import { labelInText } from "../domain/vocabulary.ts";
import { loadSettings } from "../domain/workspace.ts";
import { draftPositioning } from "../engine/research/positioning.ts";
import { slotOf } from "../engine/schedule/slots.ts";
import { mailConfigured } from "../mail/mailer.ts";
import type { Services } from "../services.ts";
import { AppPage, NoWorkspace } from "./appShell.tsx";
import { Csrf, Notice, Time } from "./components.tsx";
import { field, redirect } from "./http.ts";
import { Html } from "./layout.tsx";
import { formAdmin, type Member, member, privatePage } from "./member.ts";

const PATH = "/app/start";
const DONE: Record<string, string> = {
  profile: "Company profile saved.",
  icp: "Ideal customer profile saved.",
  drafted: "Positioning drafted from your website: review it below and change what is not right.",
  nothing: "Nothing to draft: your positioning lists are already filled.",
  added: "Competitor added. Research it below.",
  running: "Research is running: the list below follows it.",
  finished: "Research finished.",
  failed: "Research failed: the reason is below.",
};

/** One entry a line (lists in a textarea). */
const linesOf = (v: string) =>
  v
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);

function Step(p: {
  n: number;
  title: string;
  done: boolean;
  children?: JSX.Element | JSX.Element[] | string;
}) {
  return (
    <section class={`card step${p.done ? " done" : ""}`} aria-labelledby={`step-${p.n}`}>
      <h2 id={`step-${p.n}`}>
        <span class="badge">{p.done ? "Done" : `Step ${p.n}`}</span> {Html.escapeHtml(p.title)}
      </h2>
      {p.children as "safe"}
    </section>
  );
}

function Hidden({ org, csrf }: { org: Membership; csrf: string }) {
  return (
    <>
      <Csrf token={csrf} />
      <input type="hidden" name="org" value={org.orgSlug} />
    </>
  );
}

async function startPage(
  s: Services,
  m: Member,
  org: Membership,
  opts: { notice?: string; error?: string },
  status = 200,
): Promise<Response> {
  const [st, competitors] = await Promise.all([
    loadSettings(s.database, org.orgId),
    researchStates(s.database, org.orgId),
  ]);
  const p = st.profile;
  const admin = org.role === "admin";
  const csrf = m.session.csrfToken;
  const profileDone = Boolean(p.description || p.value_propositions?.length);
  const icpDone = Boolean(st.icp.industries?.length || st.icp.buyer_roles?.length);
  const states = competitors.map((c) => String(c.freshness.research_state ?? "none"));
  const running = states.filter((x) => x === "running").length;
  const finished = states.filter((x) => x === "finished").length;
  const cadence = effectiveCadence(planOf(st.plan), st.cadence);
  // The channels in effect, by the rule the settings page, the tools and delivery itself use.
  const delivery = deliveryView(st, mailConfigured(s.config));
  const now = s.clock();
  const slot = slotOf(cadence, now);
  const nextSlot = new Date(slot.start.getTime() + slot.periodMs).toISOString();
  const ta = (v: string[] | undefined) => (v ?? []).join("\n");
  return privatePage(
    <AppPage session={m.session} current={org} title="Get started" section="" switchTo={PATH}>
      <h1>Get started</h1>
      <p class="lead">
        Five steps to a watched market: who you are, who you sell to, who you compete with, what their sites
        say, and what Rivals does from then on.
      </p>
      {opts.notice ? <Notice>{Html.escapeHtml(opts.notice)}</Notice> : ""}
      {opts.error ? <Notice kind="error">{Html.escapeHtml(opts.error)}</Notice> : ""}
      {admin ? (
        ""
      ) : (
        <Notice>Only admins can change these settings; this page shows where the workspace stands.</Notice>
      )}

      <Step n={1} title="Your company" done={profileDone}>
        <p class="muted small">
          Battlecards and the overlap with your ideal customers read this profile. The positioning lists can
          be drafted from your own website (
          {st.websiteUrl ? <span safe>{st.websiteUrl}</span> : "set when the workspace was made"}
          ), then edited.
        </p>
        {admin && st.websiteUrl ? (
          <form method="post" action={`${PATH}/draft`} class="inline">
            <Hidden org={org} csrf={csrf} />
            <button type="submit" class="secondary">
              Draft positioning from our website
            </button>
          </form>
        ) : (
          ""
        )}
        <form method="post" action={`${PATH}/profile`} class="stack">
          <Hidden org={org} csrf={csrf} />
          <label for="p-description">What your company does</label>
          <textarea id="p-description" name="description" rows="2" maxlength="2000" disabled={!admin} safe>
            {p.description ?? ""}
          </textarea>
          <label for="p-category">Category</label>
          <input id="p-category" name="category" value={p.category ?? ""} maxlength="200" disabled={!admin} />
          <label for="p-target">Target customer</label>
          <input
            id="p-target"
            name="target_customer"
            value={p.target_customer ?? ""}
            maxlength="500"
            disabled={!admin}
          />
          <label for="p-vp">Value propositions (one a line)</label>
          <textarea id="p-vp" name="value_propositions" rows="3" disabled={!admin} safe>
            {ta(p.value_propositions)}
          </textarea>
          <label for="p-diff">Differentiators (one a line)</label>
          <textarea id="p-diff" name="differentiators" rows="3" disabled={!admin} safe>
            {ta(p.differentiators)}
          </textarea>
          {admin ? <button type="submit">Save the profile</button> : ""}
        </form>
      </Step>

      <Step n={2} title="Your ideal customers" done={icpDone}>
        <p class="muted small">Each competitor's overlap with them is worked out when you save.</p>
        <form method="post" action={`${PATH}/icp`} class="stack">
          <Hidden org={org} csrf={csrf} />
          <label for="icp-industries">Industries (one a line)</label>
          <textarea id="icp-industries" name="industries" rows="3" disabled={!admin} safe>
            {ta(st.icp.industries)}
          </textarea>
          <label for="icp-roles">Buyer roles (one a line)</label>
          <textarea id="icp-roles" name="buyer_roles" rows="3" disabled={!admin} safe>
            {ta(st.icp.buyer_roles)}
          </textarea>
          {admin ? <button type="submit">Save the ideal customer profile</button> : ""}
        </form>
      </Step>

      <Step n={3} title="Competitors to track" done={competitors.length > 0}>
        {admin ? (
          <form method="post" action="/app/competitors/add" class="stack">
            <Hidden org={org} csrf={csrf} />
            <input type="hidden" name="back" value="start" />
            <label for="c-website">A competitor's website</label>
            <input
              id="c-website"
              name="website_url"
              maxlength="2048"
              required
              placeholder="globex.com"
              autocomplete="off"
            />
            <label for="c-name">Name (optional)</label>
            <input id="c-name" name="name" maxlength="200" autocomplete="off" />
            <button type="submit">Add competitor</button>
          </form>
        ) : (
          ""
        )}
        <p class="muted small">
          {Html.escapeHtml(
            competitors.length
              ? `${competitors.length} tracked. Add the ones your sales team meets most.`
              : "None yet. Add the ones your sales team meets most.",
          )}
        </p>
      </Step>

      <Step n={4} title="Research" done={competitors.length > 0 && finished === competitors.length}>
        <p class="muted small">
          Research reads each competitor's site — pages, feeds, job board, releases — into its dossier. A run
          takes up to a minute; this page follows it.
        </p>
        {competitors.length ? (
          <ul class="progress" aria-live="polite" data-refresh={running ? "5" : undefined}>
            {competitors.map((c, i) => {
              const f = c.freshness;
              const state = states[i];
              return (
                <li data-state={state}>
                  <a href={`/app/competitors/${c.id}`} safe>
                    {c.name}
                  </a>
                  {" — "}
                  {state === "running" ? (
                    <span>
                      researching since <Time ts={f.research_started_at} />
                    </span>
                  ) : state === "finished" ? (
                    <span>
                      researched <Time ts={f.research_finished_at} />
                    </span>
                  ) : state === "failed" ? (
                    <span class="error" safe>{`research failed: ${String(f.research_error ?? "")}`}</span>
                  ) : (
                    <span>not researched yet</span>
                  )}
                  {admin && state !== "running" && state !== "finished" && c.website_url ? (
                    <form method="post" action={`/app/competitors/${c.id}/research`} class="inline">
                      <Hidden org={org} csrf={csrf} />
                      <input type="hidden" name="back" value="start" />{" "}
                      <button type="submit" class="secondary small" aria-label={`Research now: ${c.name}`}>
                        Research now
                      </button>
                    </form>
                  ) : (
                    ""
                  )}
                </li>
              );
            })}
          </ul>
        ) : (
          <p class="muted">Add a competitor first.</p>
        )}
        {running ? (
          <p class="muted small">
            {Html.escapeHtml(
              `${running} running: this page reloads every few seconds (or reload it yourself).`,
            )}
          </p>
        ) : (
          ""
        )}
      </Step>

      <Step n={5} title="What happens next" done={false}>
        <ul>
          <li>
            Monitoring cycles check every researched competitor's sources{" "}
            <strong safe>{labelInText(cadence)}</strong>; the next slot begins <Time ts={nextSlot} />. Changes
            they find become signals in the <a href="/app">feed</a>.
          </li>
          <li>
            {cadence === "weekly" ? "This week's TL;DR" : "Today's digest"} is written as soon as a cycle
            finds a material change, and completed once the {cadence === "weekly" ? "week" : "day"} is over,
            in <a href="/app/digests">Digests</a>.
          </li>
          <li>
            Digests are delivered by{" "}
            <span safe>
              {[delivery.email ? "email" : "", delivery.slack ? "team chat" : ""]
                .filter(Boolean)
                .join(" and ") || "no channel yet"}
            </span>
            : change the channels and the cadence in{" "}
            <a href="/app/settings/monitoring">Monitoring settings</a>.
          </li>
          <li>
            <a href="/app/compare">Compare</a> puts the researched competitors side by side.
          </li>
        </ul>
      </Step>
      <script src="/assets/page.js" defer></script>
    </AppPage>,
    m.ws,
    status,
  );
}

export function startPages(s: Services) {
  /** Runs one change for an admin of the workspace the form names; a refusal re-renders the page with it. */
  async function change(
    request: Request,
    body: unknown,
    run: (org: Membership, actor: string) => Promise<string>,
  ) {
    const f = await formAdmin(s, request, body, "set up the workspace");
    if (f instanceof Response) return f;
    const actor = `user:${f.m.session.userId}`;
    try {
      const done = await run(f.org, actor);
      return redirect(`${PATH}?org=${encodeURIComponent(f.org.orgSlug)}&done=${done}`);
    } catch (e) {
      if (!(e instanceof InvalidInput) && !(e instanceof DomainError)) throw e;
      return startPage(
        s,
        f.m,
        f.org,
        { error: `Not saved: ${e.message}` },
        e instanceof InvalidInput ? 400 : 409,
      );
    }
  }

  return new Elysia({ name: "web-start" })
    .get(PATH, async ({ request }) => {
      const m = await member(s, request);
      if (m instanceof Response) return m;
      if (!m.ws.current) return privatePage(<NoWorkspace session={m.session} />);
      return startPage(s, m, m.ws.current, {
        notice: DONE[new URL(request.url).searchParams.get("done") ?? ""],
      });
    })
    .post(`${PATH}/profile`, ({ request, body }) =>
      change(request, body, async (org, actor) => {
        const input: ProfileInput = {
          description: field(body, "description").trim(),
          category: field(body, "category").trim(),
          target_customer: field(body, "target_customer").trim(),
          value_propositions: linesOf(field(body, "value_propositions")),
          differentiators: linesOf(field(body, "differentiators")),
        };
        await runCommand(s.store, updateCompanyProfile, input, {
          caller: { orgId: org.orgId, actor },
          metadata: { source: "web" },
        });
        return "profile";
      }),
    )
    .post(`${PATH}/icp`, ({ request, body }) =>
      change(request, body, async (org, actor) => {
        await runCommand(
          s.store,
          updateIcp,
          {
            industries: linesOf(field(body, "industries")),
            buyer_roles: linesOf(field(body, "buyer_roles")),
          },
          { caller: { orgId: org.orgId, actor }, metadata: { source: "web" } },
        );
        return "icp";
      }),
    )
    .post(`${PATH}/draft`, ({ request, body }) =>
      change(request, body, async (org, actor) => {
        const r = await draftPositioning(s, {
          caller: { orgId: org.orgId, actor },
          metadata: { source: "web" },
        });
        return r.filled.length ? "drafted" : "nothing";
      }),
    );
}
