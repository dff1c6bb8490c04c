// `npm run screenshots [-- --out <folder>]`: every page of the site at phone (390×844) and desktop (1280×900)
// width, as full-page PNGs in a folder (default `screenshots/`, git-ignored), for a person to look at. The pages are
// served by the real app on a loopback port from a temp database holding a sample workspace (scripts/
// sampleWorkspace.ts: 6 competitors, 150 signals, a battlecard with two versions), read by the bundled Chromium
// (test/support/browser.ts) signed in as a member. Each page is also checked with axe-core; serious and critical
// violations are listed, and the exit code is 1 when there are any.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { handle } from "../events/command.ts";
import { createApp } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";
import { addBattlecardNote, addSignalNote, pinSignal } from "../src/domain/engagement.ts";
import { importNdjson } from "../src/domain/imports.ts";
import { addMember } from "../src/domain/members.ts";
import { openServices } from "../src/services.ts";
import { launchChromium } from "../test/support/browser.ts";
import { sampleWorkspace } from "./sampleWorkspace.ts";

const args = process.argv.slice(2);
const outArg = args.indexOf("--out");
const OUT = resolve(outArg >= 0 && args[outArg + 1] ? args[outArg + 1] : "screenshots");
const WIDTHS = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 900 } };
const EMAIL = "pat@bench.example";
const PASSWORD = "a long enough password";
const AXE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "rivals-screenshots-"));
  const server = Bun.serve({ port: 0, fetch: () => new Response() });
  const port = server.port;
  server.stop(true);
  const config = loadConfig({
    RIVALS_DB: `file:${join(dir, "rivals.db")}`,
    PORT: String(port),
    RIVALS_BASE_URL: `http://127.0.0.1:${port}`,
  });
  const s = await openServices(config, () => new Date("2026-11-20T12:00:00Z"));
  const { app } = createApp(s);
  app.listen({ port, hostname: "127.0.0.1" });
  const base = config.baseUrl;
  let failures = 0;
  try {
    const lines = [...sampleWorkspace({ competitors: 6, signals: 150 })].map((r) => JSON.stringify(r));
    const report = await importNdjson(s.store, lines.join("\n"), "screenshots");
    if (report.errors.length) throw new Error(`import failed: ${JSON.stringify(report.errors.slice(0, 3))}`);
    const q = async (sql: string) => (await s.database.client.execute(sql)).rows;
    const orgId = Number((await q("SELECT id FROM orgs WHERE slug = 'bench'"))[0].id);
    const c0 = Number((await q("SELECT id FROM competitors WHERE key = 'c0'"))[0].id);
    const card = Number((await q("SELECT id FROM battlecards"))[0].id);
    const open = (await q("SELECT id FROM signals WHERE listed = 1 ORDER BY first_seen_at DESC LIMIT 3")).map(
      (r) => Number(r.id),
    );
    const caller = { orgId, actor: "user:screenshots", actorName: "Sam" };
    await s.store.execute((w) => handle(pinSignal, w, caller, { signal_id: open[1], pinned: true }), {});
    await s.store.execute(
      (w) =>
        handle(addSignalNote, w, caller, { signal_id: open[0], body: "Ask prospects about this on calls." }),
      {},
    );
    await s.store.execute(
      (w) =>
        handle(addBattlecardNote, w, caller, {
          competitor_id: c0,
          body: "They discount 30% at quarter end.",
        }),
      {},
    );
    await addMember(s.store, { org: "bench", email: EMAIL, role: "admin", password: PASSWORD });

    const pages: [string, string][] = [
      ["home", "/"],
      ["pricing", "/pricing"],
      ["free-brief", "/free-brief"],
      ["briefs", "/briefs"],
      ["signin", "/signin"],
      ["feed", "/app"],
      ["feed-filtered", "/app?category=pricing&severity=high"],
      ["signal", `/app/signals/${open[0]}`],
      ["competitors", "/app/competitors"],
      ["competitor", `/app/competitors/${c0}`],
      ["compare", "/app/compare"],
      ["start", "/app/start"],
      ["battlecard", `/app/battlecards/${card}`],
      ["digests", "/app/digests"],
      ["settings-monitoring", "/app/settings/monitoring"],
      ["settings-integrations", "/app/settings/integrations"],
      ["settings-members", "/app/settings/members"],
      ["settings-account", "/app/settings/account"],
      ["developers", "/developers"],
      ["guides", "/guides"],
    ];
    mkdirSync(OUT, { recursive: true });
    for (const [width, viewport] of Object.entries(WIDTHS)) {
      const profile = mkdtempSync(join(tmpdir(), "rivals-chromium-"));
      const context = await launchChromium(profile, viewport);
      try {
        const page = await context.newPage();
        await page.goto(`${base}/signin`);
        await page.fill('input[name="email"]', EMAIL);
        await page.fill('input[name="password"]', PASSWORD);
        await Promise.all([page.waitForURL(/\/app/), page.click('form[action="/signin"] button')]);
        for (const [name, path] of pages) {
          const res = await page.goto(`${base}${path}`);
          if (res?.status() !== 200) throw new Error(`${path} answered ${res?.status()}`);
          await page.evaluate(AXE);
          const axe = (await page.evaluate("axe.run(document, { resultTypes: ['violations'] })")) as {
            violations: { id: string; impact: string | null; nodes: unknown[] }[];
          };
          const bad = axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
          for (const v of bad) console.log(`  ${name} (${width}): ${v.impact} ${v.id} ×${v.nodes.length}`);
          failures += bad.length;
          const file = join(OUT, `${name}-${width}.png`);
          await page.screenshot({ path: file, fullPage: true });
          console.log(`${file}`);
        }
      } finally {
        await context.close();
        rmSync(profile, { recursive: true, force: true });
      }
    }
  } finally {
    await app.stop(true);
    s.close();
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(
    failures
      ? `${failures} serious or critical accessibility violations`
      : "no serious or critical violations",
  );
  process.exit(failures ? 1 : 0);
}

await main();
