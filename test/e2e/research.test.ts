// The binary researches a site: `rivals research` runs discovery, the fetcher and the Worker pool from the
// compiled executable (the worker is its second embedded entry point) against the fixture web on loopback.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { globex } from "../../fixtures/web/expected.ts";
import { type FixtureWeb, startFixtureWeb } from "../../fixtures/web/server.ts";
import { e2eSuite, type Workspace, workspace } from "./harness.ts";

// Several processes (import, serve, research) and a whole site read: leave room on a busy machine.
setDefaultTimeout(60_000);

e2eSuite("rivals binary: research", () => {
  let ws: Workspace;
  let web: FixtureWeb;
  beforeAll(() => {
    ws = workspace("research");
    web = startFixtureWeb();
  });
  afterAll(async () => {
    await ws?.close();
    await web?.stop();
  });

  test("rivals research reads the site with the embedded worker and prints one JSON summary", async () => {
    await ws.ok(["org", "create", "--slug", "acme", "--name", "Acme", "--plan", "growth"]);
    const line = JSON.stringify({
      kind: "competitor",
      org: "acme",
      key: "globex",
      name: "Globex",
      website_url: globex.origin,
    });
    await ws.ok(["import", "-"], { stdin: `${line}\n` });
    const env = { RIVALS_FETCH_REWRITE: web.rewrite, RIVALS_FETCH_DELAY_MS: "0" };
    const key = (await ws.ok(["key", "create", "--org", "acme"])).token;
    const srv = await ws.serve(env);
    const id = (await (await srv.get("/api/v1/competitors", key)).json()).data[0].id;
    await srv.stop();
    const r = await ws.run(["research", "--org", "acme", "--competitor", String(id)], { env });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const out = r.json();
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ status: "finished", competitor_id: id, job_board: "greenhouse" });
    expect(out[0].reads).toEqual(
      expect.arrayContaining(["pricing", "hiring", "tech_stack", "release_cadence"]),
    );
    expect(out[0].urls.pricing).toBe(globex.pricing!.page);
  });
});
