// Turns at a host across instances (migration 0100): two fetchers of two instances on one libSQL server ask a
// host many competitors share no more often than its pause between them, as one fetcher alone does; without the
// shared turns, or for a host not marked shared, the same two fetchers ask it at once. On a local file no turns
// are kept (one instance).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Database, openDatabase } from "../../../src/db/client.ts";
import { migrate } from "../../../src/db/migrate.ts";
import { HostGate } from "../../../src/engine/fetch/gate.ts";
import { hostTurnsOf } from "../../../src/engine/fetch/hostTurns.ts";
import { createFetcher } from "../../../src/engine/fetch/index.ts";
import { type Sqld, startSqld } from "../../support/sqld.ts";

const PAUSE_MS = 250;
let dir: string;
let sqld: Sqld;
let dbs: Database[];
let site: ReturnType<typeof Bun.serve>;
let arrivals: number[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "rivals-turns-"));
  sqld = await startSqld(dir);
  dbs = [await openDatabase(sqld.url), await openDatabase(sqld.url)];
  await migrate(dbs[0].client);
  site = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req) {
      if (new URL(req.url).pathname === "/robots.txt") return new Response("", { status: 404 });
      arrivals.push(performance.now());
      return new Response("<p>board</p>", { headers: { "content-type": "text/html" } });
    },
  });
});
afterAll(async () => {
  for (const d of dbs) d.close();
  site.stop(true);
  await sqld.stop();
  rmSync(dir, { recursive: true, force: true });
});

const instanceFetcher = (db: Database | undefined) =>
  createFetcher({
    userAgent: "RivalsBot/1.0 (+http://rivals.test/bot)",
    delayMs: PAUSE_MS,
    rewrite: [{ from: "https://boards.test", to: `http://127.0.0.1:${site.port}` }],
    hostTurns: db ? hostTurnsOf({ database: db }) : undefined,
  });

/** Four pages each from two instances' fetchers at once: the gaps between the host's requests, in ms. `turns`:
 * the fetchers keep turns in the database; `sharedHost`: the requests say their host is a shared one. */
async function twoInstancesAsk(turns: boolean, sharedHost: boolean): Promise<number[]> {
  arrivals = [];
  const fetchers = dbs.map((db) => instanceFetcher(turns ? db : undefined));
  await Promise.all(
    fetchers.map((f, i) =>
      Promise.all(
        [0, 1, 2, 3].map(async (n) => {
          const r = await f.fetch({
            url: `https://boards.test/acme-${i}/jobs/${n}`,
            robots: false,
            sharedHost,
          });
          expect(r.ok).toBe(true);
        }),
      ),
    ),
  );
  expect(arrivals).toHaveLength(8);
  return arrivals.slice(1).map((t, i) => t - arrivals[i]);
}

test("two instances on one server keep the host's pause between them", async () => {
  const gaps = await twoInstancesAsk(true, true);
  // The turns are exact; each arrival is as late as its connection was (tens of ms on a busy machine).
  for (const g of gaps) expect(g).toBeGreaterThan(PAUSE_MS * 0.75);
  const row = await dbs[1].execute({
    sql: "SELECT next_at FROM host_turns WHERE host = ?",
    args: ["boards.test"],
  });
  expect(Number(row.rows[0]?.next_at)).toBeGreaterThan(Date.now());
});

test("without the shared turns each instance keeps only its own pause", async () => {
  expect(Math.min(...(await twoInstancesAsk(false, true)))).toBeLessThan(PAUSE_MS / 2);
  // A competitor's own host takes no turn (one instance checks a competitor at a time): no write per request.
  expect(Math.min(...(await twoInstancesAsk(true, false)))).toBeLessThan(PAUSE_MS / 2);
});

test("a local file keeps no turns: one instance, its own gate", async () => {
  const local = await openDatabase(`file:${join(dir, "local.db")}`);
  expect(hostTurnsOf({ database: local })).toBeUndefined();
  local.close();
});

test("a turn's wait: taken from the database, bounded, and a pause more when the database does not answer", async () => {
  let now = 1_000_000;
  const sleeps: number[] = [];
  const sleep = async (ms: number) => {
    sleeps.push(ms);
    now += ms;
  };
  const turns = { at: (n: number) => (n + 700) as number | Error };
  const gate = new HostGate(
    () => now,
    sleep,
    () => ({
      take: async (_host, n, pause) => {
        expect(pause).toBe(PAUSE_MS);
        const at = turns.at(n);
        if (at instanceof Error) throw at;
        return at;
      },
    }),
  );
  const run = () =>
    gate.run(
      "boards.test",
      () => PAUSE_MS,
      true,
      async () => now,
    );
  // The first request of this process waits for the turn another instance left it.
  expect(await run()).toBe(1_000_700);
  expect(sleeps).toEqual([700]);
  // A turn an hour away is a clock ahead of this one: a minute at most.
  turns.at = (n) => n + 3_600_000;
  sleeps.length = 0;
  await run();
  expect(sleeps).toEqual([PAUSE_MS, 60_000]);
  // The database does not answer: the request waits its own pause and one more.
  turns.at = () => new Error("unreachable");
  sleeps.length = 0;
  await run();
  expect(sleeps).toEqual([PAUSE_MS, PAUSE_MS]);
});
