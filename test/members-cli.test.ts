// `rivals member add` as a user runs it: a real process on a temp database, the password on stdin.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// Every password check is a deliberate argon2id computation; leave room when the whole suite runs.
setDefaultTimeout(30_000);

const dir = mkdtempSync(join(tmpdir(), "rivals-member-cli-"));
const env = { ...process.env, RIVALS_DB: `file:${join(dir, "rivals.db")}` };

async function rivals(args: string[], stdin?: string) {
  const p = Bun.spawn([process.execPath, "src/main.ts", ...args], {
    env,
    stdin: stdin === undefined ? "ignore" : new TextEncoder().encode(stdin),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([
    new Response(p.stdout).text(),
    new Response(p.stderr).text(),
    p.exited,
  ]);
  return { out, err, code };
}

beforeAll(async () => {
  const r = await rivals(["org", "create", "--slug", "acme", "--name", "Acme", "--plan", "growth"]);
  expect(r.code).toBe(0);
  await rivals(["org", "create", "--slug", "beta", "--name", "Beta", "--plan", "free"]);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("rivals member add", () => {
  test("creates the user and the membership, password from stdin", async () => {
    const r = await rivals(
      ["member", "add", "--org", "acme", "--email", "Ada@Example.com", "--role", "admin", "--password-stdin"],
      "correct horse battery\n",
    );
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out);
    expect(j).toEqual({ user_id: expect.any(Number), org: "acme", email: "ada@example.com", role: "admin" });

    const { openServices } = await import("../src/services.ts");
    const { loadConfig } = await import("../src/config.ts");
    const s = await openServices(loadConfig(env));
    try {
      const row = (
        await s.database.client.execute({
          sql: "SELECT password_hash FROM users WHERE id = ?",
          args: [j.user_id],
        })
      ).rows[0];
      expect(String(row.password_hash)).toStartWith("$argon2id$");
      expect(await Bun.password.verify("correct horse battery", String(row.password_hash))).toBe(true);
    } finally {
      s.close();
    }
  });

  test("the same person joins a second workspace as the same user", async () => {
    const a = JSON.parse((await rivals(["member", "list", "--org", "acme"])).out);
    const r = await rivals([
      "member",
      "add",
      "--org",
      "beta",
      "--email",
      "ada@example.com",
      "--role",
      "member",
    ]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ user_id: a.user_id, org: "beta", role: "member" });
  });

  test("changing the role of an existing member", async () => {
    const r = await rivals([
      "member",
      "add",
      "--org",
      "beta",
      "--email",
      "ada@example.com",
      "--role",
      "admin",
    ]);
    expect(JSON.parse(r.out).role).toBe("admin");
    const list = (await rivals(["member", "list", "--org", "beta"])).out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ email: "ada@example.com", role: "admin" });
  });

  test.each([
    [["--org", "acme", "--email", "not-an-email", "--role", "admin"], "email"],
    [["--org", "acme", "--email", "b@x.io", "--role", "owner"], "--role"],
    [["--org", "nope", "--email", "b@x.io", "--role", "member"], "organization"],
    [["--email", "b@x.io", "--role", "member"], "--org"],
  ])("refuses bad input %p", async (args, mention) => {
    const r = await rivals(["member", "add", ...args]);
    expect(r.code).not.toBe(0);
    expect(r.out).toBe("");
    expect(r.err).toContain(mention);
  });

  test("refuses a short password and an empty stdin", async () => {
    const short = await rivals(
      ["member", "add", "--org", "acme", "--email", "c@x.io", "--role", "member", "--password-stdin"],
      "short\n",
    );
    expect(short.code).not.toBe(0);
    expect(short.err).toContain("at least 8");
    const empty = await rivals(
      ["member", "add", "--org", "acme", "--email", "c@x.io", "--role", "member", "--password-stdin"],
      "",
    );
    expect(empty.code).not.toBe(0);
    expect(empty.err).toContain("stdin");
  });
});
