// The snapshot store on a real libSQL file: content-addressed and compressed, an unchanged source adds nothing,
// the last N versions per source are kept and unreferenced blobs collected, every read scoped by org and
// served by an index, writes through the single writer (no SQLITE_BUSY under concurrent use).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Client, createClient, type InStatement, type Transaction } from "@libsql/client";
import { EventStore } from "../../../events/store.ts";
import { projectAll } from "../../../projections/index.ts";
import { loadConfig } from "../../../src/config.ts";
import { createOrg } from "../../../src/domain/orgs.ts";
import { compare, normalise, serialise, snapshotHash } from "../../../src/engine/compare/index.ts";
import { seenKey } from "../../../src/engine/compare/seen.ts";
import type { Snapshot } from "../../../src/engine/compare/types.ts";
import {
  compareWithHistory,
  type PutInput,
  planPriceHistory,
  readHistory,
  SnapshotStore,
  type SourceRef,
  snapshotStoreFor,
} from "../../../src/engine/snapshots/index.ts";
import { openServices, type Services } from "../../../src/services.ts";
import { basePage, setText, variant } from "../../support/engine-compare-fixture.ts";

let dir: string;
let s: Services;
let store: SnapshotStore;
let orgA: number;
let orgB: number;
const clock = { now: new Date("2026-11-20T12:00:00Z") };
const tick = () => {
  clock.now = new Date(clock.now.getTime() + 60_000);
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "rivals-snapshots-"));
  s = await openServices(
    loadConfig({ RIVALS_DB: `file:${join(dir, "rivals.db")}`, PORT: "0", RIVALS_SNAPSHOTS_KEPT: "3" }),
    () => clock.now,
  );
  store = snapshotStoreFor(s);
  orgA = (await createOrg(s.store, { slug: "acme", name: "Acme", plan: "growth" })).id;
  orgB = (await createOrg(s.store, { slug: "bravo", name: "Bravo", plan: "growth" })).id;
});
afterAll(() => {
  s.close();
  rmSync(dir, { recursive: true, force: true });
});

const count = async (sql: string, args: (string | number)[] = []) =>
  Number((await s.database.client.execute({ sql, args })).rows[0].n);
const blobs = () => count("SELECT COUNT(*) AS n FROM snapshot_blobs");
const blobBytes = () => count("SELECT COALESCE(SUM(LENGTH(data)), 0) AS n FROM snapshot_blobs");
const versions = (org: number) =>
  count("SELECT COUNT(*) AS n FROM snapshot_versions WHERE org_id = ?", [org]);

const ref = (org: number, url: string, competitorId = 7): SourceRef => ({
  orgId: org,
  competitorId,
  url,
  kind: "page",
});
const page = (n: number): Snapshot =>
  normalise(variant((p) => setText(p, "We help", `We help teams ship faster, version ${n}.`)));

test("the configured number of versions kept comes from RIVALS_SNAPSHOTS_KEPT (default 20)", () => {
  expect(store.kept).toBe(3);
  expect(loadConfig({}).snapshotsKept).toBe(20);
  expect(() => loadConfig({ RIVALS_SNAPSHOTS_KEPT: "0" })).toThrow(/RIVALS_SNAPSHOTS_KEPT/);
});

