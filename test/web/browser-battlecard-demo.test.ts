// The demo's battlecards through "Advance the demo sites", as a rep meets them: the curated cards keep every
// line their people wrote (the cycle only proposes), the proposal names the competitor's biggest moves with their
// facts, a member accepts one and dismisses another with the page's buttons in Chromium, get_battlecard shows a
// pending proposal to an agent, and every card prints on at most two pages (a PDF from Chromium's print) with
// the proposal, the diff and the raw evidence left on the screen.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { advanceDemo, demoIdle, runDemoEngine } from "../../src/demo/engine.ts";
import { type DemoWeb, demoSitesVersion, startDemoWeb } from "../../src/demo/web.ts";
import { loadDemo } from "../../src/demo/workspace.ts";
import { addMember } from "../../src/domain/members.ts";
import { researchIdle } from "../../src/engine/research/runner.ts";
import { ARTIFACTS, axeViolations, browsers } from "../support/browser-pages.ts";
import { startTestServer, type TestServer } from "../support/helpers.ts";
import { body, mcpClient } from "../support/mcp-helpers.ts";
import { expectProse, visibleText } from "../support/prose-check.ts";

setDefaultTimeout(180_000);

const EMAIL = "rep@demo.example";
const PASSWORD = "a long enough password";
type Obj = Record<string, any>;

/** The curated cards the demo imports, by competitor key. */
const CURATED: Record<string, Obj> = Object.fromEntries(
  readFileSync(join(import.meta.dir, "../../examples/demo.ndjson"), "utf8")
    .split("\n")
    .filter((l) => l.includes('"kind":"battlecard"'))
    .map((l) => JSON.parse(l))
    .filter((c) => c.status === "generated")
    .map((c) => [c.competitor, c.sections]),
);

let t: TestServer;
let web: DemoWeb;
let orgId: number;
let summary: Obj;
const cards: Record<string, { id: number; competitor_id: number }> = {};
const b = browsers();

const rows = async (sql: string, args: (string | number)[] = [orgId]) =>
  (await t.services.database.client.execute({ sql, args })).rows;
const stored = async (key: string): Promise<Obj> =>
  JSON.parse(String((await rows("SELECT state FROM battlecards WHERE id = ?", [cards[key].id]))[0].state));

/** Pages of a PDF: the page count of its page tree's root (the largest `/Count`). */
const pdfPages = (pdf: Buffer) =>
  Math.max(0, ...[...pdf.toString("latin1").matchAll(/\/Count\s+(\d+)/g)].map((m) => Number(m[1])));

async function printed(page: Page, name: string): Promise<number> {
  await page.emulateMedia({ media: "print" });
  for (const hidden of ["section.proposal", "section.changes", "details.markdown-copy"])
    if (await page.locator(hidden).count())
      expect(await page.locator(hidden).first().isVisible()).toBe(false);
  await page.screenshot({ path: join(ARTIFACTS, name.replace(/\.pdf$/, "-print.png")), fullPage: true });
  const pdf = await page.pdf({ path: join(ARTIFACTS, name), format: "A4" });
  await page.emulateMedia({ media: "screen" });
  return pdfPages(pdf);
}

beforeAll(async () => {
  let services: TestServer["services"] | undefined;
  web = startDemoWeb(() => (services ? demoSitesVersion(services) : Promise.resolve(1)));
  t = await startTestServer({ RIVALS_FETCH_DELAY_MS: "0" });
  t.services.config.demoSites = web.sites;
  services = t.services;
  await loadDemo(t.services);
  orgId = Number((await rows("SELECT id FROM orgs WHERE slug = 'demo'", []))[0].id);
  for (const r of await rows(
    "SELECT b.id, b.competitor_id, b.key FROM battlecards b WHERE b.org_id = ? AND b.listed = 1",
  ))
    cards[String(r.key).replace(/-card$/, "")] = { id: Number(r.id), competitor_id: Number(r.competitor_id) };
  await runDemoEngine(t.services, "demo");
  t.clock.advance(86_400_000);
  await advanceDemo(t.services, orgId);
  await demoIdle(t.services);
  await researchIdle(t.services);
  const last = await rows(
    "SELECT summary FROM cycles WHERE org_id = ? AND finished_at IS NOT NULL ORDER BY id DESC LIMIT 1",
  );
  summary = JSON.parse(String(last[0].summary));
  await addMember(t.services.store, { org: "demo", email: EMAIL, role: "member", password: PASSWORD });
  mkdirSync(ARTIFACTS, { recursive: true });
});

afterAll(async () => {
  await b.close();
  await researchIdle(t.services);
  await t.close();
  await web.stop();
});

