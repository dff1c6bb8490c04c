// Pages that need a browser: application shells are recognised (and no page of the fixture web is taken for
// one); the renderer drives the Chromium of @sparticuz/chromium over the DevTools protocol, answering every
// request the page makes through the fetcher (guard, robots.txt, rewrite) and loading no images; it is
// bounded in time and restarted after a crash. End to end, a pricing page built by script is researched
// and monitored with RIVALS_BROWSER set (its price rise is a signal), and without it the page is a failed
// check that says it needs a browser — never a signal.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { type RenderedSite, startRenderedSite } from "../../../fixtures/rendered/site.ts";
import { runCycle } from "../../../src/engine/cycle/run.ts";
import { createFetcher } from "../../../src/engine/fetch/index.ts";
import { isAppShell, Renderer, rendererFor, shellVerdict } from "../../../src/engine/render/index.ts";
import { startResearch } from "../../../src/engine/research/runner.ts";
import { chromiumPath } from "../../support/browser.ts";
import { startTestServer, type TestServer } from "../../support/helpers.ts";
import { body, mcpClient } from "../../support/mcp-helpers.ts";
import { rest } from "../../support/mcp-write-helpers.ts";

setDefaultTimeout(60_000);

let chromium: string;
let listener: ReturnType<typeof Bun.serve>;
const listenerHits: string[] = [];
let loopback: string;

beforeAll(async () => {
  chromium = await chromiumPath();
  listener = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      listenerHits.push(new URL(req.url).pathname);
      return new Response("secret");
    },
  });
  loopback = `http://127.0.0.1:${listener.port}/admin`;
});
afterAll(() => listener?.stop(true));

describe("application shells", () => {
  test("a mount node with scripts and no text is a shell; server-rendered pages are not", () => {
    expect(
      shellVerdict(
        '<html><head><script src="/_next/static/app.js"></script></head><body><div id="__next"></div></body></html>',
      ).shell,
    ).toBe(true);
    expect(
      shellVerdict(
        '<body><noscript>You need to enable JavaScript to run this app.</noscript><div id="root"></div><script src="/main.js"></script></body>',
      ),
    ).toMatchObject({ shell: true, emptyMount: true, asksForScript: true });
    // Next.js that rendered on the server: the mount node holds the page.
    expect(
      shellVerdict(
        `<body><div id="__next"><h1>Pricing</h1><p>${"Plans for every team. ".repeat(20)}</p></div><script src="/_next/app.js"></script></body>`,
      ).shell,
    ).toBe(false);
    // A page that says little but has no script is read as it is.
    expect(shellVerdict("<body><h1>Tally</h1><p>hello@tally.example</p></body>").shell).toBe(false);
    // Read in part: a page with its text before an empty mount node stops at the text, no shell either way.
    const textFirst = `<body><p>${"Plans for every team. ".repeat(20)}</p><div id="root"></div><script src="/a.js"></script></body>`;
    expect(shellVerdict(textFirst, 200)).toMatchObject({ shell: false, scripts: 0, emptyMount: false });
    expect(shellVerdict(textFirst)).toMatchObject({ shell: false, scripts: 1, emptyMount: true });
    expect(isAppShell(textFirst)).toBe(false);
  });

  test("the fixture web's one shell is Ashby's hosted board page (read through Ashby's API instead), read whole or in part", () => {
    const root = join(import.meta.dir, "..", "..", "..", "fixtures", "web", "sites");
    const shells: string[] = [];
    let pages = 0;
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const p = join(dir, name);
        if (statSync(p).isDirectory()) walk(p);
        else if (name.endsWith(".html")) {
          pages++;
          const html = readFileSync(p, "utf8");
          const shell = shellVerdict(html).shell;
          if (shell) shells.push(p);
          // The check a cycle runs stops after the first 200 characters of text, with the same verdict.
          expect(isAppShell(html)).toBe(shell);
        }
      }
    };
    walk(root);
    expect(pages).toBeGreaterThan(50);
    expect(shells.map((p) => p.slice(root.length + 1))).toEqual(["jobs.ashbyhq.com/v1/quantive.html"]);
  });
});

