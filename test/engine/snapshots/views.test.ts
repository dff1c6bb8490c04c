// What a person sees of the engine, over HTTP with a signed-in browser, after real cycles on the fixture web
// (v1 baseline, v2 planted changes): the signal page shows the change as a before/after word diff with the
// changed words marked and each evidence item with its source; the competitor page shows two server-rendered
// SVG charts (viewBox, width 100%, no script): signals per week by severity over 12 weeks, and each plan's price
// over the stored versions of the pricing page.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { handle } from "../../../events/command.ts";
import { type FixtureWeb, startFixtureWeb } from "../../../fixtures/web/server.ts";
import { addCompetitor } from "../../../src/domain/watchlist.ts";
import { runCycle } from "../../../src/engine/cycle/run.ts";
import { researchIdle, startResearch } from "../../../src/engine/research/runner.ts";
import { planPriceHistory, signalsPerWeek } from "../../../src/web/charts.tsx";
import { startTestServer, type TestServer } from "../../support/helpers.ts";
import { type Browser, member, signedIn } from "../../support/oauth-helpers.ts";

setDefaultTimeout(90_000);

let web: FixtureWeb;
let t: TestServer;
let admin: Browser;
let orgId: number;
const ids: Record<string, number> = {};

async function signalId(type: string, competitorId: number): Promise<number> {
  const r = await t.services.database.client.execute({
    sql: "SELECT id FROM engine_signals WHERE org_id = ? AND competitor_id = ? AND type = ?",
    args: [orgId, competitorId, type],
  });
  expect(r.rows.length).toBe(1);
  return Number(r.rows[0].id);
}

beforeAll(async () => {
  web = startFixtureWeb({ version: 1 });
  t = await startTestServer({ RIVALS_FETCH_REWRITE: web.rewrite, RIVALS_FETCH_DELAY_MS: "0" });
  orgId = (await t.org("acme")).id;
  admin = await signedIn(t, await member(t, "acme", "admin"));
  for (const site of ["globex.example", "brightloop.example"]) {
    const { result } = await t.services.store.execute(
      (w) => handle(addCompetitor, w, { orgId, actor: "operator" }, { website_url: `https://${site}` }),
      { actor: "operator" },
    );
    ids[site] = result.id;
  }
  const { done } = await startResearch(
    t.services,
    { orgId, actor: "operator" },
    { kind: "watchlist" },
    "operator",
    { usesAllowance: false },
  );
  await done;
  await runCycle(t.services, orgId, { trigger: "operator" });
  web.setVersion(2);
  t.clock.advance(3 * 86_400_000);
  const sum = await runCycle(t.services, orgId, { trigger: "operator" });
  expect(sum.signals_created).toBeGreaterThan(5);
});
afterAll(async () => {
  await researchIdle(t.services);
  await t.close();
  await web.stop();
});

test("a price change: before and after with the changed words marked, and the evidence with its source", async () => {
  const id = await signalId("price_increase", ids["globex.example"]);
  const html = await (await admin.request(`/app/signals/${id}?org=acme`)).text();
  expect(html).toContain("What changed");
  const diff = html.slice(
    html.indexOf('<dl class="kv diff">'),
    html.indexOf("</dl>", html.indexOf('<dl class="kv diff">')),
  );
  expect(diff).toMatch(
    /<dt>Before<\/dt><dd><span>\$<\/span><del>59<\/del><span> per seat\/month<\/span><\/dd>/,
  );
  expect(diff).toMatch(
    /<dt>After<\/dt><dd><span>\$<\/span><ins>69<\/ins><span> per seat\/month<\/span><\/dd>/,
  );
  expect(diff).not.toContain("<ins>59");
  // The evidence item, with a link to its source page.
  expect(html).toContain("Team: $59 per seat/month → $69 per seat/month");
  expect(html).toContain('href="https://globex.example/pricing"');
  expect(html).not.toContain("<script");
});

