// `rivals member add` as a user runs it: a real process on a temp database, the password on stdin.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runProcess } from "../e2e/harness.ts";

// Every password check is a deliberate argon2id computation; leave room when the whole suite runs.
setDefaultTimeout(30_000);

const dir = mkdtempSync(join(tmpdir(), "rivals-member-cli-"));
const env = { ...process.env, RIVALS_DB: `file:${join(dir, "rivals.db")}` };

const rivals = (args: string[], stdin?: string) =>
  runProcess([process.execPath, "src/main.ts", ...args], { env, stdin });

/** `rivals member add` without a password. */
const memberAdd = (org: string, email: string, role: string) =>
  rivals(["member", "add", "--org", org, "--email", email, "--role", role]);

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
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j).toEqual({ user_id: expect.any(Number), org: "acme", email: "ada@example.com", role: "admin" });

    const { openServices } = await import("../../src/services.ts");
    const { loadConfig } = await import("../../src/config.ts");
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
    const a = JSON.parse((await rivals(["member", "list", "--org", "acme"])).stdout);
    const r = await memberAdd("beta", "ada@example.com", "member");
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ user_id: a.user_id, org: "beta", role: "member" });
  });

  test("changing the role of an existing member", async () => {
    const r = await memberAdd("beta", "ada@example.com", "admin");
    expect(JSON.parse(r.stdout).role).toBe("admin");
    const list = (await rivals(["member", "list", "--org", "beta"])).stdout
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
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(mention);
  });

  test("refuses a short password and an empty stdin", async () => {
    const short = await rivals(
      ["member", "add", "--org", "acme", "--email", "c@x.io", "--role", "member", "--password-stdin"],
      "short\n",
    );
    expect(short.code).not.toBe(0);
    expect(short.stderr).toContain("at least 8");
    const empty = await rivals(
      ["member", "add", "--org", "acme", "--email", "c@x.io", "--role", "member", "--password-stdin"],
      "",
    );
    expect(empty.code).not.toBe(0);
    expect(empty.stderr).toContain("stdin");
  });
});