describe("the renderer", () => {
  let site: RenderedSite;
  let renderer: Renderer;
  const fetcher = () =>
    createFetcher({
      userAgent: "RivalsBot/1.0",
      delayMs: 0,
      rewrite: [{ from: "https://vantage.example", to: site.origin }],
      log: () => {},
    });

  beforeAll(() => {
    site = startRenderedSite(loopback);
    renderer = new Renderer({ browser: chromium, fetcher: fetcher(), timeoutMs: 15_000 });
  });
  afterAll(async () => {
    await renderer.close();
    site.stop();
  });

  async function renderPricing() {
    const served = await fetcher().fetch({ url: "https://vantage.example/pricing" });
    if (!served.ok) throw new Error(served.message);
    expect(shellVerdict(served.text).shell).toBe(true);
    return renderer.render({ url: served.finalUrl, text: served.text, contentType: served.contentType });
  }

  test("builds the page as a browser does; every request goes through the fetcher's rules", async () => {
    site.paths.length = 0;
    const r = await renderPricing();
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.html).toContain("<h3>Team</h3>");
    expect(r.html).toContain("$49");
    // The document once (read before rendering), the script and its data; no image; robots.txt's
    // disallowed path and the loopback address refused.
    expect(site.paths.filter((p) => p !== "/robots.txt")).toEqual([
      "/pricing",
      "/static/app.js",
      "/api/plans.json",
    ]);
    expect(r.refused).toBe(2);
    expect(listenerHits).toEqual([]);
  });

  test("a browser that dies is started again for the next page", async () => {
    const pid = renderer.pid;
    expect(pid).toBeNumber();
    process.kill(pid!, "SIGKILL");
    await Bun.sleep(200);
    const r = await renderPricing();
    expect(r.ok).toBe(true);
    expect(renderer.launches).toBe(2);
    expect(renderer.pid).not.toBe(pid);
  });

  test("a page that never settles is cut at the time limit", async () => {
    const hang = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch(req) {
        const path = new URL(req.url).pathname;
        if (path === "/robots.txt") return new Response("");
        if (path === "/")
          return new Response('<div id="app"></div><script src="/a.js"></script>', {
            headers: { "content-type": "text/html" },
          });
        // Never answers: the page's network never goes quiet.
        return new Promise<Response>(() => {});
      },
    });
    const slow = new Renderer({
      browser: chromium,
      fetcher: createFetcher({
        userAgent: "RivalsBot/1.0",
        delayMs: 0,
        rewrite: [{ from: "https://slow.example", to: `http://127.0.0.1:${hang.port}` }],
      }),
      timeoutMs: 1500,
    });
    try {
      const started = Date.now();
      const r = await slow.render({
        url: "https://slow.example/",
        text: '<div id="app"></div><script src="/a.js"></script>',
        contentType: "text/html",
      });
      expect(r).toMatchObject({ ok: false, error: "timeout" });
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      await slow.close();
      hang.stop(true);
    }
  });
});

