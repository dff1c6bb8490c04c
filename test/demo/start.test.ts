// `npm start` as a newcomer sees it: the real `bun src/main.ts serve --demo` (and `demo`, `demo reset-password`)
// as child processes on a temp database. The first start prints the sign-in address, the demo admin's email
// and generated password beside the API key; the password signs in to the app pages. A second start reuses
// the workspace, shows no password and says how to get a new one; the reset command prints one that works,
// the old one stops working and the admin's sessions end. Neither secret is stored in clear.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hidden, Jar } from "../support/members-helpers.ts";

setDefaultTimeout(60_000);

const ROOT = join(import.meta.dir, "..", "..");
let dir: string;
let env: Record<string, string>;
let base: string;

async function freePort(): Promise<number> {
  const s = Bun.serve({ port: 0, fetch: () => new Response() });
  const p = s.port!;
  s.stop(true);
  return p;
}

function cli(args: string[]) {
  const r = Bun.spawnSync([process.execPath, "src/main.ts", ...args], { cwd: ROOT, env });
  return { code: r.exitCode, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
}

/** Starts `serve --demo` and returns what it printed before it listened, and a way to stop it. */
async function serveDemo(): Promise<{ banner: string; stop: () => Promise<void> }> {
  const proc = Bun.spawn([process.execPath, "src/main.ts", "serve", "--demo"], {
    cwd: ROOT,
    env,
    stdout: "pipe",
    stderr: "pipe",
  });
  const reader = proc.stdout.getReader();
  const decoder = new TextDecoder();
  let out = "";
  while (!out.includes('"listening":true')) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`serve --demo ended early: ${out}${await new Response(proc.stderr).text()}`);
    out += decoder.decode(value);
  }
  reader.releaseLock();
  return {
    banner: out,
    stop: async () => {
      proc.kill();
      await proc.exited;
    },
  };
}

function field(banner: string, label: string): string {
  const m = new RegExp(`${label}:\\s+(\\S+)`).exec(banner);
  if (!m) throw new Error(`no ${label} in:\n${banner}`);
  return m[1];
}

async function signIn(email: string, password: string) {
  const jar = new Jar();
  const html = await (await jar.fetch(`${base}/signin`)).text();
  const res = await jar.post(`${base}/signin`, { email, password, csrf: hidden(html, "csrf")!, next: "" });
  return { jar, res };
}

async function competitorCount(key: string): Promise<number> {
  const r = await fetch(`${base}/api/v1/competitors`, { headers: { authorization: `Bearer ${key}` } });
  expect(r.status).toBe(200);
  return ((await r.json()) as { data: unknown[] }).data.length;
}

