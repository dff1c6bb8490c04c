// The binary reads a page built by script: `rivals research` with RIVALS_BROWSER drives Chromium over the
// DevTools protocol from the compiled executable (no browser library is bundled), against a shell pricing
// page on loopback; without RIVALS_BROWSER the same page is reported as needing a browser.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { type RenderedSite, startRenderedSite } from "../../fixtures/rendered/site.ts";
import { chromiumPath } from "../support/browser.ts";
import { e2eSuite, type Workspace, workspace } from "./harness.ts";

setDefaultTimeout(60_000);

e2eSuite("rivals binary: pages that need a browser", () => {
  let ws: Workspace;
  let site: RenderedSite;
  let id: number;
  beforeAll(async () => {
    ws = workspace("render");
    site = startRenderedSite("http://127.0.0.1:9/");
    await ws.ok(["org", "create", "--slug", "acme", "--name", "Acme", "--plan", "growth"]);
    const line = JSON.stringify({
      kind: "competitor",
      org: "acme",
      key: "vantage",
      name: "Vantage",
      website_url: "https://vantage.example",
    });
    await ws.ok(["import", "-"], { stdin: `${line}\n` });
    const key = (await ws.ok(["key", "create", "--org", "acme"])).token;
    const srv = await ws.serve({ RIVALS_FETCH_REWRITE: site.rewrite });
    id = (await (await srv.get("/api/v1/competitors", key)).json()).data[0].id;
    await srv.stop();
  });
  afterAll(async () => {
    await ws?.close();
    site?.stop();
  });

  const research = (env: Record<string, string>) =>
    ws.run(["research", "--org", "acme", "--competitor", String(id)], {
      env: { RIVALS_FETCH_REWRITE: site.rewrite, RIVALS_FETCH_DELAY_MS: "0", ...env },
    });

  test("without RIVALS_BROWSER the shell is listed as needing a browser, and no pricing is read", async () => {
    const r = await research({});
    expect(r.code).toBe(0);
    const [out] = r.json();
    expect(out.status).toBe("finished");
    expect(out.reads ?? []).not.toContain("pricing");
    expect(JSON.stringify(out)).toContain("needs_browser");
  });

  test("with RIVALS_BROWSER the compiled binary renders it and reads its plans", async () => {
    const r = await research({ RIVALS_BROWSER: await chromiumPath() });
    expect(r.code).toBe(0);
    const [out] = r.json();
    expect(out.status).toBe("finished");
    expect(out.reads).toContain("pricing");
    expect(site.paths).toContain("/api/plans.json");
  });
});