describe("after an advance", () => {
  test("the curated cards are unchanged, word for word; the cycle proposed instead", async () => {
    expect(summary).toMatchObject({ battlecards_written: 0, battlecards_proposed: 3 });
    for (const key of ["globex", "brightloop", "quantive"]) {
      const s = await stored(key);
      expect(s.sections).toEqual(CURATED[key]);
      expect(s.proposal.add.length).toBeGreaterThan(0);
    }
    // The curated talk track the demo is known by is still there.
    expect((await stored("globex")).sections.talk_tracks[0]).toContain(
      "If SSO is a requirement, ask Globex for the Enterprise quote before comparing seat prices",
    );
  });

  test("the proposals name the period's biggest moves and the curated lines they make stale", async () => {
    const g = (await stored("globex")).proposal;
    expect(g.add.map((l: Obj) => l.text)).toContain(
      "Team plan raised from $59 to $69 per seat/month (+17%, seen 21 Nov 2026).",
    );
    expect(g.drop.map((l: Obj) => l.text)).toEqual(["Team plan now $59 per seat, 20% more than in October"]);
    const bl = (await stored("brightloop")).proposal;
    expect(bl.add.map((l: Obj) => l.text)).toContain(
      "Growth plan cut from $119 to $99/month (-17%, seen 21 Nov 2026).",
    );
    expect(bl.drop.map((l: Obj) => l.text)).toEqual(["Low entry price and generous free tier"]);
    for (const p of [g, bl, (await stored("quantive")).proposal])
      expectProse(p.add.map((l: Obj) => ({ where: `proposal ${l.section}`, text: l.text })));
  });

  test("an agent sees the pending proposal in get_battlecard", async () => {
    const mcp = await mcpClient(t.base, await t.key("demo"));
    const r = body(
      await mcp.callTool({ name: "get_battlecard", arguments: { battlecard_id: cards.globex.id } }),
    );
    expect(r.battlecard.sections.talk_tracks).toEqual(CURATED.globex.talk_tracks);
    expect(r.proposal.add.map((l: Obj) => l.text)).toContain(
      "Team plan raised from $59 to $69 per seat/month (+17%, seen 21 Nov 2026).",
    );
    expect(r.proposal.sections).toBeUndefined();
    await mcp.close();
  });

  test("a member accepts Brightloop's update on the page; the card prints on two pages at most", async () => {
    const page = await b.signedIn(
      t.base,
      `/app/battlecards/${cards.brightloop.id}`,
      "desktop",
      EMAIL,
      PASSWORD,
    );
    const proposal = page.locator("section.proposal");
    expect(await proposal.textContent()).toContain(
      "Growth plan cut from $119 to $99/month (-17%, seen 21 Nov 2026).",
    );
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, "battlecard-demo-proposal.png"), fullPage: true });
    await Promise.all([
      page.waitForLoadState("load"),
      proposal.getByRole("button", { name: "Accept the update" }).click(),
    ]);
    expect(await page.locator("section.proposal").count()).toBe(0);
    // The card's sections (the diff and the evidence below them say what was removed).
    const card = (await page.locator("article.battlecard > section").allTextContents()).join("\n");
    for (const line of CURATED.brightloop.talk_tracks) expect(card).toContain(line);
    expect(card).toContain("Growth plan cut from $119 to $99/month (-17%, seen 21 Nov 2026).");
    expect(card).toContain("Ended its free plan (seen 21 Nov 2026)");
    expect(card).not.toContain("Low entry price and generous free tier");
    const s = await stored("brightloop");
    expect(s.proposal).toBeUndefined();
    expect(s.sections.strengths.join("\n")).not.toMatch(/free (?:plan|tier)/i);
    expect(s.evidence.lines.filter((l: Obj) => l.by === "rivals").every((l: Obj) => l.signal_id)).toBe(true);
    const accepted = await rows(
      "SELECT metadata FROM events WHERE type = 'BattlecardProposalAccepted' AND stream_id = ?",
      [String(cards.brightloop.id)],
    );
    expect(JSON.parse(String(accepted[0].metadata))).toMatchObject({ source: "web" });
    // The page as a person reads it, the screen-only evidence included.
    expectProse([{ where: "Brightloop card page", text: visibleText(await page.content()) }]);
    expect(await printed(page, "battlecard-demo-brightloop.pdf")).toBeLessThanOrEqual(2);
    // Its Markdown too: at most 110 lines of 90 characters, wrapped (two printed pages).
    const md = await (
      await page.request.get(`${t.base}/app/battlecards/${cards.brightloop.id}/markdown`)
    ).text();
    expect(md.split("\n").reduce((n, l) => n + Math.max(1, Math.ceil(l.length / 90)), 0)).toBeLessThanOrEqual(
      110,
    );
    expect(md).toContain("- Growth plan cut from $119 to $99/month (-17%, seen 21 Nov 2026).");
    await page.close();
  });

  test("a member dismisses Quantive's update: the card stays as the team wrote it", async () => {
    const page = await b.signedIn(
      t.base,
      `/app/battlecards/${cards.quantive.id}`,
      "desktop",
      EMAIL,
      PASSWORD,
    );
    await Promise.all([
      page.waitForLoadState("load"),
      page.locator("section.proposal").getByRole("button", { name: "Dismiss" }).click(),
    ]);
    expect(await page.locator("section.proposal").count()).toBe(0);
    const s = await stored("quantive");
    expect(s.proposal).toBeUndefined();
    expect(s.sections).toEqual(CURATED.quantive);
    await page.close();
  });

  test("a card with a pending proposal prints on two pages at most, without it", async () => {
    const page = await b.signedIn(t.base, `/app/battlecards/${cards.globex.id}`, "desktop", EMAIL, PASSWORD);
    expect(await page.locator("section.proposal").isVisible()).toBe(true);
    expect(await page.locator("p.print-only").isVisible()).toBe(false);
    expect(await printed(page, "battlecard-demo-globex.pdf")).toBeLessThanOrEqual(2);
    // On paper one line says newer facts wait for review.
    await page.emulateMedia({ media: "print" });
    expect(await page.locator("p.print-only").textContent()).toBe(
      "Newer facts found 21 Nov 2026, 12:00 UTC wait for a member's review in Rivals; this card does not include them yet.",
    );
    expect(await page.locator("p.print-only").isVisible()).toBe(true);
    await page.emulateMedia({ media: "screen" });
    // The list says which cards wait for a member: Globex only (Brightloop's was accepted, Quantive's dismissed).
    await page.goto(`${t.base}/app/battlecards`);
    const waiting = await page.locator("tbody tr", { hasText: "Update proposed" }).allTextContents();
    expect(waiting).toHaveLength(1);
    expect(waiting[0]).toContain("Globex Insights");
    await page.close();
  });
});

