// Public pages: the landing page and the pricing page (every number from the one plan table).
/** @jsxRuntime classic */
/** @jsx Html.createElement */
/** @jsxFrag Html.Fragment */
import { Elysia } from "elysia";
import { PLAN_NAMES, PLANS, type Plan } from "../domain/plans.ts";
import { labelInText } from "../domain/vocabulary.ts";
import type { Services } from "../services.ts";
import { Html, htmlResponse, Layout } from "./layout.tsx";
import { signedIn } from "./member.ts";

/** Public pages may be cached briefly by the browser; they differ only by who is signed in. */
export function publicPage(body: JSX.Element, status = 200, headers: Record<string, string> = {}): Response {
  return htmlResponse(body, status, { "cache-control": "private, max-age=60", vary: "cookie", ...headers });
}

/** The signed-in person's display name, for the header (pages work the same without one). */
export async function viewer(s: Services, request: Request): Promise<string | undefined> {
  if (!request.headers.get("cookie")) return undefined;
  const session = await signedIn(s, request);
  return session ? (session.name ?? session.email) : undefined;
}

function Landing({ user, signup }: { user?: string; signup: boolean }): JSX.Element {
  return (
    <Layout title="Competitive intelligence you can act on" user={user}>
      <section class="hero">
        <h1>Know what your competitors changed this week — with the evidence.</h1>
        <p class="lead">
          Rivals watches the companies you compete with and turns what changes — pricing, launches, hiring,
          funding, positioning — into evidence-backed signals, weekly digests and sales battlecards for your
          team.
        </p>
        <div class="cta">
          {signup ? (
            <a class="primary" href="/signup">
              Start the free trial week
            </a>
          ) : (
            ""
          )}
          <a href="/free-brief">Get a free brief on a competitor</a>
          <a href="/pricing">Compare plans</a>
        </div>
      </section>
      <section class="grid">
        <div class="card">
          <h3>Signals with sources</h3>
          <p>Every signal carries its evidence: the excerpt, the page it came from and when it was seen.</p>
        </div>
        <div class="card">
          <h3>Digests and battlecards</h3>
          <p>
            A weekly TL;DR for the team and a battlecard per competitor with strengths, weaknesses and talk
            tracks.
          </p>
        </div>
        <div class="card">
          <h3>API and agents</h3>
          <p>
            A read API for your tools and an MCP endpoint for AI assistants, with API keys or OAuth. See the{" "}
            <a href="/developers">developer reference</a>.
          </p>
        </div>
        <div class="card">
          <h3>Public library</h3>
          <p>
            Browse published <a href="/briefs">competitive briefs</a> and <a href="/guides">guides</a> on
            doing competitive intelligence well.
          </p>
        </div>
      </section>
      <p class="muted small">Rivals is self-hostable: one executable, one database file.</p>
    </Layout>
  );
}

const hours = (h: number) =>
  h % 24 === 0 ? `${h / 24} day${h === 24 ? "" : "s"} (${h} hours)` : `${h} hours`;
const cadence = (c: string) => labelInText(c);

const ROWS: [string, (p: Plan) => string][] = [
  ["Paid plan", (p) => (p.paid ? "yes" : "no")],
  ["Read API (/api/v1)", (p) => (p.readApi ? "included" : "not included")],
  ["Core competitor slots", (p) => String(p.coreSlots)],
  ["Research updates per week", (p) => String(p.weeklyResearchAllowance)],
  ["Battlecards generated per day", (p) => String(p.dailyCaps.battlecards)],
  ["ICP updates per day", (p) => String(p.dailyCaps.icpUpdates)],
  ["Positioning drafts per day", (p) => String(p.dailyCaps.positioningDrafts)],
  ["Pages read in a browser per day", (p) => String(p.dailyCaps.renders)],
  ["Share link lifetime", (p) => hours(p.shareLinkHours)],
  ["Monitoring cadences", (p) => p.cadences.map(cadence).join(", ")],
  ["Monitored pages per competitor", (p) => String(p.monitoredPagesPerCompetitor)],
  ["Member seats", (p) => String(p.memberSeats)],
];

function Pricing({ user, signup }: { user?: string; signup: boolean }): JSX.Element {
  const plans = PLAN_NAMES.map((n) => PLANS[n]);
  const paidOnly = PLANS.free.paidOnlyFeatures;
  return (
    <Layout title="Pricing" user={user}>
      <h1>Plans and limits</h1>
      <p>
        Every workspace starts with the <strong>{Html.escapeHtml(PLANS.trial.label)}</strong>: the dashboard
        with everything it shows, for 7 days. Paid plans add the read API, longer share links, faster
        monitoring and more of everything below. These are the same numbers the agent tool{" "}
        <code>get_plan_and_limits</code> reports.
      </p>
      <section class="scroll" tabindex="0" aria-label="Plans compared">
        <table class="plans">
          <thead>
            <tr>
              <th>Limit</th>
              {plans.map((p) => (
                <th id={`plan-${p.name}`} safe>
                  {p.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {ROWS.map(([label, f]) => (
              <tr>
                <th scope="row" safe>
                  {label}
                </th>
                {plans.map((p) => (
                  <td safe>{f(p)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <h2>Paid plans only</h2>
      <ul>
        {paidOnly.map((f) => (
          <li safe>{f}</li>
        ))}
      </ul>
      <p>
        On the {Html.escapeHtml(PLANS.trial.label.toLowerCase())} and the free plan, battlecards can be
        generated during the first week only.
      </p>
      <div class="cta">
        {signup ? (
          <a class="primary" href="/signup">
            Start the free trial week
          </a>
        ) : (
          ""
        )}
        <a href="/free-brief">Get a free brief first</a>
      </div>
    </Layout>
  );
}

export function publicPages(s: Services) {
  const signup = s.config.signup === "open";
  return new Elysia({ name: "web-public" })
    .get("/", async ({ request }) => publicPage(<Landing user={await viewer(s, request)} signup={signup} />))
    .get("/pricing", async ({ request }) =>
      publicPage(<Pricing user={await viewer(s, request)} signup={signup} />),
    );
}
