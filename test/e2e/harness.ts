// End-to-end harness: runs the compiled binary (RIVALS_E2E_BINARY, e.g. dist/rivals) as a user would,
// from a temp directory without node_modules, each test with its own database file.
//
// `npm test` (plain `bun test`) leaves RIVALS_E2E_BINARY unset, and every e2e suite is skipped with a
// note saying so; `npm run build && npm run test:e2e` runs them.
import { afterAll, describe, test } from "bun:test";
import { copyFileSync, existsSync, linkSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";

const configured = process.env.RIVALS_E2E_BINARY;
export const e2eEnabled = Boolean(configured);

/** A suite of the binary's tests; without RIVALS_E2E_BINARY it is one skipped test that says how to run it.
 * (bun test runs no process exit handlers, so the suite removes its temp copy of the binary itself.) */
export function e2eSuite(name: string, body: () => void): void {
  if (e2eEnabled)
    describe(name, () => {
      body();
      afterAll(removeBinary);
    });
  else test.skip(`${name}: needs RIVALS_E2E_BINARY (npm run build && npm run test:e2e)`, () => {});
}

const root = resolve(import.meta.dir, "..", "..");
let installed: { dir: string; path: string } | undefined;

/** The binary, placed once per run in a temp directory with no node_modules above it. */
function binary(): string {
  if (installed) return installed.path;
  if (!configured) throw new Error("RIVALS_E2E_BINARY is not set");
  const source = isAbsolute(configured) ? configured : join(root, configured);
  if (!existsSync(source))
    throw new Error(`RIVALS_E2E_BINARY: no file at ${source}; run npm run build first`);
  const dir = mkdtempSync(join(tmpdir(), "rivals-e2e-bin-"));
  const target = join(dir, "rivals");
  try {
    linkSync(source, target);
  } catch {
    copyFileSync(source, target);
  }
  installed = { dir, path: target };
  return target;
}

function removeBinary(): void {
  if (installed) rmSync(installed.dir, { recursive: true, force: true });
  installed = undefined;
}

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as one JSON value per line. */
  json(): any[];
}

export interface Workspace {
  dir: string;
  db: string;
  /** Runs `rivals …args` in the workspace directory against its database. */
  run(args: string[], opts?: { stdin?: string; env?: Record<string, string> }): Promise<Run>;
  /** Runs a command that must succeed and returns its single JSON line. */
  ok(args: string[], opts?: { stdin?: string }): Promise<any>;
  serve(env?: Record<string, string>): Promise<Server>;
  /** Stops its servers and removes its directory. */
  close(): Promise<void>;
}

export interface Server {
  base: string;
  port: number;
  get(path: string, key?: string, headers?: Record<string, string>): Promise<Response>;
  stop(): Promise<void>;
}

/** The environment a user's shell would give the binary: nothing of this test run's own RIVALS_* vars. */
function baseEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const k of ["PATH", "HOME", "TMPDIR", "LANG"]) if (process.env[k]) env[k] = process.env[k]!;
  return env;
}

export async function freePort(): Promise<number> {
  const s = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const p = s.port!;
  s.stop(true);
  return p;
}

/** Runs a command to its end and collects its output; `stdin`, when given, is its whole input.
 * (Also used by unit tests that run a CLI process: this module imports nothing from src.) */