describe("dedup", () => {
  test("an unchanged source adds no version and no bytes: only last_checked_at and the validators move", async () => {
    const r = ref(orgA, "https://globex.example/dedup");
    const first = await store.put({ ...r, snapshot: normalise(basePage()), etag: '"v1"' });
    expect(first).toMatchObject({ changed: true, previousHash: null, pruned: 0 });
    const [v0, b0, bytes0] = [await versions(orgA), await blobs(), await blobBytes()];
    tick();
    // The same page with only noise (dates, counters, a new build hash): the same content.
    const noisy = variant((p) => {
      setText(p, "Join", "Join 13,002 happy customers — last deploy 2 minutes ago");
      setText(p, "©", "© 2026 Globex Inc. All rights reserved. Build 0f0e0d0c");
    });
    const again = await store.put({
      ...r,
      snapshot: normalise(noisy),
      etag: '"v2"',
      lastModified: "Fri, 20 Nov 2026",
    });
    expect(again).toMatchObject({ changed: false, hash: first.hash, versionId: null });
    expect([await versions(orgA), await blobs(), await blobBytes()]).toEqual([v0, b0, bytes0]);
    const src = await store.source(r);
    expect(src).toMatchObject({
      latestHash: first.hash,
      etag: '"v2"',
      lastModified: "Fri, 20 Nov 2026",
      lastCheckedAt: clock.now.toISOString(),
      lastChangedAt: "2026-11-20T12:00:00.000Z",
    });
  });

  test("content is stored compressed and keyed by the SHA-256 of its serialisation; it reads back equal", async () => {
    const r = ref(orgA, "https://globex.example/roundtrip");
    const snap = page(1);
    const put = await store.put({
      ...r,
      snapshot: snap,
      status: 200,
      finalUrl: "https://globex.example/roundtrip/",
    });
    const expected = new Bun.CryptoHasher("sha256").update(serialise(snap)).digest("hex");
    expect(put.hash).toBe(expected);
    const row = (
      await s.database.client.execute({
        sql: "SELECT codec, size, LENGTH(data) AS stored FROM snapshot_blobs WHERE hash = ?",
        args: [put.hash],
      })
    ).rows[0];
    expect(row.codec).toBe("zstd");
    expect(Number(row.size)).toBe(serialise(snap).length);
    expect(Number(row.stored)).toBeLessThan(Number(row.size) / 2);
    const [v] = await store.latest(r);
    expect(v).toMatchObject({ hash: put.hash, status: 200, finalUrl: "https://globex.example/roundtrip/" });
    expect(v.snapshot).toEqual(snap);
  });

  test("identical content in two sources (even of two workspaces) is one blob", async () => {
    const before = await blobs();
    const snap = page(100);
    await store.put({ ...ref(orgA, "https://globex.example/shared-1"), snapshot: snap });
    await store.put({ ...ref(orgB, "https://globex.example/shared-1"), snapshot: snap });
    expect(await blobs()).toBe(before + 1);
  });

  test("a value that comes back (A → B → A) adds a version but reuses the stored blob", async () => {
    const r = ref(orgA, "https://globex.example/aba");
    const before = await blobs();
    await store.put({ ...r, snapshot: page(201) });
    await store.put({ ...r, snapshot: page(202) });
    const back = await store.put({ ...r, snapshot: page(201) });
    expect(back.changed).toBe(true);
    expect(await blobs()).toBe(before + 2);
    expect((await store.latest(r)).map((v) => v.snapshot)).toEqual([page(201), page(202), page(201)]);
  });
});

