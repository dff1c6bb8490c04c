// The app's research actions for admins, end to end over HTTP with a signed-in browser: "Add competitor" on the
// competitors page and "Research now" on a competitor page run the same commands as add_competitor and
// research_competitor; the competitor page shows the research state and what was found; members see neither
// form and are refused if they post; refusals keep what was typed.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { globex } from "../../fixtures/web/expected.ts";
import { type FixtureWeb, startFixtureWeb } from "../../fixtures/web/server.ts";
import { researchIdle } from "../../src/engine/research/runner.ts";
import { startTestServer, type TestServer } from "../support/helpers.ts";
import { countEvents } from "../support/mcp-write-helpers.ts";
import { type Browser, formValues, member, parseForms, signedIn } from "../support/oauth-helpers.ts";

setDefaultTimeout(60_000);

let web: FixtureWeb;
let t: TestServer;
let admin: Browser;
let reader: Browser;

beforeAll(async () => {
  web = startFixtureWeb();
  t = await startTestServer({ RIVALS_FETCH_REWRITE: web.rewrite, RIVALS_FETCH_DELAY_MS: "0" });
  await t.org("acme", "growth");
  admin = await signedIn(t, await member(t, "acme", "admin"));
  reader = await signedIn(t, await member(t, "acme", "member"));
});
afterAll(async () => {
  await researchIdle(t.services);
  await t.close();
  await web.stop();
});

const formOf = (html: string, action: string) => parseForms(html).find((f) => f.action === action);

describe("the competitors page", () => {
  test("an admin adds a competitor with the form; it opens on its page, ready for research", async () => {
    const page = await (await admin.request("/app/competitors?org=acme")).text();
    const form = formOf(page, "/app/competitors/add");
    expect(form).toBeDefined();
    const values = formValues(form!);
    values.set("website_url", "globex.example");
    const res = await admin.post("/app/competitors/add", values);
    expect(res.status).toBe(303);
    const location = res.headers.get("location")!;
    expect(location).toMatch(/^\/app\/competitors\/\d+\?org=acme&done=added$/);
    const html = await (await admin.request(location)).text();
    expect(html).toContain("Competitor added");
    expect(html).toContain('data-research-state="none"');
    expect(formOf(html, `${location.split("?")[0]}/research`)).toBeDefined();
    expect(await countEvents(t, "CompetitorAdded")).toBe(1);
  });

  test("a refusal shows beside the form and keeps what was typed", async () => {
    const values = formValues(
      formOf(await (await admin.request("/app/competitors?org=acme")).text(), "/app/competitors/add")!,
    );
    values.set("website_url", "https://globex.example/");
    const res = await admin.post("/app/competitors/add", values);
    expect(res.status).toBe(409);
    const html = await res.text();
    expect(html).toContain("already on the core watchlist");
    expect(formOf(html, "/app/competitors/add")!.inputs.find((i) => i.name === "website_url")!.value).toBe(
      "https://globex.example/",
    );
  });

  test("a member sees no form and is refused when posting", async () => {
    const page = await (await reader.request("/app/competitors?org=acme")).text();
    expect(formOf(page, "/app/competitors/add")).toBeUndefined();
    // The member's own session and CSRF token (from any form of their page, e.g. sign out).
    const csrf = parseForms(page)
      .flatMap((f) => f.inputs)
      .find((i) => i.name === "csrf")?.value;
    expect(csrf).toBeDefined();
    const adminForm = new URLSearchParams({
      csrf: csrf!,
      org: "acme",
      website_url: "initech.example",
      name: "",
    });
    const res = await reader.post("/app/competitors/add", adminForm);
    expect(res.status).toBe(403);
    expect(await countEvents(t, "CompetitorAdded")).toBe(1);
  });
});

describe("a competitor page", () => {
  test("Research now runs research; the page shows the state and what was found", async () => {
    const id = Number(
      (
        await t.services.database.client.execute(
          "SELECT id FROM competitors WHERE website_url LIKE '%globex%'",
        )
      ).rows[0].id,
    );
    const page = await (await admin.request(`/app/competitors/${id}?org=acme`)).text();
    const res = await admin.post(
      `/app/competitors/${id}/research`,
      formValues(formOf(page, `/app/competitors/${id}/research`)!),
    );
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`/app/competitors/${id}?org=acme&done=finished`);
    const html = await (await admin.request(res.headers.get("location")!)).text();
    expect(html).toContain('data-research-state="finished"');
    expect(html).toContain("Research finished");
    expect(html).toContain(globex.integrations!.names[0]);
    expect(html).toContain("https://globex.example/pricing");
    const memberView = await (await reader.request(`/app/competitors/${id}?org=acme`)).text();
    expect(memberView).toContain('data-research-state="finished"');
    expect(formOf(memberView, `/app/competitors/${id}/research`)).toBeUndefined();
  });
});
