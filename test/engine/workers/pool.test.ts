// The extraction pool's room (a caller about to read a body waits while the pool's backlog is at its bound, and
// goes on once tasks finish) and its idle workers' end (real Workers running the real extraction).
import { afterAll, expect, test } from "bun:test";
import { workerEntry } from "../../../src/engine/workers/extract.ts";
import { WorkerPool } from "../../../src/engine/workers/pool.ts";

const pool = new WorkerPool<unknown, unknown, unknown, unknown>(
  workerEntry(new URL("../../../src/engine/workers/extract.ts", import.meta.url).href),
  1,
);
afterAll(() => pool.close());

const page = (i: number) => ({
  snapshot: true,
  html: `<html><head><title>Page ${i}</title></head><body><main><h1>Plans</h1><p>Team $${i} a month.</p></main></body></html>`,
  url: `https://example.com/${i}`,
  sourceUrl: `https://example.com/${i}`,
});

test("room() passes below the bound, waits at it, and goes on once the backlog falls below it", async () => {
  await pool.room(4);
  const tasks = Array.from({ length: 6 }, (_, i) => pool.run(page(i)));
  expect(pool.pending).toBe(6);
  let passed = -1;
  const waiting = pool.room(4).then(() => {
    passed = pool.pending;
  });
  await Bun.sleep(0);
  expect(passed).toBe(-1);
  await waiting;
  expect(passed).toBe(3);
  await Promise.all(tasks);
  expect(pool.pending).toBe(0);
  await pool.room(1);
});

test("a closed pool lets every waiter go", async () => {
  const p = new WorkerPool<unknown, unknown>(
    workerEntry(new URL("../../../src/engine/workers/extract.ts", import.meta.url).href),
    1,
  );
  const task = p.run(page(1)).catch((e) => String(e));
  const waiting = p.room(1);
  p.close();
  await waiting;
  expect(await task).toContain("closed");
});

test("workers idle for idleMs end, and the next task starts one again", async () => {
  const p = new WorkerPool<unknown, { hash: string }>(
    workerEntry(new URL("../../../src/engine/workers/extract.ts", import.meta.url).href),
    1,
    { idleMs: 50 },
  );
  try {
    const first = await p.run(page(1));
    expect(p.workers).toBe(1);
    const deadline = Date.now() + 5000;
    while (p.workers > 0 && Date.now() < deadline) await Bun.sleep(20);
    expect(p.workers).toBe(0);
    expect((await p.run(page(1))).hash).toBe(first.hash);
    expect(p.workers).toBe(1);
  } finally {
    p.close();
  }
});

test("a task that asks gets its caller's answer; one whose question fails, or that no one answers, fails with why", async () => {
  const changed = {
    ...page(7),
    latestHash: "another",
    compare: {
      competitor: { id: 1, name: "Example" },
      observedAt: "2026-11-21T12:00:00.000Z",
      pageKind: "pricing",
    },
  };
  const questions: unknown[] = [];
  const answered = await pool.run(changed, async (q) => {
    questions.push(q);
    return { versions: [] };
  });
  expect(questions).toEqual(["history"]);
  // No stored version to compare with: the snapshot is a baseline.
  expect(answered).toMatchObject({ first: true });
  expect(
    await pool.run(changed, async () => Promise.reject(new Error("the database is gone"))).catch(String),
  ).toContain("the database is gone");
  expect(await pool.run(changed).catch(String)).toContain("nothing answers it");
  // The worker is free for the next task after each.
  expect(await pool.run(page(8))).toMatchObject({ first: true });
});