export async function runProcess(
  cmd: string[],
  opts: { cwd?: string; env: Record<string, string | undefined>; stdin?: string },
): Promise<{ code: number; stdout: string; stderr: string }> {
  const proc = Bun.spawn(cmd, {
    cwd: opts.cwd,
    env: opts.env,
    stdin: opts.stdin === undefined ? "ignore" : new Blob([opts.stdin]),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { code, stdout, stderr };
}

export function workspace(name = "ws"): Workspace {
  const bin = binary();
  const dir = mkdtempSync(join(tmpdir(), `rivals-e2e-${name}-`));
  mkdirSync(join(dir, "data"), { recursive: true });
  const db = `file:${join(dir, "data", "rivals.db")}`;
  const servers: Server[] = [];

  const run: Workspace["run"] = async (args, opts = {}) => {
    const { code, stdout, stderr } = await runProcess([bin, ...args], {
      cwd: dir,
      env: { ...baseEnv(), RIVALS_DB: db, ...opts.env },
      stdin: opts.stdin,
    });
    return {
      code,
      stdout,
      stderr,
      json: () =>
        stdout
          .split("\n")
          .filter((l) => l.trim())
          .map((l) => JSON.parse(l)),
    };
  };

  return {
    dir,
    db,
    run,
    async ok(args, opts) {
      const r = await run(args, opts);
      if (r.code !== 0)
        throw new Error(
          `rivals ${args.join(" ")} exited ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`,
        );
      const lines = r.json();
      if (lines.length !== 1)
        throw new Error(`expected one JSON line from rivals ${args.join(" ")}: ${r.stdout}`);
      return lines[0];
    },
    async serve(env = {}) {
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const proc = Bun.spawn([bin, "serve"], {
        cwd: dir,
        env: {
          ...baseEnv(),
          RIVALS_DB: db,
          PORT: String(port),
          RIVALS_BASE_URL: base,
          HOST: "127.0.0.1",
          ...env,
        },
        stdin: "ignore",
        stdout: "pipe",
        stderr: "pipe",
      });
      const stderr = new Response(proc.stderr).text();
      // Ready when the port answers; poll, never sleep a fixed time.
      const deadline = Date.now() + 20_000;
      for (;;) {
        if (proc.exitCode !== null)
          throw new Error(`rivals serve exited ${proc.exitCode} before listening: ${await stderr}`);
        try {
          await fetch(`${base}/api/v1/competitors`);
          break;
        } catch {
          if (Date.now() > deadline) {
            proc.kill();
            throw new Error("rivals serve did not answer within 20 s");
          }
          await Bun.sleep(25);
        }
      }
      const server: Server = {
        base,
        port,
        get: (path, key, headers = {}) =>
          fetch(base + path, { headers: { ...headers, ...(key ? { authorization: `Bearer ${key}` } : {}) } }),
        async stop() {
          if (proc.exitCode === null) proc.kill("SIGTERM");
          await proc.exited;
        },
      };
      servers.push(server);
      return server;
    },
    async close() {
      await Promise.all(servers.map((s) => s.stop()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A small workspace's worth of import records: competitors, open and closed signals, a digest, a battlecard. */
export function fixtureLines(org: string): object[] {
  const lines: object[] = [];
  const competitors = ["globex", "initech", "umbrella"];
  for (const [i, key] of competitors.entries())
    lines.push({
      kind: "competitor",
      org,
      key,
      name: key[0].toUpperCase() + key.slice(1),
      website_url: `https://${key}.example`,
      category: "Analytics",
      watch: i === 2 ? "horizon" : "core",
      priority: i + 1,
      tracked_since: `2026-0${i + 1}-01T00:00:00Z`,
      description: `${key} sells analytics.`,
      reads: { positioning: `${key} is the fast one.` },
      internal: { team_notes: "never served" },
    });
  for (let i = 0; i < 12; i++) {
    lines.push({
      kind: "signal",
      org,
      key: `s${i}`,
      competitor: competitors[i % 3],
      title: i % 4 === 0 ? `Pricing change number ${i}` : `Hiring push ${i}`,
      summary: `Summary of signal ${i}.`,
      category: i % 4 === 0 ? "pricing" : "hiring",
      type: i % 4 === 0 ? "price_change" : "job_posting",
      severity: ["low", "medium", "high"][i % 3],
      status: i === 11 ? "closed" : "open",
      first_seen_at: `2026-10-${String(10 + i).padStart(2, "0")}T08:00:00Z`,
      confidence: 0.5 + i / 100,
      topics: ["t"],
      evidence: [{ text: `evidence ${i}`, source_url: `https://news.example/${i}` }],
    });
  }
  lines.push({
    kind: "digest",
    org,
    key: "w45",
    slug: "week-45",
    type: "weekly_tldr",
    status: "generated",
    title: "Week 45",
    headline: "Prices up",
    tldr: "Globex raised prices.",
    coverage_period_start: "2026-11-02T00:00:00Z",
    coverage_period_end: "2026-11-09T00:00:00Z",
    generated_at: "2026-11-09T06:00:00Z",
    items: [{ title: "Globex pricing" }],
    signals: ["s0", "s4"],
    markdown: "# Week 45",
  });
  lines.push({
    kind: "battlecard",
    org,
    key: "bc-globex",
    competitor: "globex",
    status: "generated",
    generated_at: "2026-11-10T00:00:00Z",
    sections: { why_we_win: ["Faster"] },
    evidence: { why_we_win: ["https://globex.example/pricing"] },
  });
  return lines;
}

export const ndjson = (lines: object[]) => `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`;
