// "Advance the demo sites" shows everything it promises, as `npm start` runs it (archive history on, no mail
// server): research and the baseline cycle at start, then the button moves the demo's fictional web to v2 and
// its cycle finds every change planted on the demo competitors' sites — their pages, feeds and job boards, and the
// open sources they link or declare: GitHub, npm, Hacker News, Wikidata and EDGAR — with no source failing and no request leaving the fixture web (every request the process
// makes is counted as it leaves: only the demo web's listener and the app itself are reached, and the guard never
// looks a name up). The panel's status line and the delivery settings agree with what happened.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { PLANTED, type PlantedChange } from "../../fixtures/web/planted.ts";
import { advanceDemo, demoIdle, runDemoEngine } from "../../src/demo/engine.ts";
import { DEMO_HOSTS, type DemoWeb, demoSitesVersion, startDemoWeb } from "../../src/demo/web.ts";
import { loadDemo } from "../../src/demo/workspace.ts";
import { runCycle } from "../../src/engine/cycle/run.ts";
import { researchIdle, startResearch } from "../../src/engine/research/runner.ts";
import { startTestServer, type TestServer } from "../support/helpers.ts";
import { type Browser, member, signedIn } from "../support/oauth-helpers.ts";

setDefaultTimeout(120_000);

/** The demo's competitors with a site in the fixture web, and the changes v2 plants on them. */
const DEMO_SITES = ["globex.example", "brightloop.example", "quantive.example"];
const DEMO_PLANTED = PLANTED.filter((p) => DEMO_SITES.includes(p.site));

interface SignalRow {
  competitor_id: number;
  title: string;
  category: string;
  type: string;
  evidence: { text: string; source_url: string }[];
}

let t: TestServer;
let web: DemoWeb;
let orgId: number;
let admin: Browser;
const siteOf = new Map<number, string>();
let found: SignalRow[] = [];
let advanceCycle: Record<string, unknown> | undefined;

/** Every request this process sends, by where it connects and the Host it names. */
const sent: { origin: string; host: string }[] = [];
/** The fetcher's log lines: a guard refusal means a name was looked up, an outside one a request refused. */
const logged: Record<string, unknown>[] = [];
const realFetch = globalThis.fetch;
const realWarn = console.warn;

const rows = async (sql: string, args: (string | number)[] = [orgId]) =>
  (await t.services.database.client.execute({ sql, args })).rows;

beforeAll(async () => {
  globalThis.fetch = Object.assign(
    (input: string | URL | Request, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
      sent.push({ origin: url.origin, host: (headers.get("host") ?? url.host).replace(/:\d+$/, "") });
      return realFetch(input, init);
    },
    { preconnect: realFetch.preconnect },
  ) as typeof fetch;
  console.warn = (...a: unknown[]) => {
    try {
      const line = JSON.parse(String(a[0]));
      if (typeof line?.msg === "string" && line.msg.startsWith("fetch")) logged.push(line);
    } catch {}
    realWarn(...a);
  };
  let services: TestServer["services"] | undefined;
  web = startDemoWeb(() => (services ? demoSitesVersion(services) : Promise.resolve(1)));
  // As `npm start`: the web archive's history on (24 months), no mail server.
  t = await startTestServer({ RIVALS_FETCH_DELAY_MS: "0", RIVALS_ARCHIVE_MONTHS: "24" });
  t.services.config.demoSites = web.sites;
  services = t.services;
  await loadDemo(t.services);
  orgId = Number((await rows("SELECT id FROM orgs WHERE slug = 'demo'", []))[0].id);
  for (const r of await rows("SELECT id, website_url FROM competitors WHERE org_id = ?"))
    siteOf.set(Number(r.id), new URL(String(r.website_url)).hostname);
  admin = await signedIn(t, await member(t, "demo", "admin"));

  const first = await runDemoEngine(t.services, "demo");
  expect(first.cycle?.signals_created).toBe(0);
  const [{ m }] = await rows("SELECT COALESCE(MAX(id), 0) AS m FROM signals WHERE org_id = ?");
  t.clock.advance(86_400_000);
  expect((await advanceDemo(t.services, orgId)).queued).toBe(false);
  await demoIdle(t.services);
  await researchIdle(t.services);
  found = (
    await rows("SELECT competitor_id, title, doc FROM signals WHERE org_id = ? AND id > ? ORDER BY id", [
      orgId,
      Number(m),
    ])
  ).map((r) => {
    const doc = JSON.parse(String(r.doc));
    return {
      competitor_id: Number(r.competitor_id),
      title: String(r.title),
      category: doc.category,
      type: doc.type,
      evidence: doc.evidence ?? [],
    };
  });
  const last = await rows(
    "SELECT summary FROM cycles WHERE org_id = ? AND finished_at IS NOT NULL ORDER BY id DESC LIMIT 1",
  );
  advanceCycle = JSON.parse(String(last[0].summary));
});