describe("retention and garbage collection", () => {
  test("the last N versions per source are kept, newest first; the blobs of dropped ones are deleted", async () => {
    const r = ref(orgA, "https://globex.example/retention");
    const before = await blobs();
    const results = [];
    for (let n = 1; n <= 5; n++) {
      tick();
      results.push(await store.put({ ...r, snapshot: page(300 + n) }));
    }
    expect(results.map((x) => x.pruned)).toEqual([0, 0, 0, 1, 1]);
    expect(results.map((x) => x.blobsDeleted)).toEqual([0, 0, 0, 1, 1]);
    const kept = await store.latest(r);
    expect(kept.map((v) => v.snapshot)).toEqual([page(305), page(304), page(303)]);
    expect(await blobs()).toBe(before + 3);
    expect((await store.latest(r, 1)).map((v) => v.snapshot)).toEqual([page(305)]);
  });

  test("storedHistory(): the latest version whole, and what every kept version showed (the rotation rule's input)", async () => {
    const r = ref(orgA, "https://globex.example/history");
    expect(readHistory(await store.storedHistory(r))).toMatchObject({ previous: null });
    for (let n = 1; n <= 4; n++) {
      tick();
      await store.put({ ...r, snapshot: page(600 + n) });
    }
    const line = (n: number) => seenKey.line(`p\u0001We help teams ship faster, version ${n}.`);
    const check = async () => {
      const { previous, seen } = readHistory(await store.storedHistory(r));
      expect(previous).toEqual(page(604));
      // three kept versions (RIVALS_SNAPSHOTS_KEPT=3): the pruned first one is no longer "seen"
      expect([601, 602, 603, 604].map((n) => seen.has(line(n)))).toEqual([false, true, true, true]);
      // a page that goes back to an older kept text shows nothing new; back to a pruned one, the change
      expect(compare(page(604), page(602), seen)).toEqual([]);
      expect(compare(page(604), page(601), seen).map((c) => c.kind)).toEqual(["text_changed"]);
    };
    // Each version's digest is stored beside its blob: only the latest version's content is read and parsed.
    const digests = await s.database.client.execute({
      sql: `SELECT b.seen FROM snapshot_versions v JOIN snapshot_blobs b ON b.hash = v.hash
            JOIN snapshot_sources s ON s.id = v.source_id WHERE s.org_id = ? AND s.url = ?`,
      args: [orgA, r.url],
    });
    expect(digests.rows.map((row) => row.seen instanceof ArrayBuffer)).toEqual([true, true, true]);
    const contentOf = async () => (await store.storedHistory(r)).versions.map((v) => v.data !== null);
    expect(await contentOf()).toEqual([true, false, false]);
    await check();
    // Blobs stored before digests existed (NULL) are read and parsed instead, with the same answers.
    await s.database.client.execute("UPDATE snapshot_blobs SET seen = NULL");
    expect(await contentOf()).toEqual([true, true, true]);
    await check();
  });

  test("versions from the past (web-archive captures) stay behind the latest, in time order", async () => {
    const r = ref(orgA, "https://globex.example/past", 9);
    await store.put({ ...r, snapshot: page(1) });
    const live = (await store.source(r))!;
    const latest = String(live.latestHash);
    await store.putPast({
      ...r,
      snapshot: page(2),
      observedAt: new Date("2025-03-01T00:00:00Z"),
      capture: "20250301000000",
    });
    await store.putPast({
      ...r,
      snapshot: page(3),
      observedAt: new Date("2025-01-01T00:00:00Z"),
      capture: "20250101000000",
    });
    // The source's latest is still the live read; the versions read newest first by when they were observed.
    expect((await store.source(r))?.latestHash).toBe(latest);
    expect((await store.latest(r)).map((v) => v.observedAt)).toEqual([
      live.lastCheckedAt,
      "2025-03-01T00:00:00.000Z",
      "2025-01-01T00:00:00.000Z",
    ]);
    expect(readHistory(await store.storedHistory(r)).previous).toEqual(page(1));
    // What a version observed at a time is compared with, and what follows it.
    const before = await store.historyBefore(r, "2025-03-01T00:00:00.000Z");
    expect(before.at).toBe(true);
    expect(before.previous?.observedAt).toBe("2025-01-01T00:00:00.000Z");
    expect((await store.firstAfter(r, "2025-03-01T00:00:00.000Z"))?.hash).toBe(latest);
    // Kept 3: a fourth, older still, is dropped at once; the newest stay.
    await store.putPast({
      ...r,
      snapshot: page(4),
      observedAt: new Date("2024-12-01T00:00:00Z"),
      capture: "20241201000000",
    });
    expect((await store.latest(r)).map((v) => v.observedAt).at(-1)).toBe("2025-01-01T00:00:00.000Z");
  });

  test("a blob another source still refers to survives pruning", async () => {
    const shared = page(400);
    const a = ref(orgA, "https://globex.example/keep-a");
    const b = ref(orgB, "https://globex.example/keep-b");
    await store.put({ ...a, snapshot: shared });
    await store.put({ ...b, snapshot: shared });
    for (let n = 1; n <= 3; n++) await store.put({ ...a, snapshot: page(400 + n) });
    expect((await store.latest(a)).some((v) => v.snapshot.blocks === shared.blocks)).toBe(false);
    expect((await store.latest(b))[0].snapshot).toEqual(shared);
  });

  test("removing a source drops its versions and the blobs only it held; gc() collects orphans", async () => {
    const r = ref(orgA, "https://globex.example/removed");
    await store.put({ ...r, snapshot: page(501) });
    await store.put({ ...r, snapshot: page(502) });
    const before = await blobs();
    expect(await store.removeSource(r)).toBe(true);
    expect(await store.source(r)).toBeNull();
    expect(await store.latest(r)).toEqual([]);
    expect(await blobs()).toBe(before - 2);
    expect(await store.removeSource(r)).toBe(false);
    await s.database.client.execute({
      sql: "INSERT INTO snapshot_blobs (hash, codec, size, data) VALUES ('orphan', 'zstd', 1, x'00')",
    });
    expect(await store.gc()).toBe(1);
    expect(await store.gc()).toBe(0);
  });
});

