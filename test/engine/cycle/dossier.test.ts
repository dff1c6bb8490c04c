// The dossier is the competitor as it is now: after each cycle of the fixture web (v1, v2 with its planted
// changes, v3 with noise only) the REST dossier, get_competitor, the compare CSV and the competitor page hold
// what the newest version of each pricing page offers (fixtures/web/offered.ts: plans in the page's order,
// prices as billed with their period and monthly equivalent, the yearly alternative, the features of each plan),
// and the integrations, open roles and positioning the pages state; `freshness` says when the state and the
// signals last moved. Research at v3 (whose pages reorder their cards) keeps the order already known.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { OFFERED_PRICING, type OfferedPlan } from "../../../fixtures/web/offered.ts";
import { type FixtureWeb, resolveFixture, startFixtureWeb } from "../../../fixtures/web/server.ts";
import { formatAmount } from "../../../src/domain/money.ts";
import { runCycle } from "../../../src/engine/cycle/run.ts";
import { extractPage } from "../../../src/engine/extract/page.ts";
import { positioningOf } from "../../../src/engine/extract/profile.ts";
import { researchIdle, startResearch } from "../../../src/engine/research/runner.ts";
import { changelogEntries } from "../../../src/engine/sources/releases.ts";
import { researchSites } from "../../support/fixture-workspace.ts";
import { startTestServer, type TestServer } from "../../support/helpers.ts";
import { body, mcpClient } from "../../support/mcp-helpers.ts";
import { rest } from "../../support/mcp-write-helpers.ts";
import { type Browser, member, signedIn } from "../../support/oauth-helpers.ts";

setDefaultTimeout(120_000);

type Obj = Record<string, any>;
const SITES = [...OFFERED_PRICING.map((o) => o.site), "kestrel.example"];

let web: FixtureWeb;
let t: TestServer;
let key: string;
let mcp: Client;
let browser: Browser;
let orgId: number;
const ids = new Map<string, number>();
let researchedCadence: { last_release_at: string } | undefined;

/** The page of `url` as the fixture web serves it at `version`. */
function pageAt(url: string, version: number) {
  const u = new URL(url);
  const r = resolveFixture(u.hostname, u.pathname, version);
  return extractPage(new TextDecoder().decode(r.body!), url);
}

/** An offered plan (a month in `price`, the yearly figure in `amount`) in the read's named fields. */
function asRead(o: OfferedPlan): Obj {
  const out: Obj = { name: o.name };
  if (o.custom) out.custom = true;
  if (o.starting) out.starting = true;
  // A custom tier states no price (the read prunes empty values).
  if (o.price === null) return out;
  if (o.period === "year") {
    const yearly = o.amount ?? Math.round(o.price * 12 * 100) / 100;
    Object.assign(out, { price: yearly, amount: yearly, monthly_equivalent: o.price });
  } else Object.assign(out, { price: o.price, amount: o.price });
  if (o.period) out.period = o.period;
  if (o.annual) out.annual = { amount: o.annual.amount, period: "year", monthly_equivalent: o.annual.price };
  return out;
}

const priceFields = (p: Obj) =>
  Object.fromEntries(
    ["name", "price", "amount", "period", "monthly_equivalent", "custom", "starting", "annual"]
      .filter((k) => p[k] !== undefined)
      .map((k) => [k, p[k]]),
  );

const FACTS = [
  "description",
  "category",
  "industry",
  "business_model",
  "company_type",
  "company_size",
  "founding_year",
  "headquarters",
  "target_customer",
  "ownership",
];

/** Every competitor's company facts and technologies as REST serves them. */
async function facts(): Promise<Record<string, Obj>> {
  const out: Record<string, Obj> = {};
  for (const [site, id] of ids) {
    const d = (await rest(t, key, `/api/v1/competitors/${id}`)).json.data;
    out[site] = Object.fromEntries(FACTS.filter((f) => d[f] !== undefined).map((f) => [f, d[f]]));
    // The technologies the pages show (no planted change touches them).
    out[site].tech = (d.reads.tech_stack?.technologies ?? []).map((x: Obj) => `${x.name} (${x.page})`).sort();
  }
  return out;
}
let factsAtV1: Record<string, Obj> = {};
let fundingAtV1: Obj | undefined;
let factsAtV2: Record<string, Obj> = {};

