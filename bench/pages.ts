// `npm run bench:pages` (not run by CI): server time of the app's pages for a workspace with 50 competitors and
// 10,000 signals.
//
// 1. Builds a temp database through the real import path (importNdjson → the single writer, batched): 50
//    researched competitors (pricing plans, hiring by department, 40 integrations, a tech stack, release cadence,
//    risk and opportunity) and 10,000 signals over them (five categories and types, three severities, a fifth of
//    them closed, spread over 180 days), a battlecard with two versions and a team note, 10 pinned signals.
// 2. Signs a member in (a real session) and asks the app for each page in-process (`app.handle`: the whole
//    request — session, queries, rendering — without a socket), RUNS times each after WARM warm-up requests.
// 3. Reports the median and 95th percentile per page twice: with the read cache warm (the same page asked
//    again while nothing changed) and cold (a team action — a pin toggled — between requests, so every cached
//    read is thrown away, as after each write in a live workspace).
// Env: BENCH_RUNS (default 60), BENCH_SIGNALS (default 10000).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { handle } from "../events/command.ts";
import { sampleWorkspace } from "../scripts/sampleWorkspace.ts";
import { createApp } from "../src/app.ts";
import { createSession } from "../src/auth/session.ts";
import { loadConfig } from "../src/config.ts";
import { addBattlecardNote, pinSignal } from "../src/domain/engagement.ts";
import { importNdjson } from "../src/domain/imports.ts";
import { addMember } from "../src/domain/members.ts";
import { openServices } from "../src/services.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 60);
const WARM = 10;
const SIGNALS = Number(process.env.BENCH_SIGNALS ?? 10_000);
const COMPETITORS = 50;
async function main() {
  const dir = mkdtempSync(join(tmpdir(), "rivals-bench-pages-"));
  const now = new Date("2026-11-20T12:00:00Z");
  const config = loadConfig({
    RIVALS_DB: `file:${join(dir, "rivals.db")}`,
    PORT: "0",
    RIVALS_BASE_URL: "http://127.0.0.1:1",
  });
  const s = await openServices(config, () => now);
  try {
    const t0 = performance.now();
    let batch: string[] = [];
    const flush = async () => {
      const r = await importNdjson(s.store, batch.join("\n"), "bench");
      if (r.errors.length) throw new Error(`import failed: ${JSON.stringify(r.errors.slice(0, 3))}`);
      batch = [];
    };
    for (const rec of sampleWorkspace({ competitors: COMPETITORS, signals: SIGNALS })) {
      batch.push(JSON.stringify(rec));
      if (batch.length >= 1000) await flush();
    }
    if (batch.length) await flush();
    const q = async (sql: string) => (await s.database.client.execute(sql)).rows;
    const orgId = Number((await q("SELECT id FROM orgs WHERE slug = 'bench'"))[0].id);
    const c0 = Number((await q("SELECT id FROM competitors WHERE key = 'c0'"))[0].id);
    const card = Number((await q("SELECT id FROM battlecards"))[0].id);
    const signalIds = (await q("SELECT id FROM signals WHERE listed = 1 ORDER BY id LIMIT 11")).map((r) =>
      Number(r.id),
    );
    const caller = { orgId, actor: "user:bench", actorName: "Bench" };
    for (const id of signalIds.slice(0, 10))
      await s.store.execute((w) => handle(pinSignal, w, caller, { signal_id: id, pinned: true }), {
        actor: caller.actor,
      });
    await s.store.execute(
      (w) => handle(addBattlecardNote, w, caller, { competitor_id: c0, body: "Discounts at quarter end." }),
      { actor: caller.actor },
    );
    const { user_id: userId } = await addMember(s.store, {
      org: "bench",
      email: "bench@bench.example",
      role: "member",
      password: "a long enough password",
    });
    const { token } = await createSession(s, userId);
    console.log(
      `loaded ${COMPETITORS} competitors and ${SIGNALS} signals in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );

    const { app } = createApp(s);
    const cookie = `rivals_session=${token}`;
    const pages: [string, string][] = [
      ["feed", "/app"],
      ["feed, category filter", "/app?category=pricing"],
      ["feed, type + severity + dates", "/app?type=hiring_surge&severity=high&from=2026-08-01&to=2026-10-31"],
      ["feed, page 50", "/app?page=50"],
      ["compare", "/app/compare"],
      ["compare, sorted", "/app/compare?sort=entry_price&dir=desc"],
      ["compare CSV", "/app/compare.csv"],
      ["competitors", "/app/competitors"],
      ["competitor page", `/app/competitors/${c0}`],
      ["competitor page, timeline filter", `/app/competitors/${c0}?tcat=hiring`],
      ["signal page", `/app/signals/${signalIds[0]}`],
      ["battlecard", `/app/battlecards/${card}`],
    ];
    const ask = async (path: string) => {
      const res = await app.handle(new Request(`http://127.0.0.1${path}`, { headers: { cookie } }));
      if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
      await res.arrayBuffer();
    };
    const toggle = signalIds[10];
    let pinned = false;
    const write = () => {
      pinned = !pinned;
      return s.store.execute((w) => handle(pinSignal, w, caller, { signal_id: toggle, pinned }), {
        actor: caller.actor,
      });
    };
    const stats = (xs: number[]) => {
      const sorted = [...xs].sort((a, b) => a - b);
      return { median: sorted[Math.floor(sorted.length / 2)], p95: sorted[Math.floor(sorted.length * 0.95)] };
    };
    const rows: string[] = [];
    for (const [name, path] of pages) {
      for (let i = 0; i < WARM; i++) await ask(path);
      const warm: number[] = [];
      const cold: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        let t = performance.now();
        await ask(path);
        warm.push(performance.now() - t);
        await write();
        t = performance.now();
        await ask(path);
        cold.push(performance.now() - t);
      }
      const w = stats(warm);
      const c = stats(cold);
      rows.push(
        `| ${name.padEnd(34)} | ${w.median.toFixed(1).padStart(6)} | ${w.p95.toFixed(1).padStart(6)} | ${c.median.toFixed(1).padStart(6)} | ${c.p95.toFixed(1).padStart(6)} |`,
      );
    }
    console.log(`\nserver time per page, ms (${RUNS} runs each; cold = after a write)\n`);
    console.log(`| ${"page".padEnd(34)} | warm median | warm p95 | cold median | cold p95 |`);
    console.log(`| ${"-".repeat(34)} | ---: | ---: | ---: | ---: |`);
    for (const r of rows) console.log(r);
  } finally {
    s.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