afterAll(async () => {
  globalThis.fetch = realFetch;
  console.warn = realWarn;
  await researchIdle(t.services);
  await t.close();
  await web.stop();
});

function matches(s: SignalRow, p: PlantedChange): boolean {
  const v = p.value.toLowerCase();
  return (
    siteOf.get(s.competitor_id) === p.site &&
    s.category === p.category &&
    s.type === p.type &&
    s.evidence.some((e) => e.text.toLowerCase().includes(v) && p.urls.includes(e.source_url))
  );
}

describe("every change planted on the demo competitors' sites is a signal after one advance", () => {
  test("twenty-three of them, and nothing else", () => {
    expect(DEMO_PLANTED.map((p) => `${p.site} ${p.type}: ${p.value}`)).toEqual([
      "globex.example price_increase: $69",
      "globex.example packaging_change: Warehouse sync",
      "globex.example key_role_opening: VP of Engineering",
      "globex.example release: v4.3.0", // GitHub's REST API
      "globex.example open_source: globex-mcp-server", // GitHub's REST API, the organisation's repositories
      "globex.example feature_removed: globex-legacy", // npm
      "globex.example partnership: Snowflake",
      "brightloop.example partnership: Fivetran",
      "brightloop.example price_decrease: $99",
      "brightloop.example free_tier_change: Free",
      "brightloop.example messaging_change: Fix the bugs that cost you revenue",
      "brightloop.example funding: $40 million",
      "brightloop.example mention: Brightloop raises $40M", // Hacker News (Algolia)
      "brightloop.example certification: SOC 2",
      "quantive.example plan_added: Growth",
      "quantive.example integration_added: Microsoft Power BI",
      "quantive.example integration_removed: Amazon Redshift",
      "quantive.example hiring_surge: Backend Engineer, Query Engine",
      "quantive.example acquisition: Lumen",
      "quantive.example page_added: Customers",
      "quantive.example leadership_change: Marcus Oyelaran", // Wikidata
      "quantive.example leadership_change: 5.02", // EDGAR
      "brightloop.example hiring_surge: Support Engineer",
    ]);
    expect(found.length).toBe(23);
    expect(advanceCycle?.signals_created).toBe(23);
  });
  for (const p of DEMO_PLANTED)
    test(`${p.site}: ${p.what}`, () => {
      const hit = found.filter((s) => matches(s, p));
      expect({ planted: p.what, signals: hit.length }).toEqual({ planted: p.what, signals: 1 });
    });
});

test("no source of a demo competitor fails, at start or after the advance", async () => {
  expect(advanceCycle).toMatchObject({ pages_failed: 0, failures: [] });
  const cycles = await rows("SELECT summary FROM cycles WHERE org_id = ? ORDER BY id");
  for (const c of cycles) expect(JSON.parse(String(c.summary)).pages_failed).toBe(0);
  for (const r of await rows("SELECT name, state FROM competitors WHERE org_id = ?")) {
    const failing = JSON.parse(String(r.state ?? "{}")).freshness?.source_failures ?? [];
    expect({ competitor: r.name, failing }).toEqual({ competitor: r.name, failing: [] });
  }
  for (const [id, site] of siteOf) {
    if (!DEMO_SITES.includes(site)) continue;
    const page = await (await admin.request(`/app/competitors/${id}?org=demo`)).text();
    expect(page).not.toContain("failing");
    expect(page).not.toContain("source-failures");
  }
});

test("a demo competitor whose site the fixture web does not serve fails closed, and says why", async () => {
  const lumen = [...siteOf].find(([, site]) => site === "lumenmetrics.example")![0];
  const { done } = await startResearch(
    t.services,
    { orgId, actor: "operator" },
    { kind: "one", competitor_id: lumen },
    "operator",
    { usesAllowance: false },
  );
  const [report] = await done;
  expect(report.status).toBe("failed");
  expect(report.error?.code).toBe("outside_sites");
  expect(report.error?.reason).toStartWith(
    "Could not read https://lumenmetrics.example/: it is not one of the demo's sites",
  );
  expect(logged.filter((l) => l.msg === "fetch outside the sites").map((l) => l.host)).toContain(
    "lumenmetrics.example",
  );
});

