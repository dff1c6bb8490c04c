// A battlecard in real Chromium at desktop and phone width: its sections, the team's notes set apart as notes,
// what changed since its previous version, the card as Markdown (copied to the clipboard by the page's button and
// downloadable), and a clean printed page (print media hides the app's frame and controls; a PDF goes to
// test/artifacts/); no serious or critical axe-core violation.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { handle } from "../../events/command.ts";
import { addBattlecardNote } from "../../src/domain/engagement.ts";
import { addMember } from "../../src/domain/members.ts";
import { ARTIFACTS, axeViolations, browsers, pageOverflow } from "../support/browser-pages.ts";
import { startTestServer, type TestServer } from "../support/helpers.ts";

const EMAIL = "pat@acme.example";
const PASSWORD = "a long enough password";
let t: TestServer;
const b = browsers();
let cardId: number;
let competitorId: number;

const card = (sections: object, generated_at: string) => ({
  kind: "battlecard",
  org: "acme",
  key: "bc-lumora",
  competitor: "lumora",
  status: "generated",
  generated_at,
  sections,
  evidence: { sources: [{ title: "Lumora pricing", url: "https://lumora.example/pricing" }] },
});

beforeAll(async () => {
  t = await startTestServer();
  const base = [
    { kind: "org", slug: "acme", name: "Acme", plan: "growth" },
    { kind: "competitor", org: "acme", key: "lumora", name: "Lumora", watch: "core", tracking: "active" },
  ];
  expect((await t.load(base)).errors).toEqual([]);
  const first = {
    overview: "Lumora sells analytics to product teams.",
    strengths: ["Free tier", "40 integrations"],
    weaknesses: ["No SSO below Enterprise"],
    talk_tracks: ["Lead with onboarding time"],
  };
  expect((await t.load([card(first, "2026-11-01T09:00:00Z")])).errors).toEqual([]);
  const second = {
    ...first,
    strengths: ["Free tier", "55 integrations"],
    talk_tracks: ["Lead with onboarding time", "Ask about their Pro price cut"],
  };
  expect((await t.load([card(second, "2026-11-18T09:00:00Z")])).errors).toEqual([]);
  const row = (await t.services.database.client.execute("SELECT id, competitor_id FROM battlecards")).rows[0];
  cardId = Number(row.id);
  competitorId = Number(row.competitor_id);
  const org = Number(
    (await t.services.database.client.execute("SELECT id FROM orgs WHERE slug = 'acme'")).rows[0].id,
  );
  await t.services.store.execute(
    (w) =>
      handle(
        addBattlecardNote,
        w,
        { orgId: org, actor: "user:1", actorName: "Pat" },
        { competitor_id: competitorId, body: "Their sales team discounts 30% at quarter end." },
      ),
    { actor: "user:1" },
  );
  await addMember(t.services.store, { org: "acme", email: EMAIL, role: "member", password: PASSWORD });
  mkdirSync(ARTIFACTS, { recursive: true });
}, 60_000);

afterAll(async () => {
  await b.close();
  await t?.close();
});

describe("a battlecard", () => {
  for (const width of ["desktop", "phone"] as const)
    test(`sections, notes, changes, Markdown and print at ${width} width`, async () => {
      const page = await b.signedIn(t.base, `/app/battlecards/${cardId}`, width, EMAIL, PASSWORD);
      const h2 = await page.locator("article.battlecard h2").allTextContents();
      expect(h2.slice(0, 4)).toEqual(["Overview", "Strengths", "Weaknesses", "Talk tracks"]);

      // The team's note is a note, not one of the card's facts.
      const notes = page.locator("aside.team-notes");
      expect(await notes.locator("h2").textContent()).toBe("Team notes");
      expect(await notes.textContent()).toContain("Their sales team discounts 30% at quarter end.");
      expect(await notes.textContent()).toContain("not verified fact");
      expect(await page.locator("article.battlecard > section").allTextContents()).not.toContain(
        expect.stringContaining("discounts 30%"),
      );

      // What changed since the previous version.
      const changes = page.locator("section.changes");
      expect(await changes.textContent()).toContain("1 Nov 2026");
      expect(await changes.locator("ins").allTextContents()).toEqual([
        "Added: 55 integrations",
        "Added: Ask about their Pro price cut",
      ]);
      expect(await changes.locator("del").allTextContents()).toEqual(["Removed: 40 integrations"]);

      // Copy as Markdown: the button appears with the script and fills the clipboard.
      await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: t.base });
      await page.locator("details.markdown-copy summary").click();
      const copy = page.getByRole("button", { name: "Copy as Markdown" });
      await copy.click();
      await page.waitForFunction(() => document.querySelector("button[data-copy]")?.textContent === "Copied");
      const md = (await page.evaluate("navigator.clipboard.readText()")) as string;
      expect(md).toStartWith("# Battlecard: Lumora\n");
      for (const part of [
        "## Strengths\n\n- Free tier\n- 55 integrations\n",
        "## Team notes (the team's view, not verified)\n\n",
        "> Their sales team discounts 30% at quarter end.\n> — Pat, ",
        "1. [Lumora pricing](<https://lumora.example/pricing>)",
      ])
        expect(md).toContain(part);
      const download = await page.request.get(`${t.base}/app/battlecards/${cardId}/markdown`);
      expect(download.headers()["content-type"]).toStartWith("text/markdown");
      expect(await download.text()).toBe(md);

      expect(await axeViolations(page)).toEqual([]);
      expect(await pageOverflow(page)).toBe(0);
      await page.screenshot({ path: join(ARTIFACTS, `battlecard-${width}.png`), fullPage: true });

      // Printed: the site header, app navigation, buttons and forms are gone; the card and its notes stay.
      await page.emulateMedia({ media: "print" });
      for (const hidden of ["header.site", ".appbar", "details.markdown-copy", "button[data-print]"])
        expect(await page.locator(hidden).first().isVisible()).toBe(false);
      expect(await page.locator("aside.team-notes").isVisible()).toBe(true);
      expect(await page.locator("h1").textContent()).toBe("Battlecard: Lumora");
      if (width === "desktop") await page.pdf({ path: join(ARTIFACTS, "battlecard-print.pdf") });

      // A note added on the page: the team's (add_battlecard_note, from the web), shown with the notes.
      await page.emulateMedia({ media: "screen" });
      const text = `Seen at ${width} width: they bundle onboarding.`;
      await page.fill("#bc-note", text);
      await Promise.all([
        page.waitForLoadState("load"),
        page.locator("aside.team-notes").getByRole("button", { name: "Add note" }).click(),
      ]);
      expect(await page.locator("aside.team-notes li p.note").first().textContent()).toBe(text);
      const added = (
        await t.services.database.client.execute(
          "SELECT data, metadata FROM events WHERE type = 'BattlecardNoteAdded' ORDER BY rowid DESC LIMIT 1",
        )
      ).rows[0];
      expect(JSON.parse(String(added.data))).toMatchObject({ competitor_id: competitorId, body: text });
      expect(JSON.parse(String(added.metadata))).toMatchObject({ source: "web" });
      await page.close();
    }, 60_000);

  test("the Markdown download needs a member of the card's workspace", async () => {
    const anon = await fetch(`${t.base}/app/battlecards/${cardId}/markdown`, { redirect: "manual" });
    expect(anon.status).toBe(303);
  });
});