async function cycle(): Promise<Obj> {
  t.clock.advance(3_600_000);
  return (await runCycle(t.services, orgId, { trigger: "operator" })) as Obj;
}

/** The plan names and prices of the competitor page's pricing table, in its order. */
function pageTable(html: string): { name: string; price: string }[] {
  const table = html.slice(html.indexOf('class="stack pricing-table"'));
  const rows = table.slice(0, table.indexOf("</table>")).split("<tr>").slice(2);
  return rows.map((r) => {
    const cell = r.slice(r.indexOf('data-label="Price"'));
    return {
      name: /data-label="Plan">\s*<span>([^<]*)<\/span>/.exec(r)?.[1] ?? "",
      price:
        (/<strong>([^<]*)<\/strong>/.exec(cell) ?? /<span class="badge">([^<]*)<\/span>/.exec(cell))?.[1] ??
        "",
    };
  });
}

/** Every surface holds the plans `version` of each pricing page offers. */
async function expectPricingAt(version: 1 | 2 | 3) {
  const csv = await (await browser.request("/app/compare.csv")).text();
  for (const o of OFFERED_PRICING) {
    const id = ids.get(o.site)!;
    const offered = o.versions[version];
    const d = (await rest(t, key, `/api/v1/competitors/${id}`)).json.data;
    const pricing = d.reads.pricing;
    const where = `${o.site} v${version}`;
    expect({ where, plans: pricing.plans.map(priceFields) }).toEqual({ where, plans: offered.map(asRead) });
    expect(pricing.page).toBe(o.url);
    expect(pricing.free_tier).toBe(offered.some((p) => p.price === 0));
    // Each plan's features are those the page lists under it now (the order within a card is no change).
    const page = pageAt(o.url, version);
    for (const p of pricing.plans) {
      const onPage = page.plans.find((x) => x.name === p.name)!;
      expect({ where, plan: p.name, features: [...(p.features ?? [])].sort() }).toEqual({
        where,
        plan: p.name,
        features: [...onPage.features].sort(),
      });
    }
    // get_competitor serves the same read.
    const tool = body(await mcp.callTool({ name: "get_competitor", arguments: { competitor_id: id } }));
    expect(tool.competitor?.reads?.pricing ?? tool.reads?.pricing).toEqual(pricing);
    // The compare CSV: the plans in order, the free tier.
    const line = csv.split("\r\n").find((l) => l.startsWith(`"${d.name}"`))!;
    expect(line).toContain(`"${offered.length}: ${offered.map((p) => p.name).join(", ")}"`);
    // The competitor page's table: the plans in order, each at its price as billed.
    const html = await (await browser.request(`/app/competitors/${id}`)).text();
    expect({ where, table: pageTable(html) }).toEqual({
      where,
      table: offered.map((p, i) => ({
        name: p.name,
        price: p.custom
          ? "Custom"
          : p.price === 0
            ? "Free"
            : formatAmount(asRead(p).amount, pricing.plans[i].currency),
      })),
    });
  }
}

beforeAll(async () => {
  web = startFixtureWeb({ version: 1 });
  t = await startTestServer({ RIVALS_FETCH_REWRITE: web.rewrite, RIVALS_FETCH_DELAY_MS: "0" });
  orgId = (await t.org("acme", "growth")).id;
  key = await t.key("acme");
  mcp = await mcpClient(t.base, key);
  browser = await signedIn(t, await member(t, "acme"));
  for (const [site, id] of await researchSites(t.services, orgId, SITES)) ids.set(site, id);
});

afterAll(async () => {
  await researchIdle(t.services);
  await t.close();
  await web.stop();
});