test("no request leaves the fixture web: the sites, job boards and open sources' APIs come from the demo's listener", () => {
  const app = new URL(t.base).origin;
  const outside = sent.filter((r) => r.origin !== web.origin && r.origin !== app);
  expect(outside).toEqual([]);
  // Exactly the hosts the demo competitors' research and cycles read (GitHub through its REST API only).
  const hosts = [...new Set(sent.filter((r) => r.origin === web.origin).map((r) => r.host))].sort();
  expect(hosts).toEqual([
    "api.ashbyhq.com",
    "api.github.com",
    "api.lever.co",
    "api.npmjs.org",
    "boards-api.greenhouse.io",
    "brightloop.example",
    "data.sec.gov",
    "docs.globex.example",
    "docs.quantive.example",
    "globex.example",
    "help.brightloop.example",
    "hn.algolia.com",
    "quantive.example",
    "registry.npmjs.org",
    "www.wikidata.org",
  ]);
  for (const h of hosts) expect(DEMO_HOSTS).toContain(h);
  // The guard never ran: no name was looked up. What the demo workspace asked outside its web (the web
  // archive's history) was refused before any look-up or connection.
  expect(logged.filter((l) => l.msg === "fetch refused")).toEqual([]);
  const refusedHosts = new Set(
    logged.filter((l) => l.msg === "fetch outside the sites").map((l) => String(l.host)),
  );
  for (const h of refusedHosts) expect(DEMO_HOSTS).not.toContain(h);
});

test("the status line says what the cycles since the advance found, also after a later cycle finds nothing", async () => {
  const panel = async () =>
    (await (await admin.request("/app?org=demo")).text()).match(
      /<section class="notice demo-sites"[\s\S]*?<\/section>/,
    )?.[0] ?? "";
  const after = await panel();
  expect(after).toContain('data-since-advance="23"');
  expect(after).toContain("the monitoring cycle found 23 new signals</span> (in the feed below).");
  expect(after).not.toMatch(/\b0 new signals/);

  // The next scheduled cycle finds nothing new: the line still counts the advance's signals, then the last cycle.
  t.clock.advance(3_600_000);
  expect((await runCycle(t.services, orgId, { trigger: "schedule" })).signals_created).toBe(0);
  const later = await panel();
  expect(later).toContain('data-since-advance="23"');
  expect(later).toContain("2 monitoring cycles found 23 new signals</span> (in the feed below).");
  expect(later).toMatch(
    /The last one finished <time[^>]*>[^<]*<\/time><span>: \d+ pages checked, 0 pages changed, no new signal<\/span>\./,
  );
  expect(later).not.toMatch(/\b0 new signals/);
});

test("delivery: without a mail server no page or tool says email is on, and no email is queued to fail", async () => {
  const settings = await (await admin.request("/app/settings/monitoring?org=demo")).text();
  expect(settings).toContain("Email delivery is switched on but inactive");
  expect(settings).toContain("needs a mail server configured on this server");
  const start = await (await admin.request("/app/start?org=demo")).text();
  expect(start).toContain("Digests are delivered by <span>no channel yet</span>");
  const queued = await rows("SELECT COUNT(*) AS n FROM deliveries WHERE org_id = ? AND channel = 'email'");
  expect(Number(queued[0].n)).toBe(0);
});

test("every hiring section says something: the open roles by department, or plainly that none are known", async () => {
  for (const [id, site] of siteOf) {
    const page = await (await admin.request(`/app/competitors/${id}?org=demo`)).text();
    const hiring = page.match(/<section class="read" id="read-hiring">([\s\S]*?)<\/section>/)?.[1];
    if (hiring === undefined) continue;
    const text = hiring
      .replace(/<[^>]+>/g, " ")
      .replace(/\s+/g, " ")
      .trim();
    expect({ site, text }).toEqual({ site, text: expect.stringMatching(/^Hiring \S.{8,}/) });
    if (DEMO_SITES.includes(site))
      expect({ site, text }).toEqual({ site, text: expect.stringMatching(/\d+ open roles?/) });
  }
});
