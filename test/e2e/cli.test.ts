// The binary's command line: orgs, keys, the demo workspace, and what a user sees on bad input.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { e2eSuite, type Workspace, workspace } from "./harness.ts";

e2eSuite("rivals binary: command line", () => {
  let ws: Workspace;
  beforeAll(() => {
    ws = workspace("cli");
  });
  afterAll(() => ws?.close());

  test("migrate creates the database and says where", async () => {
    const out = await ws.ok(["migrate"]);
    expect(out).toEqual({ migrated: true, database: ws.db });
  });

  test("org create prints the new org as one JSON object", async () => {
    const org = await ws.ok(["org", "create", "--slug", "acme", "--name", "Acme", "--plan", "growth"]);
    expect(org).toMatchObject({ slug: "acme", name: "Acme", plan: "growth" });
    expect(Number.isInteger(org.id)).toBe(true);
    const withSite = await ws.ok([
      "org",
      "create",
      "--slug",
      "beta",
      "--name",
      "Beta",
      "--plan",
      "starter",
      "--website",
      "https://beta.example",
    ]);
    expect(withSite.website_url).toStartWith("https://beta.example");
  });

  test("org create twice with one slug fails with a message", async () => {
    const r = await ws.run(["org", "create", "--slug", "acme", "--name", "Again", "--plan", "growth"]);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("acme");
  });

  test("org set-plan changes the plan", async () => {
    expect(await ws.ok(["org", "set-plan", "--org", "beta", "--plan", "enterprise"])).toMatchObject({
      slug: "beta",
      plan: "enterprise",
    });
    const bad = await ws.run(["org", "set-plan", "--org", "beta", "--plan", "platinum"]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain("plan must be one of");
  });

  test("key create shows the token once; key list never shows it; revoke works on the next request", async () => {
    const created = await ws.ok(["key", "create", "--org", "acme", "--name", "ci", "--scopes", "read"]);
    expect(created.token).toStartWith("rvl_");
    expect(Number.isInteger(created.id)).toBe(true);
    expect(created.scopes).toEqual(["read"]);
    const other = await ws.ok(["key", "create", "--org", "acme"]);
    expect(other.scopes).toEqual(["read", "write", "spend"]);

    const list = await ws.run(["key", "list", "--org", "acme"]);
    expect(list.code).toBe(0);
    const keys = list.json();
    expect(keys.map((k) => k.id)).toEqual([created.id, other.id]);
    expect(keys[0]).toMatchObject({ id: created.id, name: "ci", scopes: ["read"] });
    expect(list.stdout).not.toContain(created.token);
    expect(created.token.startsWith(keys[0].prefix)).toBe(true);

    const server = await ws.serve();
    try {
      expect((await server.get("/api/v1/competitors", created.token)).status).toBe(200);
      expect((await server.get("/api/v1/competitors", other.token)).status).toBe(200);

      const revoked = await ws.ok(["key", "revoke", "--org", "acme", "--id", String(created.id)]);
      expect(revoked).toMatchObject({ id: created.id });
      expect(revoked.revoked_at).toBeString();

      const after = await server.get("/api/v1/competitors", created.token);
      expect(after.status).toBe(401);
      expect(after.headers.get("content-type")).toContain("application/problem+json");
      expect(after.headers.get("www-authenticate")).toStartWith("Bearer");
      expect((await after.json()).code).toBe("invalid_api_key");
      // The other key is untouched.
      expect((await server.get("/api/v1/competitors", other.token)).status).toBe(200);

      // A plan change from another process also applies on the next request.
      await ws.ok(["org", "set-plan", "--org", "acme", "--plan", "free"]);
      const unpaid = await server.get("/api/v1/competitors", other.token);
      expect(unpaid.status).toBe(402);
      expect((await unpaid.json()).code).toBe("paid_plan_required");
      await ws.ok(["org", "set-plan", "--org", "acme", "--plan", "growth"]);
      expect((await server.get("/api/v1/competitors", other.token)).status).toBe(200);
    } finally {
      await server.stop();
    }
    const listed = (await ws.run(["key", "list", "--org", "acme"])).json();
    expect(listed[0].revoked_at).toBeString();
    expect(listed[1].revoked_at).toBeUndefined();
  });

  test("key revoke of an unknown id fails with a message", async () => {
    const r = await ws.run(["key", "revoke", "--org", "acme", "--id", "999999"]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("999999");
    const notInt = await ws.run(["key", "revoke", "--org", "acme", "--id", "abc"]);
    expect(notInt.code).not.toBe(0);
    expect(notInt.stderr).toContain("--id");
  });

  test("demo prints a key that serves the demo workspace", async () => {
    const demoWs = workspace("demo");
    try {
      const demo = await demoWs.ok(["demo"]);
      expect(demo.api_key).toStartWith("rvl_");
      expect(demo.org).toBe("demo");
      const server = await demoWs.serve();
      try {
        const r = await server.get("/api/v1/competitors", demo.api_key);
        expect(r.status).toBe(200);
        expect(r.headers.get("ratelimit-limit")).toBe("600");
        const body = await r.json();
        expect(body.data.length).toBeGreaterThan(0);
        for (const c of body.data) expect(c.url).toBe(`${server.base}/app/competitors/${c.id}`);
        const signals = await (await server.get("/api/v1/signals", demo.api_key)).json();
        expect(signals.data.length).toBeGreaterThan(0);
        expect((await server.get("/api/v1/competitors")).status).toBe(401);
        // Conditional GET and the health check, as a load balancer and a polling client use them.
        const again = await server.get("/api/v1/competitors", demo.api_key, {
          "if-none-match": r.headers.get("etag")!,
        });
        expect(again.status).toBe(304);
        const health = await server.get("/healthz");
        expect(health.status).toBe(200);
        expect(await health.json()).toEqual({ status: "ok", version: "1.0.0" });
      } finally {
        await server.stop();
      }
    } finally {
      await demoWs.close();
    }
  });

  test("an unknown command exits non-zero and says so on stderr", async () => {
    const r = await ws.run(["frobnicate"]);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain('unknown command "frobnicate"');
  });

  test("a missing required flag names the flag", async () => {
    for (const [args, flag] of [
      [["org", "create", "--slug", "x", "--plan", "growth"], "--name"],
      [["org", "set-plan", "--plan", "growth"], "--org"],
      [["key", "create"], "--org"],
      [["key", "revoke", "--org", "acme"], "--id"],
    ] as const) {
      const r = await ws.run([...args]);
      expect(r.code).not.toBe(0);
      expect(r.stdout).toBe("");
      expect(r.stderr).toContain(`${flag} is required`);
    }
  });

  test("an unknown flag, subcommand or org is refused", async () => {
    const flag = await ws.run([
      "org",
      "create",
      "--slug",
      "x",
      "--name",
      "X",
      "--plan",
      "growth",
      "--colour",
      "red",
    ]);
    expect(flag.code).not.toBe(0);
    expect(flag.stderr).toContain("colour");
    const sub = await ws.run(["key", "rotate", "--org", "acme"]);
    expect(sub.code).not.toBe(0);
    expect(sub.stderr).toContain("key takes create, revoke or list");
    const org = await ws.run(["key", "list", "--org", "nope"]);
    expect(org.code).not.toBe(0);
    expect(org.stderr).toContain("nope");
    const proj = await ws.run(["projections", "wipe"]);
    expect(proj.code).not.toBe(0);
    expect(proj.stderr).toContain("projections takes rebuild");
  });

  test("help prints the commands", async () => {
    const r = await ws.run(["help"]);
    expect(r.code).toBe(0);
    for (const c of [
      "serve",
      "migrate",
      "demo",
      "org create",
      "key create",
      "import",
      "export",
      "projections rebuild",
    ])
      expect(r.stdout).toContain(c);
    const none = await ws.run([]);
    expect(none.code).not.toBe(0);
  });

  test("a bad environment is reported, not a stack trace", async () => {
    const r = await ws.run(["serve"], { env: { PORT: "not-a-port" } });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("PORT must be a port number");
  });

  test("an http:// or libsql:// RIVALS_DB reaches a libSQL server over HTTP (the remote client is in the binary)", async () => {
    // A stand-in for sqld that records what arrives and refuses it: enough to see the binary speak Hrana.
    const seen: { path: string; body: string }[] = [];
    const fake = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      async fetch(req) {
        seen.push({ path: new URL(req.url).pathname, body: await req.text() });
        return new Response("not today", { status: 503 });
      },
    });
    try {
      for (const url of [`http://127.0.0.1:${fake.port}`, `libsql://127.0.0.1:${fake.port}?tls=0`]) {
        seen.length = 0;
        const r = await ws.run(["migrate"], { env: { RIVALS_DB: url } });
        expect(r.code).not.toBe(0);
        expect(r.stderr).toContain("rivals:");
        expect(r.stderr).not.toContain("Cannot find module");
        expect(seen.length).toBeGreaterThan(0);
        expect(seen[0].path).toMatch(/^\/v[23]\/pipeline$/);
        expect(seen[0].body).toContain("schema_migrations");
      }
    } finally {
      fake.stop(true);
    }
  });
});
