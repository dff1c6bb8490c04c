// The binary's data commands: import (file and stdin), bad lines, export → import round trip,
// projections rebuild — each checked through the API the binary serves.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { e2eSuite, fixtureLines, ndjson, type Server, type Workspace, workspace } from "./harness.ts";

/** Every endpoint and the interesting filters, for comparing two servers byte for byte. */
async function snapshot(
  server: Server,
  key: string,
): Promise<Record<string, { status: number; body: string }>> {
  const paths = [
    "/api/v1/competitors",
    "/api/v1/signals",
    "/api/v1/signals?per_page=5&page=2",
    "/api/v1/signals?q=pricing",
    "/api/v1/signals?severity=high",
    "/api/v1/signals?since=2026-10-15T00:00:00Z",
    "/api/v1/digests",
    "/api/v1/digests/week-45",
    "/api/v1/battlecards",
  ];
  const competitors = (await (await server.get("/api/v1/competitors", key)).json()).data as { id: number }[];
  for (const c of competitors)
    paths.push(
      `/api/v1/competitors/${c.id}`,
      `/api/v1/signals?competitor_id=${c.id}`,
      `/api/v1/battlecards/${c.id}`,
    );
  const signals = (await (await server.get("/api/v1/signals?per_page=50", key)).json()).data as {
    id: number;
  }[];
  for (const s of signals) paths.push(`/api/v1/signals/${s.id}`);
  const out: Record<string, { status: number; body: string }> = {};
  for (const p of paths) {
    const r = await server.get(p, key);
    // A problem body carries this request's id; everything else must match.
    out[p] = { status: r.status, body: (await r.text()).replace(/"request_id":"[^"]*"/, '"request_id":"…"') };
  }
  return out;
}

e2eSuite("rivals binary: import, export, rebuild", () => {
  let ws: Workspace;
  let key: string;
  const BASE = { RIVALS_BASE_URL: "http://rivals.test" };

  beforeAll(async () => {
    ws = workspace("data");
    await ws.ok(["org", "create", "--slug", "acme", "--name", "Acme", "--plan", "growth"]);
    key = (await ws.ok(["key", "create", "--org", "acme", "--name", "e2e"])).token;
  });
  afterAll(() => ws?.close());

  test("import from a file reports what it applied; the same file again changes nothing", async () => {
    const lines = fixtureLines("acme");
    const file = join(ws.dir, "records.ndjson");
    writeFileSync(file, ndjson(lines));
    const first = await ws.ok(["import", file]);
    expect(first).toEqual({ lines: lines.length, applied: lines.length, unchanged: 0, failed: 0 });
    const again = await ws.ok(["import", "records.ndjson"]); // relative to the working directory too
    expect(again).toEqual({ lines: lines.length, applied: 0, unchanged: lines.length, failed: 0 });
  });

  test("import from stdin (-) adds and updates records", async () => {
    const r = await ws.ok(["import", "-"], {
      stdin: ndjson([
        { kind: "competitor", org: "acme", key: "hooli", name: "Hooli", priority: 9 },
        {
          kind: "signal",
          org: "acme",
          key: "s1",
          competitor: "globex",
          title: "Hiring push 1, now bigger",
          severity: "high",
          first_seen_at: "2026-10-11T08:00:00Z",
        },
      ]),
    });
    expect(r).toEqual({ lines: 2, applied: 2, unchanged: 0, failed: 0 });
    const server = await ws.serve();
    try {
      const comps = (await (await server.get("/api/v1/competitors", key)).json()).data;
      expect(comps.map((c: { name: string }) => c.name)).toContain("Hooli");
      const found = (await (await server.get("/api/v1/signals?q=now%20bigger", key)).json()).data;
      expect(found.map((s: { title: string }) => s.title)).toEqual(["Hiring push 1, now bigger"]);
    } finally {
      await server.stop();
    }
  });

  test("a bad line is reported with its line number, stores nothing, and the command fails", async () => {
    const before = (await ws.run(["export"])).stdout.split("\n").filter(Boolean).length;
    const text = [
      JSON.stringify({ kind: "signal", org: "acme", key: "good-1", competitor: "globex", title: "Good one" }),
      JSON.stringify({
        kind: "signal",
        org: "acme",
        key: "bad-1",
        competitor: "globex",
        title: "Bad severity line",
        severity: "catastrophic",
      }),
      "",
      "{not json",
      JSON.stringify({
        kind: "signal",
        org: "acme",
        key: "bad-2",
        competitor: "nobody",
        title: "Orphan line",
      }),
      JSON.stringify({
        kind: "signal",
        org: "acme",
        key: "good-2",
        competitor: "initech",
        title: "Good two",
      }),
    ].join("\n");
    const r = await ws.run(["import", "-"], { stdin: text });
    expect(r.code).not.toBe(0);
    expect(r.json()).toEqual([{ lines: 5, applied: 2, unchanged: 0, failed: 3 }]);
    const errors = r.stderr.trim().split("\n");
    expect(errors).toHaveLength(3);
    expect(errors[0]).toStartWith("line 2: ");
    expect(errors[0]).toContain("severity");
    expect(errors[1]).toStartWith("line 4: ");
    expect(errors[2]).toStartWith("line 5: ");
    expect(errors[2]).toContain("nobody");

    const after = (await ws.run(["export"])).stdout;
    expect(after.split("\n").filter(Boolean).length).toBe(before + 2);
    expect(after).not.toContain("bad-1");
    expect(after).not.toContain("Orphan line");
    const server = await ws.serve();
    try {
      for (const q of ["Bad%20severity", "Orphan"])
        expect((await (await server.get(`/api/v1/signals?q=${q}`, key)).json()).data).toEqual([]);
      expect((await (await server.get("/api/v1/signals?q=Good", key)).json()).data).toHaveLength(2);
    } finally {
      await server.stop();
    }
  });

  test("a missing import file fails with a message", async () => {
    const r = await ws.run(["import", "no-such-file.ndjson"]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("no-such-file.ndjson");
  });

  test("export, then import into an empty database, serves identical API responses", async () => {
    const exported = await ws.run(["export"]);
    expect(exported.code).toBe(0);
    const events = exported.json();
    expect(events.length).toBeGreaterThan(10);
    expect(events[0]).toMatchObject({ type: "OrgCreated" });
    for (let i = 1; i < events.length; i++)
      expect(events[i].position).toBeGreaterThan(events[i - 1].position);

    const fresh = workspace("replay");
    try {
      writeFileSync(join(fresh.dir, "export.ndjson"), exported.stdout);
      const imported = await fresh.ok(["import", "export.ndjson"]);
      expect(imported).toEqual({ lines: events.length, applied: events.length, unchanged: 0, failed: 0 });
      // The replayed log is the same log.
      const reExported = (await fresh.run(["export"])).json();
      expect(reExported.map((e) => [e.type, e.org_id, e.stream_id, e.stream_version, e.data])).toEqual(
        events.map((e) => [e.type, e.org_id, e.stream_id, e.stream_version, e.data]),
      );

      const [a, b] = await Promise.all([ws.serve(BASE), fresh.serve(BASE)]);
      try {
        const [sa, sb] = await Promise.all([snapshot(a, key), snapshot(b, key)]);
        expect(Object.keys(sa).length).toBeGreaterThan(20);
        expect(sa["/api/v1/competitors"].status).toBe(200);
        expect(sa["/api/v1/digests/week-45"].status).toBe(200);
        expect(sb).toEqual(sa);
        expect(JSON.stringify(sa)).not.toContain("never served"); // `internal` is stored, never shown
      } finally {
        await Promise.all([a.stop(), b.stop()]);
      }
    } finally {
      await fresh.close();
    }
  });

  test("export --org writes only that org's events", async () => {
    await ws.ok(["org", "create", "--slug", "other", "--name", "Other", "--plan", "growth"]);
    const all = (await ws.run(["export"])).json();
    const acme = await ws.run(["export", "--org", "acme"]);
    expect(acme.code).toBe(0);
    const lines = acme.json();
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.length).toBeLessThan(all.length);
    expect(new Set(lines.map((e) => e.org_id)).size).toBe(1);
    const missing = await ws.run(["export", "--org", "nope"]);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain("nope");
  });

  test("projections rebuild replays the log into the same API responses", async () => {
    let server = await ws.serve(BASE);
    const before = await snapshot(server, key);
    await server.stop();
    const r = await ws.ok(["projections", "rebuild"]);
    expect(r.events).toBe((await ws.run(["export"])).json().length);
    server = await ws.serve(BASE);
    try {
      expect(await snapshot(server, key)).toEqual(before);
    } finally {
      await server.stop();
    }
  });

  test("projections rebuild under a running server: the server sees the rebuilt tables", async () => {
    const server = await ws.serve(BASE);
    try {
      const before = await snapshot(server, key);
      await ws.ok(["projections", "rebuild"]);
      expect(await snapshot(server, key)).toEqual(before);
    } finally {
      await server.stop();
    }
  });
});