describe("sources: checks and failures", () => {
  test("a 304 moves last_checked_at and keeps the validators; failures count in a row and reset on success", async () => {
    const r = ref(orgA, "https://globex.example/checks");
    expect(await store.recordFailure(r, "timeout")).toBe(1);
    expect(await store.recordFailure(r, "http_error 503")).toBe(2);
    expect(await store.source(r)).toMatchObject({
      failures: 2,
      lastError: "http_error 503",
      latestHash: null,
    });
    await store.put({ ...r, snapshot: page(600), etag: '"e1"' });
    expect(await store.source(r)).toMatchObject({ failures: 0, etag: '"e1"' });
    await store.recordFailure(r, "timeout");
    tick();
    await store.recordCheck(r, { lastModified: "Sat, 21 Nov 2026 00:00:00 GMT" });
    expect(await store.source(r)).toMatchObject({
      failures: 0,
      etag: '"e1"',
      lastModified: "Sat, 21 Nov 2026 00:00:00 GMT",
      lastCheckedAt: clock.now.toISOString(),
    });
  });
});

describe("tenancy", () => {
  test("a workspace never reads another's sources or versions, even with the same competitor id and URL", async () => {
    const url = "https://globex.example/private";
    await store.put({ ...ref(orgA, url, 42), snapshot: page(700) });
    expect(await store.latest(ref(orgB, url, 42))).toEqual([]);
    expect(await store.source(ref(orgB, url, 42))).toBeNull();
    expect((await store.sources(orgB, 42)).length).toBe(0);
    expect((await store.sources(orgA, 42)).map((x) => x.url)).toEqual([url]);
    // B's first check of the same URL is B's baseline, not a change against A's content.
    const o = await observe(store, { ...ref(orgB, url, 42), snapshot: page(701) });
    expect(o).toMatchObject({ first: true, changes: [] });
    expect(await store.removeSource(ref(orgB, url, 99))).toBe(false);
    expect((await store.latest(ref(orgA, url, 42))).length).toBe(1);
    const b = await store.stats(orgB);
    expect(b.sources).toBe((await store.sources(orgB)).length);
    expect((await store.sources(orgB)).every((x) => x.orgId === orgB)).toBe(true);
    expect(b.versions).toBe(await versions(orgB));
  });
});

const JUDGE = {
  competitor: { id: 9, name: "Globex" },
  pageKind: "pricing",
  observedAt: "2026-11-21T12:00:00.000Z",
};

/** One check as the cycle makes it: compare with the stored history and classify, then store; `changes`, what the
 * comparison with the same history found. */
async function observe(st: SnapshotStore, input: PutInput & { snapshot: Snapshot }) {
  const latest = (await st.source(input))?.latestHash;
  const { previous, seen } = readHistory(await st.storedHistory(input));
  const cmp = await compareWithHistory(
    st,
    latest ? input : undefined,
    input.snapshot,
    snapshotHash(serialise(input.snapshot)),
    latest,
    JUDGE,
  );
  const put = await st.put(input);
  return {
    first: cmp.status === "baseline",
    changed: put.changed,
    changes: cmp.status === "changed" && previous ? compare(previous, input.snapshot, seen) : [],
    drafts: cmp.status === "changed" ? cmp.drafts : [],
  };
}