test("a headline change: only the changed words are marked", async () => {
  const id = await signalId("messaging_change", ids["brightloop.example"]);
  const html = await (await admin.request(`/app/signals/${id}?org=acme`)).text();
  expect(html).toContain("<del>See exactly where users struggle</del>");
  expect(html).toMatch(/<ins>Fix the bugs that cost you revenue, before customers notice<\/ins>/);
  expect(html).toContain('href="https://brightloop.example/"');
});

test("a plan removed has no before/after (nothing to diff), its evidence still shows", async () => {
  const id = await signalId("free_tier_change", ids["brightloop.example"]);
  const html = await (await admin.request(`/app/signals/${id}?org=acme`)).text();
  expect(html).not.toContain("What changed");
  expect(html).toContain("Removed: Free");
});

test("the competitor page: signals per week by severity and plan prices over time, as inline SVG", async () => {
  const g = ids["globex.example"];
  const html = await (await admin.request(`/app/competitors/${g}?org=acme`)).text();
  const svgs = html.match(/<svg viewBox="0 0 600 220" width="100%"[^>]*>/g) ?? [];
  expect(svgs.length).toBe(2);
  // The charts are inline SVG: no script draws them (the page's one script only filters lists).
  const charts = html.slice(html.indexOf('<section class="charts"'));
  expect(charts).not.toContain("<script");
  expect(html.match(/<script[^>]*>/g) ?? []).toEqual(['<script src="/assets/page.js" defer>']);
  // Globex's v2: price increase + packaging (high), VP role (high), Snowflake partnership (medium), globex-js
  // v4.3.0 with release notes (medium), the globex-legacy npm package deprecated (medium), a new public
  // repository under its GitHub organisation (low).
  const weeks = await signalsPerWeek(t.services, orgId, g, t.clock.now);
  expect(weeks.length).toBe(12);
  const last = weeks[11];
  expect({ high: last.high, medium: last.medium, low: last.low }).toEqual({ high: 3, medium: 3, low: 1 });
  expect(weeks.slice(0, 11).every((w) => w.high + w.medium + w.low === 0)).toBe(true);
  expect(html).toContain("Signals per week by severity, last 12 weeks: 7 in all");
  expect(html).toMatch(/<title>Week of \d{1,2} [A-Z][a-z]{2} \d{4}: \d+ high<\/title>/);
  // Prices from the two stored versions of the pricing page: Team $59 then $69, Free $0 throughout.
  const prices = await planPriceHistory(t.services, orgId, g, "https://globex.example/pricing");
  const team = prices.find((p) => p.plan === "Team")!;
  expect(team.points.map((p) => p.price)).toEqual([59, 69]);
  expect(html).toContain("Team $69");
  expect(html).toMatch(/<title>Team: \$59\/month from \d{1,2} [A-Z][a-z]{2} \d{4}<\/title>/);
  // The weekly query reads the competitor's signals through its index.
  const plan = await t.services.database.client.execute({
    sql: `EXPLAIN QUERY PLAN SELECT severity, COUNT(*) FROM signals INDEXED BY signals_by_competitor
          WHERE org_id = ? AND competitor_id = ? AND listed = 1 AND first_seen_at >= ? GROUP BY severity`,
    args: [orgId, g, "2026-01-01"],
  });
  expect(plan.rows.map((r) => String(r.detail)).join(" ")).toContain("signals_by_competitor");
});

test("the competitor page marks the plan its last price change touched, linked to the signal", async () => {
  const g = ids["globex.example"];
  const html = await (await admin.request(`/app/competitors/${g}?org=acme`)).text();
  const table = html.slice(
    html.indexOf('<table class="stack pricing-table">'),
    html.indexOf("</table>", html.indexOf("pricing-table")),
  );
  const rows = table.split("<tr>").slice(2);
  const team = rows.find((r) => r.includes("<span>Team</span>")) ?? "";
  expect(team).toContain('class="small plan-change"');
  expect(team).toMatch(/<a href="[^"]*\/app\/signals\/\d+">Globex raises Team plan price from \$59 to \$69/);
  // A plan no pricing signal names carries no marker.
  const free = rows.find((r) => r.includes("<span>Free</span>")) ?? "";
  expect(free).not.toContain("plan-change");
});