describe("a member's edit", () => {
  test("is kept through generate_battlecard; the pending proposal it answers is gone", async () => {
    const page = await b.signedIn(t.base, `/app/battlecards/${cards.globex.id}`, "desktop", EMAIL, PASSWORD);
    await page.locator("details.edit-card summary").click();
    const fixed = "Team plan $69 per seat since 21 Nov, up from $59; SSO still needs Enterprise";
    const weaknesses = (await page.inputValue("#edit-weaknesses"))
      .split("\n")
      .map((l) => (l.startsWith("Team plan now $59") ? fixed : l))
      .join("\n");
    await page.fill("#edit-weaknesses", weaknesses);
    await Promise.all([
      page.waitForLoadState("load"),
      page.locator("details.edit-card").getByRole("button", { name: "Save the card" }).click(),
    ]);
    const shown = (await page.locator("article.battlecard > section").allTextContents()).join("\n");
    expect(shown).toContain(fixed);
    expect(shown).not.toContain("Team plan now $59 per seat");
    expect(await page.locator("section.proposal").count()).toBe(0);
    const s = await stored("globex");
    expect(s.proposal).toBeUndefined();
    expect(s.team.weaknesses).toContain(fixed);
    // Only the section changed became the member's edit; the others are as the demo's people wrote them.
    expect(s.sections.talk_tracks).toEqual(CURATED.globex.talk_tracks);
    await page.close();

    // generate_battlecard on request: the team's lines, the edit included, stay as written; it says so.
    const mcp = await mcpClient(t.base, await t.key("demo"));
    const r = body(
      await mcp.callTool({
        name: "generate_battlecard",
        arguments: { competitor_id: cards.globex.competitor_id, idempotency_key: "after-edit" },
      }),
    );
    expect(r.rewritten).toBe(true);
    expect(r.battlecard.sections.weaknesses).toContain(fixed);
    for (const line of CURATED.globex.talk_tracks) expect(r.battlecard.sections.talk_tracks).toContain(line);
    expect(r.replaced.team_lines_kept).toBeGreaterThanOrEqual(12);
    expect(r.replaced.summary).toContain("kept as written");
    // The Team price move the edit already states is not added again by the engine.
    expect(r.battlecard.sections.weaknesses.filter((l: string) => l.includes("$69"))).toHaveLength(1);
    await mcp.close();
  });
});