describe("compareWithHistory: compare with the stored history, then store", () => {
  test("baseline, a material change, noise, and a rotation back to a value already seen", async () => {
    const r = ref(orgA, "https://globex.example/pricing", 9);
    const first = await observe(store, { ...r, snapshot: normalise(basePage()) });
    expect(first).toMatchObject({ first: true, changed: true, changes: [] });
    const raised = variant((p) => {
      p.plans[1].price = 59;
    });
    const second = await observe(store, { ...r, snapshot: normalise(raised) });
    expect(second.changes.map((c) => [c.kind, c.before, c.after])).toEqual([
      ["plan_price_changed", "$49 per seat/month", "$59 per seat/month"],
    ]);
    const noisy = variant((p) => {
      p.plans[1].price = 59;
      setText(p, "Join", "Join 20,000 happy customers — last deploy 1 hour ago");
    });
    const third = await observe(store, { ...r, snapshot: normalise(noisy) });
    expect(third).toMatchObject({ first: false, changed: false, changes: [] });
    const headline = (h: string) =>
      normalise(
        variant((p) => {
          p.plans[1].price = 59;
          setText(p, "We help", h);
        }),
      );
    const fourth = await observe(store, {
      ...r,
      snapshot: headline("We help teams release with confidence."),
    });
    expect(fourth.changes.map((c) => c.kind)).toEqual(["text_changed"]);
    // The original text comes back (an A/B test): it was seen in this source's history, so it is not a change.
    const fifth = await observe(store, { ...r, snapshot: normalise(raised) });
    expect(fifth).toMatchObject({ changed: true, changes: [] });
  });
});

describe("single writer", () => {
  test("many concurrent puts and event commands never see SQLITE_BUSY", async () => {
    const work: Promise<unknown>[] = [];
    for (let i = 0; i < 40; i++) {
      work.push(store.put({ ...ref(orgA, `https://globex.example/busy/${i % 8}`), snapshot: page(800 + i) }));
      if (i % 10 === 0)
        work.push(createOrg(s.store, { slug: `busy-${i}`, name: `Busy ${i}`, plan: "growth" }));
    }
    const results = await Promise.allSettled(work);
    expect(results.filter((r) => r.status === "rejected")).toEqual([]);
    for (let i = 0; i < 8; i++)
      expect((await store.latest(ref(orgA, `https://globex.example/busy/${i}`))).length).toBe(3);
  });
});