describe("monitoring a page built by script", () => {
  interface World {
    t: TestServer;
    site: RenderedSite;
    mcp: Client;
    key: string;
    orgId: number;
    competitorId: number;
  }

  async function world(browser: boolean): Promise<World> {
    const site = startRenderedSite(loopback);
    const t = await startTestServer({
      RIVALS_FETCH_REWRITE: site.rewrite,
      RIVALS_FETCH_DELAY_MS: "0",
      ...(browser ? { RIVALS_BROWSER: chromium } : {}),
    });
    const orgId = (await t.org("acme")).id;
    const key = await t.key("acme", "read write");
    const mcp = await mcpClient(t.base, key);
    const added = body(
      await mcp.callTool({ name: "add_competitor", arguments: { website_url: "https://vantage.example" } }),
    );
    const competitorId = added.competitor.id;
    const { done } = await startResearch(
      t.services,
      { orgId, actor: "operator" },
      { kind: "one", competitor_id: competitorId },
      "operator",
      { usesAllowance: false },
    );
    const [report] = await done;
    expect(report.status).toBe("finished");
    return { t, site, mcp, key, orgId, competitorId };
  }

  async function close(w: World) {
    await w.mcp.close();
    await w.t.close();
    w.site.stop();
  }

  const pricingSignals = async (w: World) =>
    (
      (await rest(w.t, w.key, "/api/v1/signals")).json.data as {
        title: string;
        category?: string;
        evidence: { source_url?: string }[];
      }[]
    ).filter((s) => s.category === "pricing");

  test("with RIVALS_BROWSER: research reads the plans, and a price rise in the script's data is a signal", async () => {
    const w = await world(true);
    try {
      const dossier = (await rest(w.t, w.key, `/api/v1/competitors/${w.competitorId}`)).json.data;
      expect(JSON.stringify(dossier.reads?.pricing ?? {})).toContain("Team");
      const first = await runCycle(w.t.services, w.orgId, { trigger: "operator" });
      expect(first.signals_created).toBe(0);
      expect(first.failures.filter((f) => f.error === "needs_browser")).toEqual([]);
      w.site.version = 2;
      w.t.clock.advance(3_600_000);
      const second = await runCycle(w.t.services, w.orgId, { trigger: "operator" });
      expect(second.signals_created).toBeGreaterThan(0);
      const [signal] = await pricingSignals(w);
      expect(signal.title).toContain("Team");
      expect(JSON.stringify(signal)).toContain("$59");
      expect(signal.evidence.map((e) => e.source_url)).toContain("https://vantage.example/pricing");
      // Rendered pages are read whole each cycle (their shell does not change when their data does).
      const hashes = await w.t.services.database.client.execute({
        sql: "SELECT url, rendered FROM snapshot_sources WHERE org_id = ? AND url LIKE '%/pricing'",
        args: [w.orgId],
      });
      expect(Number(hashes.rows[0]?.rendered)).toBe(1);
      expect(listenerHits).toEqual([]);
      await rendererFor(w.t.services.config)?.close();
    } finally {
      await close(w);
    }
  });

  test("a monitored page added with render: true is always read in the browser", async () => {
    const w = await world(true);
    try {
      const added = body(
        await w.mcp.callTool({
          name: "add_monitored_page",
          arguments: {
            competitor_id: w.competitorId,
            url: "https://vantage.example/about?team=1",
            render: true,
          },
        }),
      );
      expect(added.page.render).toBe(true);
      await runCycle(w.t.services, w.orgId, { trigger: "operator" });
      const rows = await w.t.services.database.client.execute({
        sql: "SELECT rendered FROM snapshot_sources WHERE org_id = ? AND url LIKE '%/about?team=1'",
        args: [w.orgId],
      });
      expect(Number(rows.rows[0]?.rendered)).toBe(1);
    } finally {
      await close(w);
    }
  });

  test("without a browser: the page is a failed check that says so, and its change is never a signal", async () => {
    const w = await world(false);
    try {
      const first = await runCycle(w.t.services, w.orgId, { trigger: "operator" });
      expect(first.failures).toContainEqual(
        expect.objectContaining({ url: "https://vantage.example/pricing", error: "needs_browser" }),
      );
      w.site.version = 2;
      w.t.clock.advance(3_600_000);
      const second = await runCycle(w.t.services, w.orgId, { trigger: "operator" });
      expect(second.signals_created).toBe(0);
      expect(await pricingSignals(w)).toEqual([]);
      const shown = body(
        await w.mcp.callTool({ name: "get_competitor", arguments: { competitor_id: w.competitorId } }),
      );
      expect(JSON.stringify(shown)).toContain("needs_browser");
    } finally {
      await close(w);
    }
  });
});