/** Every byte the database holds on disk (file, WAL), as text. */
function databaseBytes(): string {
  return readdirSync(dir)
    .filter((f) => f.startsWith("rivals.db"))
    .map((f) => readFileSync(join(dir, f)).toString("latin1"))
    .join("");
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "rivals-demo-start-"));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  env = {
    PATH: process.env.PATH ?? "",
    RIVALS_DB: `file:${join(dir, "rivals.db")}`,
    PORT: String(port),
    HOST: "127.0.0.1",
    RIVALS_BASE_URL: base,
  };
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("npm start's demo workspace", () => {
  let firstPassword: string;
  let firstKey: string;
  let jar: Jar;

  test("the first start prints the sign-in address, email and a generated password beside the API key", async () => {
    const server = await serveDemo();
    try {
      const b = server.banner;
      expect(b).toContain('Demo workspace "demo" loaded.');
      expect(b).toContain(`Sign in: ${base}/signin`);
      firstKey = field(b, "API key \\(shown once\\)");
      expect(firstKey).toStartWith("rvl_");
      const email = field(b, "email");
      expect(email).toBe("admin@demo.example");
      firstPassword = field(b, "password");
      expect(firstPassword).toMatch(/^[\w-]{22}$/);
      expect(await competitorCount(firstKey)).toBeGreaterThan(0);

      const signed = await signIn(email, firstPassword);
      expect(signed.res.status).toBe(303);
      jar = signed.jar;
      const app = await jar.fetch(`${base}/app/competitors`);
      expect(app.status).toBe(200);
      expect(await app.text()).toContain("Globex Insights");
      expect((await signIn(email, "not the password")).res.status).not.toBe(303);
    } finally {
      await server.stop();
    }
    const stored = databaseBytes();
    expect(stored).not.toContain(firstPassword);
    expect(stored).not.toContain(firstKey);
  });

  test("a second start reuses the workspace, shows no password and says how to sign in", async () => {
    const server = await serveDemo();
    try {
      const b = server.banner;
      expect(b).toContain('Demo workspace "demo" reused');
      expect(b).toContain(`Sign in: ${base}/signin`);
      expect(field(b, "email")).toBe("admin@demo.example");
      expect(b).not.toContain(firstPassword);
      expect(b).toContain("the one printed at the first start");
      expect(b).toContain("npm run rivals -- demo reset-password");
      const key = field(b, "API key \\(shown once\\)");
      expect(key).not.toBe(firstKey);
      // The same records (imported once), and both keys work.
      expect(await competitorCount(key)).toBe(await competitorCount(firstKey));
      // The first password still signs in; the first session is still signed in.
      expect((await signIn("admin@demo.example", firstPassword)).res.status).toBe(303);
      expect((await jar.fetch(`${base}/app/competitors`)).status).toBe(200);

      // `rivals demo reset-password` (the server keeps running): a new password, sessions ended.
      const reset = cli(["demo", "reset-password"]);
      expect(reset.stderr).toBe("");
      expect(reset.code).toBe(0);
      const r = JSON.parse(reset.stdout);
      expect(r).toMatchObject({ signin_url: `${base}/signin`, email: "admin@demo.example" });
      expect(r.password).toMatch(/^[\w-]{22}$/);
      expect(r.ended_sessions).toBe(2);
      const gone = await jar.fetch(`${base}/app/competitors`);
      expect(gone.status).toBe(303);
      expect(gone.headers.get("location")).toStartWith("/signin");
      expect((await signIn("admin@demo.example", firstPassword)).res.status).not.toBe(303);
      expect((await signIn("admin@demo.example", r.password)).res.status).toBe(303);
      expect(databaseBytes()).not.toContain(r.password);
    } finally {
      await server.stop();
    }
  });

  test("`rivals demo` prints the same sign-in as JSON; the password only when it made one", () => {
    const out = cli(["demo"]);
    expect(out.code).toBe(0);
    const d = JSON.parse(out.stdout);
    expect(d).toMatchObject({
      base_url: base,
      org: "demo",
      signin_url: `${base}/signin`,
      email: "admin@demo.example",
      password: null,
      password_reset: "rivals demo reset-password",
    });
    expect(d.api_key).toStartWith("rvl_");

    // A fresh database: the first `rivals demo` makes the admin and prints its password.
    const fresh = mkdtempSync(join(tmpdir(), "rivals-demo-cli-"));
    try {
      const first = Bun.spawnSync([process.execPath, "src/main.ts", "demo"], {
        cwd: ROOT,
        env: { ...env, RIVALS_DB: `file:${join(fresh, "rivals.db")}` },
      });
      expect(first.exitCode).toBe(0);
      expect(JSON.parse(first.stdout.toString()).password).toMatch(/^[\w-]{22}$/);
      const noDemo = Bun.spawnSync([process.execPath, "src/main.ts", "demo", "reset-password"], {
        cwd: ROOT,
        env: { ...env, RIVALS_DB: `file:${join(fresh, "other.db")}` },
      });
      expect(noDemo.exitCode).not.toBe(0);
      expect(noDemo.stderr.toString()).toContain("no demo workspace");
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
    expect(cli(["demo", "bogus"]).code).not.toBe(0);
  });
});