describe("query plans", () => {
  /** A client that records every statement it (or a transaction from it) runs. */
  function recording(client: Client, seen: string[]): Client {
    const note = (stmt: InStatement) => seen.push(typeof stmt === "string" ? stmt : stmt.sql);
    return new Proxy(client, {
      get(target, prop) {
        if (prop === "execute")
          return (stmt: InStatement) => {
            note(stmt);
            return target.execute(stmt);
          };
        // The writer sends a group's writes as one batch.
        if (prop === "batch")
          return (stmts: InStatement[], mode?: "write") => {
            stmts.forEach(note);
            return target.batch(stmts, mode);
          };
        if (prop === "transaction")
          return async (mode: "write") => {
            const tx = await target.transaction(mode);
            return new Proxy(tx, {
              get(t, p) {
                if (p === "execute")
                  return (stmt: InStatement) => {
                    note(stmt);
                    return t.execute(stmt);
                  };
                if (p === "batch")
                  return (stmts: InStatement[]) => {
                    stmts.forEach(note);
                    return t.batch(stmts);
                  };
                const v = (t as unknown as Record<string | symbol, unknown>)[p];
                return typeof v === "function" ? v.bind(t) : v;
              },
            }) as Transaction;
          };
        const v = (target as unknown as Record<string | symbol, unknown>)[prop];
        return typeof v === "function" ? v.bind(target) : v;
      },
    });
  }

  test("every statement of put, past versions, latest, checks, failures and removal searches an index", async () => {
    const seen: string[] = [];
    const client = recording(s.database.client, seen);
    const st = new SnapshotStore({
      database: client,
      store: new EventStore(client, projectAll, () => clock.now),
      clock: () => clock.now,
      kept: 2,
    });
    const r = ref(orgA, "https://globex.example/plans", 11);
    for (let n = 0; n < 4; n++) await st.put({ ...r, snapshot: page(900 + n) });
    await st.put({ ...r, snapshot: page(903) });
    await st.latest(r);
    await st.putPast({
      ...r,
      snapshot: page(800),
      observedAt: new Date("2025-01-15T08:30:00Z"),
      capture: "20250115083000",
    });
    await st.historyBefore(r, "2025-02-01T00:00:00.000Z");
    await st.firstAfter(r, "2025-01-15T08:30:00.000Z");
    await st.sources(orgA, 11);
    await st.sources(orgA);
    await st.recordCheck(r, { etag: "x" });
    await st.recordFailure(r, "timeout");
    await st.stats(orgA);
    await st.removeSource(r);
    // Reads, updates and deletes (an INSERT has no plan to search). EXPLAIN of a statement that is not a SELECT
    // is run by libsql as a write and left open on its connection, so the plans are read on a connection of
    // their own, closed after.
    const statements = [
      // The writer's checks (events/group.ts) read again what a read read, by the same plan: the reads stand for them.
      ...new Set(
        seen.filter(
          (q) =>
            /snapshot_/.test(q) && /^\s*(SELECT|UPDATE|DELETE)/i.test(q) && !q.includes("rivals: a row read"),
        ),
      ),
    ];
    const explainer = createClient({ url: s.config.dbUrl });
    expect(statements.length).toBeGreaterThan(8);
    for (const sql of statements) {
      const args = Array.from(sql.matchAll(/\?/g), () => 1);
      const plan = await explainer.execute({ sql: `EXPLAIN QUERY PLAN ${sql}`, args });
      for (const row of plan.rows) {
        const step = String(row.detail);
        expect(step, sql).not.toMatch(/^SCAN (snapshot_\w+)( |$)/);
        expect(step, sql).not.toContain("TEMP B-TREE");
      }
    }
    explainer.close();
  });
});

describe("plan prices over time", () => {
  test("one series per plan of the competitor's pricing page, oldest first, from the kept versions", async () => {
    const competitorId = 77;
    const pricing = ref(orgA, "https://globex.example/pricing", competitorId);
    const at = (h: number) => new Date(Date.UTC(2026, 10, 20, h));
    await store.put({ ...pricing, snapshot: normalise(basePage()), observedAt: at(1) });
    await store.put({
      ...pricing,
      snapshot: normalise(
        variant((p) => {
          p.plans[1].price = 59;
        }),
      ),
      observedAt: at(2),
    });
    // Pages without plans (and a page that had none in its latest version) give no series.
    const noPlans = (n: number) =>
      normalise(
        variant((p) => {
          p.plans = [];
          setText(p, "We help", `About us, version ${n}.`);
        }),
      );
    await store.put({
      ...ref(orgA, "https://globex.example/about", competitorId),
      snapshot: noPlans(1),
      observedAt: at(3),
    });
    const blog = ref(orgA, "https://globex.example/blog", competitorId);
    await store.put({ ...blog, snapshot: normalise(basePage()), observedAt: at(1) });
    await store.put({ ...blog, snapshot: noPlans(2), observedAt: at(4) });
    const series = await planPriceHistory(store, orgA, competitorId);
    expect(series.map((x) => x.plan)).toEqual(["Enterprise", "Starter", "Team"]);
    const team = series.find((x) => x.plan === "Team")!;
    expect(team.url).toBe("https://globex.example/pricing");
    expect(team.points).toEqual([
      { at: at(1).toISOString(), price: 49, currency: "USD", period: "month", unit: "seat" },
      { at: at(2).toISOString(), price: 59, currency: "USD", period: "month", unit: "seat" },
    ]);
    expect(series.find((x) => x.plan === "Enterprise")!.points[0]).toMatchObject({
      price: null,
      custom: true,
    });
    expect(await planPriceHistory(store, orgB, competitorId)).toEqual([]);
  });
});
