// The service-wide limiter (src/http/rateLeases.ts) against a real sqld: the window slides a slice at a time,
// Retry-After says when the oldest counted slice leaves it, and a lease that cannot reach the database decides
// with the instance's own window instead of failing or holding the request.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Client, createClient } from "@libsql/client";
import { migrate } from "../../src/db/migrate.ts";
import { SharedRateLimiter } from "../../src/http/rateLeases.ts";
import { type Sqld, startSqld } from "../support/sqld.ts";

let dir: string;
let sqld: Sqld;
let client: Client;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "rivals-leases-"));
  sqld = await startSqld(dir);
  client = createClient({ url: sqld.url });
  await migrate(client);
});
afterAll(async () => {
  client.close();
  await sqld.stop();
  rmSync(dir, { recursive: true, force: true });
});

const clockAt = (iso: string) => {
  const c = { now: new Date(iso), advance: (ms: number) => (c.now = new Date(c.now.getTime() + ms)) };
  return c;
};

test("the window slides a tenth at a time, shared by two instances, and Retry-After names the slot", async () => {
  const clock = clockAt("2026-11-20T12:00:00Z");
  const [a, b] = [0, 1].map(() => new SharedRateLimiter(client, "slide", 10, () => clock.now));
  for (let i = 0; i < 6; i++) expect((await a.take("k")).allowed).toBe(true);
  clock.advance(30_000);
  for (let i = 0; i < 4; i++) expect((await b.take("k")).allowed).toBe(true);
  const refused = await b.take("k");
  expect(refused).toMatchObject({ allowed: false, remaining: 0 });
  // The first six units leave the window when their slice is eleven slices old: 66 s after it began.
  expect(refused.resetSeconds).toBe(36);
  expect((await a.take("k")).allowed).toBe(false);
  clock.advance(35_000);
  expect((await a.take("k")).allowed).toBe(false);
  clock.advance(1_000);
  const again = await a.take("k");
  expect(again.allowed).toBe(true);
  // Four units of the window are still counted (taken 30 s in), this one is the fifth.
  expect(again.remaining).toBe(5);
  // Another key has a budget of its own.
  expect((await b.take("other")).remaining).toBe(9);
});

test("a lease that cannot reach the database: the instance's own window decides", async () => {
  const clock = clockAt("2026-11-20T13:00:00Z");
  const down = createClient({ url: "http://127.0.0.1:9" }); // nothing listens on the discard port
  const limiter = new SharedRateLimiter(down, "down", 3, () => clock.now);
  const warn = console.error;
  const logged: string[] = [];
  console.error = (line: string) => logged.push(line);
  try {
    for (let i = 0; i < 3; i++) expect((await limiter.take("k")).allowed).toBe(true);
    expect((await limiter.take("k")).allowed).toBe(false);
  } finally {
    console.error = warn;
    down.close();
  }
  expect(logged.some((l) => l.includes("rate_lease_failed"))).toBe(true);
});