describe("the dossier after each cycle of the fixture web", () => {
  test("v1: research's read, plans in the page's order with named price fields", async () => {
    await cycle();
    await expectPricingAt(1);
    factsAtV1 = await facts();
    fundingAtV1 = (await rest(t, key, `/api/v1/competitors/${ids.get("brightloop.example")}`)).json.data.reads
      .funding;
    expect(Object.keys(factsAtV1["globex.example"]!).length).toBeGreaterThan(3);
    const quantive = (await rest(t, key, `/api/v1/competitors/${ids.get("quantive.example")}`)).json.data;
    // An annual-only plan: billed 24,000 a year, 2,000 a month its equivalent — never 2,000 "a year".
    expect(priceFields(quantive.reads.pricing.plans[0])).toEqual({
      name: "Team",
      price: 24000,
      amount: 24000,
      period: "year",
      monthly_equivalent: 2000,
    });
  });

  test("v2: every planted pricing, integration, hiring, positioning, certification and release change is in the dossier, and freshness says when", async () => {
    researchedCadence = (await rest(t, key, `/api/v1/competitors/${ids.get("northwind.example")}`)).json.data
      .reads.release_cadence;
    web.setVersion(2);
    const s = await cycle();
    expect(s.signals_created).toBeGreaterThan(0);
    const at = t.clock.now.toISOString();
    await expectPricingAt(2);

    const globex = (await rest(t, key, `/api/v1/competitors/${ids.get("globex.example")}`)).json.data;
    const team = globex.reads.pricing.plans.find((p: Obj) => p.name === "Team");
    const enterprise = globex.reads.pricing.plans.find((p: Obj) => p.name === "Enterprise");
    expect(team.price).toBe(69);
    expect(team.features).not.toContain("Warehouse sync (Snowflake, BigQuery)");
    expect(enterprise.features).toContain("Warehouse sync (Snowflake, BigQuery)");
    expect(globex.freshness.state_updated_at).toBe(at);
    expect(globex.freshness.last_signal_at).toBe(at);
    expect(globex.freshness.last_snapshot_at).toBe(at);

    // The price chart agrees with the table: Team at $69 now, in the table's order.
    const globexPage = await (await browser.request(`/app/competitors/${ids.get("globex.example")}`)).text();
    expect(globexPage).toContain("Plan prices per month over time: Free $0, Team $69");

    const brightloop = (await rest(t, key, `/api/v1/competitors/${ids.get("brightloop.example")}`)).json.data;
    // A plan the page no longer lists has left the chart as it has left the table.
    const brightloopPage = await (
      await browser.request(`/app/competitors/${ids.get("brightloop.example")}`)
    ).text();
    expect(brightloopPage).toContain(
      "Plan prices per month over time: Starter $39, Growth $99, Free $0 until it was no longer listed",
    );
    expect(brightloop.reads.pricing.plans.map((p: Obj) => p.name)).not.toContain("Free");
    expect(brightloop.reads.pricing.free_tier).toBe(false);
    expect(brightloop.reads.positioning).toBe(positioningOf(pageAt("https://brightloop.example/", 2).hero));

    // The Series B the blog announces (its post and its feed) joins the funding research read from the press
    // page, with the sentence and the page that state it; the rounds research read stay as they were.
    const rounds: Obj[] = brightloop.reads.funding.rounds;
    expect(fundingAtV1?.rounds.map((r: Obj) => r.round)).toEqual(["Series A"]);
    expect(rounds.slice(0, -1)).toEqual(fundingAtV1!.rounds);
    const seriesB = rounds.at(-1)!;
    expect(seriesB).toMatchObject({ round: "Series B", amount: 40_000_000, currency: "USD" });
    expect(seriesB.text).toContain("Brightloop raises $40 million Series B");
    expect(seriesB.source).toStartWith("https://brightloop.example/blog/");
    expect(brightloop.reads.funding.sources).toContain(seriesB.source);
    expect(brightloop.reads.funding.conflicts).toBeUndefined();
    const tool = body(
      await mcp.callTool({
        name: "get_competitor",
        arguments: { competitor_id: ids.get("brightloop.example") },
      }),
    );
    expect(tool.competitor.reads.funding).toEqual(brightloop.reads.funding);

    const quantive = (await rest(t, key, `/api/v1/competitors/${ids.get("quantive.example")}`)).json.data;
    // The integrations page's names now: Power BI added, Redshift gone.
    expect(quantive.reads.integrations.names).toEqual(
      pageAt("https://quantive.example/integrations", 2).integrations,
    );
    expect(quantive.reads.integrations.names).toContain("Microsoft Power BI");
    expect(quantive.reads.integrations.names.filter((n: string) => /redshift/i.test(n))).toEqual([]);
    expect(quantive.reads.integrations.count).toBe(quantive.reads.integrations.names.length);

    // The security page's new certification, and the changelog's new entry in the release cadence.
    expect(brightloop.reads.regulation.certifications).toContain("SOC 2 Type II");
    expect(brightloop.reads.regulation.page).toBe("https://brightloop.example/security/");
    const northwind = (await rest(t, key, `/api/v1/competitors/${ids.get("northwind.example")}`)).json.data;
    const cadence = northwind.reads.release_cadence;
    const newest = (dates: string[]) => dates.reduce((a, b) => (Date.parse(a) > Date.parse(b) ? a : b));
    const src = cadence.source as string;
    const dates = src.endsWith(".json")
      ? (
          JSON.parse(
            new TextDecoder().decode(resolveFixture(new URL(src).hostname, new URL(src).pathname, 2).body!),
          ).items as { date_published: string }[]
        ).map((i) => i.date_published)
      : changelogEntries(pageAt(src, 2), src).map((e) => e.date);
    expect(Date.parse(cadence.last_release_at)).toBe(Date.parse(newest(dates)));
    expect(Date.parse(cadence.last_release_at)).toBeGreaterThan(
      Date.parse(researchedCadence!.last_release_at),
    );

    // Company facts read from a changed page follow it: Brightloop's business model, read from its plans, is no
    // longer freemium; every other fact the changed pages state is as before.
    factsAtV2 = await facts();
    expect(factsAtV2).toEqual({
      ...factsAtV1,
      "brightloop.example": { ...factsAtV1["brightloop.example"], business_model: "Subscription" },
    });

    const kestrel = (await rest(t, key, `/api/v1/competitors/${ids.get("kestrel.example")}`)).json.data;
    expect(kestrel.reads.hiring.open_roles).toBe(8);
    expect(kestrel.reads.hiring.by_department.Sales).toBeGreaterThan(0);
  });

  test("v3 (noise only): nothing moves, and the dossier still holds the newest pages", async () => {
    const before = (await rest(t, key, `/api/v1/competitors/${ids.get("globex.example")}`)).json.data;
    web.setVersion(3);
    const s = await cycle();
    expect(s.signals_created).toBe(0);
    await expectPricingAt(3);
    const after = (await rest(t, key, `/api/v1/competitors/${ids.get("globex.example")}`)).json.data;
    expect(after.freshness.state_updated_at).toBe(before.freshness.state_updated_at);
    expect(after.freshness.last_signal_at).toBe(before.freshness.last_signal_at);
    expect(await facts()).toEqual(factsAtV2);
  });

  test("the price chart marks every pricing signal on its day, imported history included", async () => {
    const id = ids.get("globex.example")!;
    const r = await t.services.database.client.execute({
      sql: "SELECT key FROM competitors WHERE id = ?",
      args: [id],
    });
    await t.load([
      {
        kind: "signal",
        org: "acme",
        key: "globex-team-2026-11",
        competitor: String(r.rows[0]!.key),
        title: "Globex raises Team plan price by 20%",
        summary: "The Team plan moved from $49 to $59 per seat per month.",
        category: "pricing",
        type: "price_change",
        severity: "high",
        status: "open",
        first_seen_at: "2026-11-18T08:12:00Z",
        evidence: [{ text: "Team — $59 per seat / month", source_url: "https://globex.example/pricing" }],
      },
    ]);
    const html = await (await browser.request(`/app/competitors/${id}`)).text();
    const chart = html.slice(html.indexOf("Plan prices per month over time"));
    expect(chart).toContain("18 Nov 2026: Globex raises Team plan price by 20%");
    const engine = (await rest(t, key, `/api/v1/signals?competitor_id=${id}`)).json.data.find(
      (x: Obj) => x.category === "pricing" && /\$69/.test(x.title),
    );
    expect(chart).toContain(engine.title);
  });

  test("research at v3, whose pricing pages list their cards in reverse, keeps the plans in the order known", async () => {
    for (const site of ["globex.example", "quantive.example"]) {
      const { done } = await startResearch(
        t.services,
        { orgId, actor: "operator" },
        { kind: "one", competitor_id: ids.get(site)! },
        "operator",
        { usesAllowance: false },
      );
      expect((await done)[0]?.status).toBe("finished");
    }
    await expectPricingAt(3);
  });
});
